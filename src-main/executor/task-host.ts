import type { RetryPolicy } from '../llm/retry';
import type { Model, Usage } from '../llm/types';
import type { SkillLoader } from '../skills';
import type { Db } from '../store';
import type { TaskFiles } from './context';
import type { Semaphore } from './graph';
import type { SkillCache } from './skill-cache';
import type { SynthesisWriter } from './synthesis-step';
import type { TaskStore } from './task-store';
import type { NamedTool, SubAgentLoop, TaskRecord, TaskStatus, ToolGrant } from './types';

/**
 * What the executor is configured with and what one running task is made of: the options, the
 * budgets, a live task's handle, and TaskHost — the part of the TaskExecutor that one task's run
 * (run-task.ts) uses. Apart from executor.ts so that the dispatch-and-bookkeeping side and the
 * run-one-sub-agent side each read these shapes without importing the other.
 */

export interface TaskBudget {
  /** Input + output tokens (cache reads and writes included) over the whole sub-agent run. */
  tokens: number;
  /** Wall time from start of the run to the end of validation. */
  timeMs: number;
}

export interface TaskExecutorOptions<T extends NamedTool, C> {
  db: Db;
  /** ForgeFS (or anything with `forSession`): results go to `/session/results/<id>.md`. */
  files: { forSession(sessionId: string): TaskFiles };
  skills: Pick<SkillLoader, 'find' | 'loadWithFiles' | 'catalog'> & Partial<Pick<SkillLoader, 'scriptsAllowed'>>;
  model: Model;
  /** The agent's bounded tool loop (`runAgent`). */
  runLoop: SubAgentLoop<T, C>;
  /** Builds a sub-agent's tools for a grant; anything outside `grant.allowed` is dropped here anyway. */
  toolsFor: (grant: ToolGrant) => { tools: readonly T[]; context: C };
  /** Writes a synthesis task's memory updates through the write pipeline (absent: they are reported, not written). */
  writeSynthesis?: SynthesisWriter;
  concurrency?: number;
  maxRounds?: number;
  maxTokensPerCall?: number;
  budget?: Partial<TaskBudget>;
  /** Retries for a model that does not retry by itself; one that does (AnthropicModel) keeps its own policy. */
  retry?: Partial<RetryPolicy>;
  now?: () => Date;
}

export const DEFAULT_CONCURRENCY = 8;
export const DEFAULT_BUDGET: TaskBudget = { tokens: 250_000, timeMs: 10 * 60_000 };

export type StopReason = 'cancelled' | 'budget_tokens' | 'budget_time' | 'interrupted';

export interface Live {
  rec: TaskRecord;
  controller: AbortController;
  stopReason: StopReason | null;
  done: Promise<TaskRecord>;
  settle: (r: TaskRecord) => void;
  settled: boolean;
}

export type TaskListener = (task: TaskRecord) => void;

export const key = (sessionId: string, id: string) => `${sessionId}\u0000${id}`;

/** What a task's run (run-task.ts) needs from the TaskExecutor that started it. */
export interface TaskHost<T extends NamedTool, C> {
  readonly opts: TaskExecutorOptions<T, C>;
  readonly store: TaskStore;
  readonly slots: Semaphore;
  readonly budget: TaskBudget;
  readonly skillCache: SkillCache;
  /** A task still running in this process, if it is one. */
  liveTask(sessionId: string, id: string): Live | undefined;
  iso(): string;
  update(l: Live, patch: Partial<TaskRecord>, event?: { kind: string; detail?: string }): void;
  finish(l: Live, patch: Partial<TaskRecord> & { status: TaskStatus }, kind: string, detail?: string): void;
  stop(l: Live, reason: StopReason): void;
  addUsage(l: Live, u: Usage, round: number): void;
  /** The model under the shared retry policy, each retry recorded on the task's event trail. */
  modelFor(l: Live): Model;
}
