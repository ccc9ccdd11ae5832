import type { z } from 'zod';
import { NotFoundError } from '../../common/errors';
import type { TaskView, taskProcedures } from '../../api/tasks';
import type { TaskExecutor, TaskRecord } from '../../executor';
import type { ForgeFS } from '../../fs';
import type { CoreContext } from '../context';
import type { PartialHandlerMap } from './types';

/** The shape the Tasks screen reads (and the `tasks/changed` event carries). */
export function toTaskView(t: TaskRecord, now: Date = new Date()): TaskView {
  const start = t.startedAt ? Date.parse(t.startedAt) : null;
  const end = t.finishedAt ? Date.parse(t.finishedAt) : now.getTime();
  return {
    sessionId: t.sessionId,
    id: t.id,
    skill: t.spec.skill,
    objective: t.spec.objective,
    context: t.spec.context,
    notes: t.spec.notes ?? null,
    dependsOn: t.spec.dependsOn,
    retryOf: t.spec.retryOf ?? null,
    validate: t.spec.validate,
    validateContrastive: t.spec.validateContrastive,
    status: t.status,
    failure: t.failure,
    error: t.error,
    summary: t.summary,
    resultPath: t.resultPath ? t.resultPath.replace(/^\/session\//, `/session/${t.sessionId}/`) : null,
    validation: t.validation && {
      contrastive: t.validation.contrastive,
      verdict: t.validation.verdict,
      feedback: t.validation.feedback,
      counterargument: t.validation.counterargument,
    },
    inputTokens: t.inputTokens,
    outputTokens: t.outputTokens,
    costUsd: t.costUsd,
    rounds: t.rounds,
    createdAt: t.createdAt,
    startedAt: t.startedAt,
    finishedAt: t.finishedAt,
    updatedAt: t.updatedAt,
    durationMs: start === null ? null : Math.max(0, end - start),
  };
}

type P = typeof taskProcedures;
type TaskHandlerMap = {
  [N in keyof P]: (input: z.output<P[N]['input']>, ctx: CoreContext) => z.output<P[N]['output']> | Promise<z.output<P[N]['output']>>;
};

/** Handlers for tasks/list, tasks/get, tasks/cancel and tasks/retry over one core's executor. */
export function taskHandlers(executor: Pick<TaskExecutor, 'find' | 'list' | 'events' | 'cancel' | 'retryTask'>, fs: () => ForgeFS): PartialHandlerMap {
  const require = (sessionId: string, id: string): TaskRecord => {
    const t = executor.find(sessionId, id);
    if (!t) throw new NotFoundError(`No task "${id}" in session ${sessionId}; it may belong to another session.`);
    return t;
  };
  const handlers: TaskHandlerMap = {
    'tasks/list': (input) => ({
      tasks: executor.list({ sessionId: input.sessionId, status: input.status, limit: input.limit ?? 200, before: input.before }).map((t) => toTaskView(t)),
    }),
    'tasks/get': (input) => {
      const t = require(input.sessionId, input.id);
      let output: string | null = null;
      if (t.resultPath) {
        const files = fs().forSession(t.sessionId);
        output = files.exists(t.resultPath) ? files.readFile(t.resultPath) : null;
      }
      return { task: toTaskView(t), output, events: executor.events(t.sessionId, t.id).map((e) => ({ seq: e.seq, at: e.at, kind: e.kind, detail: e.detail })) };
    },
    'tasks/cancel': (input) => {
      require(input.sessionId, input.id);
      return { task: toTaskView(executor.cancel(input.sessionId, input.id)) };
    },
    'tasks/retry': (input) => {
      require(input.sessionId, input.id);
      return { task: toTaskView(executor.retryTask(input.sessionId, input.id, input.feedback)) };
    },
  };
  // The procedures join api/procedures.ts when the lead wires them; until then the map is typed here.
  return handlers as unknown as PartialHandlerMap;
}
