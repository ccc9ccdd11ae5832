import { AppError, ConflictError, NotFoundError } from '../common/errors';
import { DEFAULT_RETRY, type RetryNotice, type RetryPolicy, withRetries } from '../llm/retry';
import type { Model, Usage } from '../llm/types';
import { findCycle, Semaphore } from './graph';
import { runTask } from './run-task';
import { SkillCache } from './skill-cache';
import { checkTaskId, type DispatchInput, freshSpec, retrySpec } from './spec';
import {
  DEFAULT_BUDGET,
  DEFAULT_CONCURRENCY,
  key,
  type Live,
  type StopReason,
  type TaskBudget,
  type TaskExecutorOptions,
  type TaskHost,
  type TaskListener,
} from './task-host';
import { type TaskListFilter, TaskStore } from './task-store';
import { abortable } from './retry';
import { isTerminal, type NamedTool, type TaskEvent, type TaskRecord, type TaskSpec, type TaskStatus } from './types';

/**
 * TaskExecutor (seed §5): runs sub-agents in the background, bounded in number; resolves
 * `depends_on` and injects dependency summaries; retries transient model failures; validates;
 * enforces per-task budgets and tool grants; persists every state change; never drops a failure.
 * This file is dispatch, reads, cancel and each task's bookkeeping (update, finish, budgets); the
 * run of one sub-agent is run-task.ts, which reaches this class through TaskHost (task-host.ts).
 */
export class TaskExecutor<T extends NamedTool = NamedTool, C = unknown> {
  readonly store: TaskStore;
  /**
   * Tasks not yet finished, only: a finished task leaves at once and is read back from SQLite,
   * so memory does not grow with the number of tasks run.
   */
  private readonly live = new Map<string, Live>();
  /** Tasks with a larger rowid were dispatched by this run (collect('all'), collect('ready')). */
  private readonly runAfterRowid: number;
  private readonly listeners = new Set<TaskListener>();
  private readonly slots: Semaphore;
  private readonly budget: TaskBudget;
  private readonly retry: RetryPolicy;
  private readonly now: () => Date;
  private readonly skillCache: SkillCache;
  /** What run-task.ts needs from this executor (its bookkeeping stays here, the only writer of a task's record). */
  private readonly host: TaskHost<T, C>;
  private closed = false;
  /** How many tasks a previous run left unfinished (now failed/interrupted). */
  readonly interruptedOnStart: number;

  constructor(private readonly opts: TaskExecutorOptions<T, C>) {
    this.store = new TaskStore(opts.db);
    this.slots = new Semaphore(opts.concurrency ?? DEFAULT_CONCURRENCY);
    this.skillCache = new SkillCache(opts.skills);
    this.budget = { ...DEFAULT_BUDGET, ...opts.budget };
    this.retry = { ...DEFAULT_RETRY, ...opts.retry };
    this.now = opts.now ?? (() => new Date());
    this.interruptedOnStart = this.store.markInterrupted(this.iso());
    this.runAfterRowid = this.store.lastRowid();
    this.host = {
      opts,
      store: this.store,
      slots: this.slots,
      budget: this.budget,
      skillCache: this.skillCache,
      liveTask: (sessionId, id) => this.live.get(key(sessionId, id)),
      iso: () => this.iso(),
      update: (l, patch, event) => this.update(l, patch, event),
      finish: (l, patch, kind, detail) => this.finish(l, patch, kind, detail),
      stop: (l, reason) => this.stop(l, reason),
      addUsage: (l, u, round) => this.addUsage(l, u, round),
      modelFor: (l) => this.modelFor(l),
    };
  }

  private iso(): string {
    return this.now().toISOString();
  }

