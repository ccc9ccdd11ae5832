import { readFileSync } from 'node:fs';
import { AppError, ConflictError, NotFoundError } from '../common/errors';
import { sha256 } from '../fs';
import { ModelError } from '../llm/errors';
import { DEFAULT_RETRY, withRetries, type RetryNotice, type RetryPolicy } from '../llm/retry';
import type { Model, Usage } from '../llm/types';
import type { LoadedSkillWithFiles, SkillLoader } from '../skills';
import { skillSection } from '../skills';
import type { Db } from '../store';
import { buildSubAgentMessage, buildSubAgentSystem, extractOutputSummary, type TaskFiles } from './context';
import { findCycle, Semaphore } from './graph';
import { grantTools } from './grants';
import { SkillCache } from './skill-cache';
import { abortable } from './retry';
import { checkTaskId, freshSpec, retrySpec, type DispatchInput } from './spec';
import { SynthesisContractError } from './synthesis';
import { completeSynthesis, synthesisRepairMessage, type SynthesisWriter } from './synthesis-step';
import { TaskStore, type TaskListFilter } from './task-store';
import {
  isTerminal,
  type NamedTool,
  type SubAgentLoop,
  type TaskEvent,
  type TaskFailure,
  type TaskRecord,
  type TaskSpec,
  type TaskStatus,
  type ToolGrant,
} from './types';
import { CONTRASTIVE_VALIDATION_PROMPT, parseVerdict, STANDARD_VALIDATION_PROMPT, validationUserMessage } from './validation';

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

type StopReason = 'cancelled' | 'budget_tokens' | 'budget_time' | 'interrupted';

interface Live {
  rec: TaskRecord;
  controller: AbortController;
  stopReason: StopReason | null;
  done: Promise<TaskRecord>;
  settle: (r: TaskRecord) => void;
  settled: boolean;
}

export type TaskListener = (task: TaskRecord) => void;

const key = (sessionId: string, id: string) => `${sessionId}\u0000${id}`;

