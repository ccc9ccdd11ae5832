import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { taskEvents, taskProcedures } from '../../api/tasks';
import { openTestWorkspace, type TestWorkspace } from '../../tools/testing';
import { answer, harness, removeDir, testSkillsRoot } from '../__tests__/tasks-harness';
import type { CoreContext } from '../context';
import { taskHandlers, toTaskView } from './tasks';

type AnyHandler = (input: unknown, ctx: CoreContext) => unknown;

let tw: TestWorkspace;
let skillsRoot: string;
beforeAll(async () => {
  tw = await openTestWorkspace();
  skillsRoot = testSkillsRoot();
});
afterAll(() => {
  tw.close();
  removeDir(skillsRoot);
});

describe('tasks API', () => {
  it('lists, opens, cancels and retries tasks, each answer inside its declared contract', async () => {
    const h = await harness(
      { 'subagent:A': answer('Claims rose again.', 'Full claims table.'), 'subagent:L': answer('never') },
      { tw, skillsRoot, model: { latencyMs: (k) => (k === 'subagent:L' ? 5000 : 5) } },
    );
    const views: unknown[] = [];
    h.executor.onChange((t) => views.push(taskEvents['tasks/changed'].parse(toTaskView(t))));
    const map = taskHandlers(h.executor, () => tw.ws.fs) as unknown as Record<string, AnyHandler>;
    const call = async <N extends keyof typeof taskProcedures>(name: N, input: unknown) => {
      const spec = taskProcedures[name];
      return spec.output.parse(await map[name]!(spec.input.parse(input), {} as CoreContext)) as never;
    };
    try {
      h.executor.submit('sess_api', { id: 'A', skill: 'quick-note', objective: 'A claims' });
      h.executor.submit('sess_api', { id: 'L', skill: 'quick-note', objective: 'L long' });
      await h.executor.waitFor('sess_api', 'A');

      const list: { tasks: { id: string; status: string }[] } = await call('tasks/list', { sessionId: 'sess_api' });
      expect(list.tasks.map((t) => [t.id, t.status]).sort()).toEqual([
        ['A', 'ok'],
        ['L', 'running'],
      ]);
      const running: { tasks: { id: string }[] } = await call('tasks/list', { status: ['running'] });
      expect(running.tasks.map((t) => t.id)).toEqual(['L']);

      const got: { task: { resultPath: string; summary: string; durationMs: number }; output: string; events: { kind: string }[] } = await call('tasks/get', {
        sessionId: 'sess_api',
        id: 'A',
      });
      expect(got.task.resultPath).toBe('/session/sess_api/results/A.md');
      expect(got.task.summary).toBe('Claims rose again.');
      expect(got.output).toBe('## SUMMARY\nClaims rose again.\n\n## DETAIL\nFull claims table.');
      expect(got.events.map((e) => e.kind)).toEqual(['dispatched', 'started', 'skill_loaded', 'output_saved', 'finished']);
      expect(got.task.durationMs).toBeGreaterThanOrEqual(0);

      const cancelled: { task: { status: string } } = await call('tasks/cancel', { sessionId: 'sess_api', id: 'L' });
      expect(cancelled.task.status).toBe('cancelled');

      const retried: { task: { id: string; retryOf: string; status: string; notes: string } } = await call('tasks/retry', {
        sessionId: 'sess_api',
        id: 'L',
        feedback: 'Only the front end.',
      });
      expect(retried.task).toMatchObject({ id: 'L-r1', retryOf: 'L', status: 'queued' });
      expect(retried.task.notes).toContain('Feedback: Only the front end.');

      await expect(call('tasks/get', { sessionId: 'sess_api', id: 'nope' })).rejects.toMatchObject({ code: 'not_found' });
      // The UI heard every state change, as contract-shaped events.
      expect(views.length).toBeGreaterThan(6);
    } finally {
      await h.close();
    }
  });
});