  onChange(listener: TaskListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  setConcurrency(limit: number): void {
    this.slots.setLimit(limit);
  }

  // ---- dispatch --------------------------------------------------------------------------------

  /** Starts one task and returns at once (seed §3.4). Unknown skill, unknown dependency or a cycle throw. */
  submit(sessionId: string, input: DispatchInput): TaskRecord {
    return this.submitAll(sessionId, [input])[0]!;
  }

  /**
   * Starts several tasks that may depend on each other (dispatches from one model turn). All are
   * checked before any starts: an unknown id or a cycle rejects the whole batch.
   */
  submitAll(sessionId: string, inputs: DispatchInput[]): TaskRecord[] {
    if (this.closed) throw new AppError('unavailable', 'Forge is shutting down; no new tasks start.');
    const specs: TaskSpec[] = [];
    const batch = new Set<string>();
    for (const input of inputs) {
      checkTaskId(input.id);
      if (batch.has(input.id) || this.find(sessionId, input.id)) {
        throw new ConflictError(`Task id "${input.id}" is already used in this session. Pick a new id, or use retry_of="${input.id}" to run it again.`);
      }
      batch.add(input.id);
      let spec: TaskSpec;
      if (input.retryOf) {
        const original = this.find(sessionId, input.retryOf);
        if (!original) throw new NotFoundError(`Cannot retry "${input.retryOf}": no task with that id in this session.`);
        if (!isTerminal(original.status))
          throw new ConflictError(`Task "${input.retryOf}" is still ${original.status}; cancel it first or wait for it before retrying.`);
        spec = retrySpec(original, input, (dep) => this.latestAttempt(sessionId, dep));
      } else {
        spec = freshSpec(input);
      }
      if (!this.opts.skills.find(spec.skill)) {
        const names = this.opts.skills
          .catalog()
          .map((c) => c.name)
          .join(', ');
        throw new NotFoundError(`There is no skill "${spec.skill}". Installed skills: ${names || 'none'}.`);
      }
      specs.push(spec);
    }
    const edges = new Map<string, readonly string[]>(specs.map((s) => [s.id, s.dependsOn]));
    for (const s of specs) {
      for (const dep of s.dependsOn) {
        if (!batch.has(dep) && !this.find(sessionId, dep)) {
          throw new NotFoundError(`Task "${s.id}" depends on "${dep}", which was never dispatched in this session. Dispatch "${dep}" first, or fix the id.`);
        }
      }
    }
    const cycle = findCycle(edges);
    if (cycle) throw new ConflictError(`These tasks wait on each other in a circle: ${cycle.join(' → ')}. Remove one of the depends_on links.`);

    return specs.map((spec) => this.start(sessionId, spec));
  }

  /** Retries a finished task under a new id (`<id>-r1`, `-r2` ...), for the Tasks screen's Retry. */
  retryTask(sessionId: string, id: string, feedback?: string): TaskRecord {
    const base = id.replace(/-r\d+$/, '');
    return this.submit(sessionId, { id: `${base}-r${this.store.freeRetryNumber(sessionId, base)}`, retryOf: id, feedback });
  }

  private start(sessionId: string, spec: TaskSpec): TaskRecord {
    const at = this.iso();
    const rec: TaskRecord = {
      sessionId,
      id: spec.id,
      spec,
      status: spec.dependsOn.length ? 'waiting' : 'queued',
      failure: null,
      error: null,
      summary: null,
      resultPath: null,
      validation: null,
      inputTokens: 0,
      outputTokens: 0,
      costUsd: 0,
      rounds: 0,
      createdAt: at,
      startedAt: null,
      finishedAt: null,
      updatedAt: at,
    };
    let settle!: (r: TaskRecord) => void;
    const done = new Promise<TaskRecord>((r) => (settle = r));
    const live: Live = { rec, controller: new AbortController(), stopReason: null, done, settle, settled: false };
    this.live.set(key(sessionId, spec.id), live);
    this.store.save(rec, { kind: 'dispatched', detail: spec.retryOf ? `retry of ${spec.retryOf}` : '' });
    this.emit(rec);
    runTask(this.host, live).catch((e) => {
      // Only reachable when recording itself fails (database closed under us): settle anyway so no waiter hangs.
      if (!live.settled) {
        live.settled = true;
        this.live.delete(key(sessionId, spec.id));
        live.settle({ ...live.rec, status: 'failed', failure: 'internal', error: `Could not record this task: ${(e as Error)?.message ?? String(e)}` });
      }
    });
    return { ...rec };
  }

  // ---- reads -----------------------------------------------------------------------------------

  /** A task of this run or of an earlier one (from the database). */
  find(sessionId: string, id: string): TaskRecord | null {
    const l = this.live.get(key(sessionId, id));
    return l ? { ...l.rec } : this.store.get(sessionId, id);
  }

  list(filter: TaskListFilter = {}): TaskRecord[] {
    return this.store.list(filter);
  }

  events(sessionId: string, id: string): TaskEvent[] {
    return this.store.events(sessionId, id);
  }

  /** The newest attempt of a task that was not cancelled (following retry_of), else the id itself. */
  latestAttempt(sessionId: string, id: string): string {
    return this.store.latestAttempt(sessionId, id);
  }

  /** Waits for one task (collect('<id>')). */
  async waitFor(sessionId: string, id: string, signal?: AbortSignal): Promise<TaskRecord> {
    const l = this.live.get(key(sessionId, id));
    if (!l) {
      const stored = this.store.get(sessionId, id);
      if (!stored) throw new NotFoundError(`No task "${id}" in this session. collect("all") lists the tasks there are.`);
      return stored;
    }
    return abortable(l.done, signal);
  }

  /** Waits for every task of the session started in this run, in dispatch order (collect('all')). */
  async waitAll(sessionId: string, signal?: AbortSignal): Promise<TaskRecord[]> {
    const open = [...this.live.values()].filter((l) => l.rec.sessionId === sessionId);
    await abortable(Promise.all(open.map((l) => l.done)), signal);
    const out = this.store.runTasks(sessionId, this.runAfterRowid).map((t) => this.find(sessionId, t.id) ?? t);
    this.acknowledge(
      sessionId,
      out.filter((t) => isTerminal(t.status)).map((t) => t.id),
    );
    return out;
  }

  /** Tasks finished since the last collect, without waiting, in the order they finished (collect('ready')). */
  drainCompleted(sessionId: string): TaskRecord[] {
    const out = this.store.uncollected(sessionId, this.runAfterRowid);
    this.acknowledge(
      sessionId,
      out.map((t) => t.id),
    );
    return out;
  }

  /** Tasks of the session still queued, waiting, running or validating. */
  pendingCount(sessionId: string): number {
    let n = 0;
    for (const l of this.live.values()) if (l.rec.sessionId === sessionId) n++;
    return n;
  }

  /** The analyst has seen these results (collect): collect('ready') will not show them again. */
  acknowledge(sessionId: string, ids: string[]): void {
    this.store.markCollected(sessionId, ids, this.iso());
  }

  // ---- cancel ----------------------------------------------------------------------------------

  /** Stops a task now; its status is `cancelled` at once, whatever the model is doing. */
  cancel(sessionId: string, id: string): TaskRecord {
    const l = this.live.get(key(sessionId, id));
    if (!l) {
      const stored = this.store.get(sessionId, id);
      if (!stored) throw new NotFoundError(`No task "${id}" in this session.`);
      return stored;
    }
    if (!l.settled) this.stop(l, 'cancelled');
    return { ...l.rec };
  }

  /** App shutdown: stops what still runs and records it as interrupted (retryable after restart). */
  async close(): Promise<void> {
    this.closed = true;
    const open = [...this.live.values()].filter((l) => !l.settled);
    for (const l of open) this.stop(l, 'interrupted');
    await Promise.all(open.map((l) => l.done));
  }

  private stop(l: Live, reason: StopReason): void {
    if (l.settled) return;
    l.stopReason = reason;
    l.controller.abort(new AppError('cancelled', 'Stopped at your request.'));
    if (reason === 'cancelled') this.finish(l, { status: 'cancelled', error: 'Cancelled.' }, 'cancelled');
    else if (reason === 'interrupted') {
      this.finish(
        l,
        { status: 'failed', failure: 'interrupted', error: `Interrupted: Forge was closed while this task was ${l.rec.status}. Retry it to run it again.` },
        'interrupted',
      );
    } else {
      const error =
        reason === 'budget_tokens'
          ? `Stopped: the sub-agent used ${(l.rec.inputTokens + l.rec.outputTokens).toLocaleString('en-US')} tokens, over this task's budget of ${this.budget.tokens.toLocaleString('en-US')}. Narrow the objective, then retry.`
          : `Stopped: the sub-agent ran past this task's time budget of ${Math.round(this.budget.timeMs / 1000)} s. Narrow the objective, then retry.`;
      this.finish(l, { status: 'failed', failure: reason, error }, reason);
    }
  }

  // ---- running ---------------------------------------------------------------------------------

  private update(l: Live, patch: Partial<TaskRecord>, event?: { kind: string; detail?: string }): void {
    if (l.settled) return;
    Object.assign(l.rec, patch, { updatedAt: this.iso() });
    this.store.save(l.rec, event);
    this.emit(l.rec);
  }

  private finish(l: Live, patch: Partial<TaskRecord> & { status: TaskStatus }, kind: string, detail = ''): void {
    if (l.settled) return;
    const at = this.iso();
    Object.assign(l.rec, { failure: null, ...patch, finishedAt: at, updatedAt: at });
    l.settled = true;
    this.live.delete(key(l.rec.sessionId, l.rec.id));
    try {
      this.store.save(l.rec, { kind, detail: detail || (l.rec.error ?? '') });
    } catch {
      // The database went away (shutdown): the next start marks the row interrupted; waiters still hear now.
    }
    this.emit(l.rec);
    l.settle({ ...l.rec });
  }

  private emit(rec: TaskRecord): void {
    const snapshot = { ...rec };
    for (const listener of [...this.listeners]) {
      try {
        listener(snapshot);
      } catch {
        // A broken subscriber (closed window) must not stop a task.
      }
    }
  }

  /** The model under the shared retry policy, each retry recorded on the task's event trail. */
  private modelFor(l: Live): Model {
    const model = withRetries(this.opts.model, this.retry);
    const onRetry = ({ attempt, error, delayMs }: RetryNotice) =>
      this.store.event(l.rec.sessionId, l.rec.id, this.iso(), 'model_retry', `attempt ${attempt} failed (${error.kind}); retrying in ${delayMs} ms`);
    return {
      id: model.id,
      isScripted: model.isScripted,
      call: (request) => model.call({ ...request, onRetry }),
      stream: (request, onEvent) => model.stream({ ...request, onRetry }, onEvent),
    };
  }

  private addUsage(l: Live, u: Usage, round: number): void {
    const inputTokens = l.rec.inputTokens + u.inputTokens + u.cacheReadTokens + u.cacheWriteTokens;
    const outputTokens = l.rec.outputTokens + u.outputTokens;
    const costUsd = l.rec.costUsd === null || u.costUsd === null ? null : l.rec.costUsd + u.costUsd;
    this.update(l, { inputTokens, outputTokens, costUsd, rounds: Math.max(l.rec.rounds, round) });
    if (inputTokens + outputTokens > this.budget.tokens) this.stop(l, 'budget_tokens');
  }
}