/**
 * TaskExecutor (seed §5): runs sub-agents in the background, bounded in number; resolves
 * `depends_on` and injects dependency summaries; retries transient model failures; validates;
 * enforces per-task budgets and tool grants; persists every state change; never drops a failure.
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
    this.execute(live).catch((e) => {
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

  private async execute(l: Live): Promise<void> {
    const { sessionId, spec } = l.rec;
    const signal = l.controller.signal;
    let holding = false;
    let timer: NodeJS.Timeout | undefined;
    try {
      // 1. Dependencies: wait, then take their summaries (a failed one fails this task with its reason).
      const summaries: [string, string][] = [];
      for (const dep of spec.dependsOn) {
        const depLive = this.live.get(key(sessionId, dep));
        const r = depLive ? await abortable(depLive.done, signal) : this.store.get(sessionId, dep);
        if (r?.status !== 'ok') {
          const why = !r ? 'was not found' : r.status === 'cancelled' ? 'was cancelled' : `failed: ${r.error ?? 'no reason recorded'}`;
          this.finish(
            l,
            {
              status: 'failed',
              failure: 'dependency',
              error: `Dependency ${dep} ${why}. Retry ${dep} (dispatch with retry_of="${dep}"), then retry this task.`,
            },
            'failed',
          );
          return;
        }
        summaries.push([dep, r.summary ?? '(no summary)']);
      }
      if (spec.dependsOn.length) this.update(l, { status: 'queued' }, { kind: 'dependencies_met' });

      // 2. A slot (bounded concurrency), then the clock for the time budget starts.
      await this.slots.acquire(signal);
      holding = true;
      timer = setTimeout(() => this.stop(l, 'budget_time'), this.budget.timeMs);
      timer.unref?.();

      // 3. Skill, prompt, tools — tools narrowed here, whatever the factory offered.
      let skill: LoadedSkillWithFiles;
      try {
        skill = this.skillCache.load(spec.skill);
      } catch (e) {
        this.finish(l, { status: 'failed', failure: 'skill', error: (e as Error).message }, 'failed');
        return;
      }
      const scriptsAllowedByPm = skill.scripts.length > 0 && (this.opts.skills.scriptsAllowed?.(skill.name) ?? false);
      const { granted, refused } = grantTools(skill.allowedTools, { scriptsAllowedByPm });
      this.update(
        l,
        { status: 'running', startedAt: this.iso() },
        {
          kind: 'started',
          detail: `tools: ${granted.join(', ')}${refused.length ? `; not granted to sub-agents: ${refused.join(', ')}` : ''}`,
        },
      );
      this.store.event(sessionId, spec.id, this.iso(), 'skill_loaded', skillLoadedDetail(skill));
      const files = this.opts.files.forSession(sessionId);
      const made = this.opts.toolsFor({ sessionId, taskId: spec.id, skill: skill.name, skillDir: skill.dir, allowed: granted, signal });
      const tools = made.tools.filter((t) => granted.includes(t.name));
      const model = this.modelFor(l);
      // A synthesis skill's output carries memory updates: it runs under the synthesis role and is read below.
      const synthesis = skill.metadata?.category === 'synthesis';
      const system = [
        {
          text: buildSubAgentSystem(
            skill,
            tools.map((t) => t.name),
          ),
          stable: true,
        },
      ];
      const brief = buildSubAgentMessage(spec, summaries, files);

      // 4. The sub-agent runs the same bounded loop as the analyst.
      const result = await this.opts.runLoop({
        model,
        role: synthesis ? 'synthesis' : 'subagent',
        system,
        messages: [{ role: 'user', content: brief }],
        tools,
        toolContext: made.context,
        maxRounds: this.opts.maxRounds ?? 12,
        maxTokens: this.opts.maxTokensPerCall ?? 4096,
        signal,
        onEvent: (e) => {
          if (e.type === 'usage' && e.usage) this.addUsage(l, e.usage, e.round ?? 0);
          else if (e.type === 'tool_call' && e.call) this.store.event(sessionId, spec.id, this.iso(), 'tool_call', e.call.name);
        },
      });
      if (result.stop === 'max_rounds') {
        this.finish(
          l,
          {
            status: 'failed',
            failure: 'max_rounds',
            error: `The sub-agent was still calling tools after ${result.rounds} rounds and gave no answer. Narrow the objective, then retry.`,
          },
          'failed',
        );
        return;
      }
      if (!result.text.trim()) {
        this.finish(
          l,
          { status: 'failed', failure: 'output', error: "The sub-agent answered with no text. Retry, or check the skill's Output Format." },
          'failed',
        );
        return;
      }

      // 5. A synthesis: its YAML read (one repair call at most) and its updates written, each outcome reported.
      let output = result.text;
      let rounds = result.rounds;
      let memoryLine = '';
      if (synthesis) {
        try {
          const done = await completeSynthesis({
            text: output,
            repair: async (problem) => {
              this.store.event(sessionId, spec.id, this.iso(), 'synthesis_repair', problem);
              const messages = [
                { role: 'user' as const, content: brief },
                { role: 'assistant' as const, content: output },
                { role: 'user' as const, content: synthesisRepairMessage(problem) },
              ];
              const answer = await model.call({ role: 'synthesis', system, messages, maxTokens: this.opts.maxTokensPerCall ?? 4096, signal });
              this.addUsage(l, answer.usage, ++rounds);
              return answer.text;
            },
            files,
            today: this.iso().slice(0, 10),
            write: async (w) => {
              signal.throwIfAborted();
              const out = this.opts.writeSynthesis
                ? await this.opts.writeSynthesis({ sessionId, taskId: spec.id, write: w, signal })
                : { ok: false, message: 'Not written — memory writes are not connected in this run.' };
              this.store.event(sessionId, spec.id, this.iso(), out.ok ? 'memory_written' : 'memory_refused', `${w.summary}: ${out.message}`.slice(0, 2000));
              return out;
            },
            actor: `subagent:${spec.id}`,
          });
          output = done.text;
          memoryLine = done.line;
        } catch (e) {
          if (!(e instanceof SynthesisContractError)) throw e;
          this.finish(
            l,
            {
              status: 'failed',
              failure: 'output',
              rounds,
              error: `The synthesis's YAML could not be read, even after one repair: ${e.message} Nothing was written to memory. Retry the task; the retry's notes carry this error.`,
            },
            'failed',
          );
          return;
        }
      }

      // 6. Full output to /session/results/<id>.md; SUMMARY for collect and dependants.
      const resultPath = `/session/results/${spec.id}.md`;
      await files.writeFile(resultPath, output, { actor: `subagent:${spec.id}`, taskId: spec.id });
      const summary = [extractOutputSummary(output), memoryLine].filter(Boolean).join('\n');
      this.update(l, { resultPath, summary }, { kind: 'output_saved', detail: resultPath });

      // 7. Validation (standard or contrastive) against the skill's Eval Criteria.
      let validation = null;
      if (spec.validate || spec.validateContrastive) {
        const contrastive = spec.validateContrastive;
        this.update(l, { status: 'validating' }, { kind: 'validating', detail: contrastive ? 'contrastive' : 'standard' });
        try {
          const answer = await model.call({
            role: contrastive ? 'contrastive' : 'validation',
            system: contrastive ? CONTRASTIVE_VALIDATION_PROMPT : STANDARD_VALIDATION_PROMPT,
            messages: [{ role: 'user', content: validationUserMessage(spec.objective, skillSection(skill.body, 'Eval Criteria') ?? '', output) }],
            maxTokens: 800,
            signal,
          });
          this.addUsage(l, answer.usage, l.rec.rounds);
          validation = parseVerdict(answer.text, contrastive);
        } catch (e) {
          if (l.stopReason || signal.aborted) throw e;
          validation = {
            contrastive,
            verdict: 'unclear' as const,
            feedback: `Validation could not run: ${(e as Error).message}`,
            counterargument: '',
            raw: '',
          };
        }
      }
      this.finish(l, { status: 'ok', validation, rounds }, 'finished', validation ? `verdict ${validation.verdict}` : '');
    } catch (e) {
      if (l.settled) return; // cancelled or stopped by a budget: already recorded
      if (l.stopReason) return this.stop(l, l.stopReason);
      const failure: TaskFailure = e instanceof ModelError ? 'model' : 'internal';
      // A ModelError's message already says how many attempts were really made.
      this.finish(l, { status: 'failed', failure, error: (e as Error)?.message ?? String(e) }, 'failed');
    } finally {
      if (timer) clearTimeout(timer);
      if (holding) this.slots.release();
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

/**
 * Which text of the skill a sub-agent ran on: the hash of SKILL.md as loaded, so decision lineage
 * can name the skill version (evolution/versions.ts keeps each version's hash) after later edits.
 */
function skillLoadedDetail(skill: LoadedSkillWithFiles): string {
  let hash: string | null = null;
  try {
    hash = sha256(readFileSync(skill.file, 'utf8'));
  } catch {
    // Unreadable now (moved mid-run): the step says the text was not recorded.
  }
  return JSON.stringify({ skill: skill.name, file: 'SKILL.md', hash });
}
