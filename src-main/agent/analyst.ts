import { randomBytes } from 'node:crypto';
import { type AppError, ConflictError, InvalidInputError, NotFoundError } from '../common/errors';
import type { ForgeFS } from '../fs';
import type { GuardrailLimits } from '../guardrails';
import { countContextTokens, ModelError, type ContextTokens, type Model, type SystemBlock, type Usage } from '../llm';
import type { ProviderRegistry } from '../providers';
import type { SearchRequest, SearchResponse } from '../search';
import type { Reviewer } from '../executor';
import { analystTools, toModelTool, type AnalystTool, type AnalystToolContext, type ReviewGate, type TaskBoard, type ToolDefinition } from '../tools';
import { CancelledError, runAgent, type AgentEvent, type AgentStop } from '../tools/loop';
import { buildSystemPrompt, stampUserMessage } from './prompt';
import { PRIOR_LINES, SessionManager, type TriggerType } from './sessions';
import { appendToolLog } from './tool-log';
import { workspaceSnapshot } from './workspace';

export const DEFAULT_MAX_ROUNDS = 25;
const RESULT_PREVIEW_CHARS = 4000;

export interface UsageTotals {
  inputTokens: number;
  outputTokens: number;
  cacheReadTokens: number;
  cacheWriteTokens: number;
  costUsd: number | null;
  /** Share of input tokens served from the prompt cache (0..1). */
  cacheReadShare: number;
}

/** What a run reports, keyed by run id; the host forwards these as `agent/*` events. */
export type AnalystEvent =
  | { type: 'text'; runId: string; sessionId: string; round: number; text: string; reset?: boolean }
  | { type: 'tool-call'; runId: string; sessionId: string; round: number; callId: string; name: string; input: Record<string, unknown> }
  | {
      type: 'tool-result';
      runId: string;
      sessionId: string;
      round: number;
      callId: string;
      name: string;
      content: string;
      isError: boolean;
      untrusted: boolean;
      durationMs: number;
    }
  | { type: 'usage'; runId: string; sessionId: string; round: number; model: string; usage: Usage; context: ContextTokens; session: UsageTotals }
  | { type: 'done'; runId: string; sessionId: string; stop: AgentStop; text: string; rounds: number; usage: UsageTotals; demo: boolean }
  | { type: 'error'; runId: string; sessionId: string; code: string; message: string; requestId: string | null };

export interface RunOutcome {
  runId: string;
  sessionId: string;
  stop: AgentStop | 'failed';
  text: string;
  rounds: number;
  error?: { code: string; message: string; requestId: string | null };
  toolCalls: { name: string; input: Record<string, unknown>; result: string; isError: boolean }[];
}

export interface AnalystOptions {
  fs: ForgeFS;
  /** Settles when the workspace is ready to read (first-start seeding). */
  ready?: Promise<void>;
  providers: ProviderRegistry;
  search?: (request: SearchRequest) => Promise<SearchResponse>;
  skillCatalog?: () => string;
  /** The model for a run. Throws (missing key) when there is none: never a silent stand-in. */
  model: () => Model;
  limits: () => GuardrailLimits;
  settings: () => { sessionTimeoutMinutes: number; timezone: string; maxRounds?: number };
  emit: (event: AnalystEvent) => void;
  /** The task executor behind dispatch/collect; without it those tools are absent. */
  tasks?: TaskBoard;
  /** The adversarial reviewer behind review; without it the tool is absent. */
  reviewer?: Pick<Reviewer, 'review'>;
  /** Filed reviews: the write tool's gate for agent-proposed Expressions. */
  reviews?: ReviewGate;
  /** Labels every run as the offline demo (prompt, events). */
  demo?: boolean;
  now?: () => Date;
  /** Whose conversation a message continues (a desk: the person of the call; see SessionManagerOptions.userId). */
  sessionOwner?: () => string | undefined;
}

interface LiveRun {
  controller: AbortController;
  sessionId: string;
  done: Promise<RunOutcome>;
}

/** What a session's system prompt is fixed to when this process first runs a turn of it. */
interface SessionFrame {
  startedAt: Date;
  priorSummary: string | null;
  /** Length of the turn history at that moment: later turns go in the user message. */
  historyChars: number;
}

const MAX_FRAMES = 200;
const HISTORY_FILE = 'turn_history.md';

const emptyTotals = (): UsageTotals => ({ inputTokens: 0, outputTokens: 0, cacheReadTokens: 0, cacheWriteTokens: 0, costUsd: 0, cacheReadShare: 0 });

function addTotals(t: UsageTotals, u: Usage): void {
  t.inputTokens += u.inputTokens;
  t.outputTokens += u.outputTokens;
  t.cacheReadTokens += u.cacheReadTokens;
  t.cacheWriteTokens += u.cacheWriteTokens;
  t.costUsd = t.costUsd === null || u.costUsd === null ? null : t.costUsd + u.costUsd;
  const input = t.inputTokens + t.cacheReadTokens + t.cacheWriteTokens;
  t.cacheReadShare = input ? t.cacheReadTokens / input : 0;
}

/**
 * The analyst a PM talks to: resolves the session, builds the prompt from memory, runs the loop
 * with the tools, streams progress as events and records the turn. One run per session at a time.
 */
export class Analyst {
  readonly sessions: SessionManager;
  private readonly runs = new Map<string, LiveRun>();
  private readonly totals = new Map<string, UsageTotals>();
  private readonly frames = new Map<string, SessionFrame>();
  /** Sessions run "as of" a past date (retrospectives), in this process. */
  private readonly asOfs = new Map<string, string>();
  private readonly now: () => Date;

  constructor(private readonly o: AnalystOptions) {
    this.now = o.now ?? (() => new Date());
    this.sessions = new SessionManager(o.fs, { timeoutMinutes: () => o.settings().sessionTimeoutMinutes, now: this.now, userId: o.sessionOwner });
  }

  get demo(): boolean {
    return this.o.demo === true;
  }

  /** Starts a run and returns at once; progress arrives as events keyed by the run id. */
  async send(input: {
    message: string;
    sessionId?: string;
    trigger?: TriggerType;
    newSession?: boolean;
    /** YYYY-MM-DD: the session is a retrospective as of this date (kept for its later turns). */
    asOf?: string;
  }): Promise<{ runId: string; sessionId: string; turn: number; demo: boolean }> {
    const message = input.message.trim();
    if (!message) throw new InvalidInputError('Type a message for the analyst first.');
    if (input.asOf !== undefined && !isDay(input.asOf)) throw new InvalidInputError(`asOf must be a date YYYY-MM-DD (got "${input.asOf.slice(0, 30)}").`);
    if (input.asOf && input.asOf > this.now().toISOString().slice(0, 10))
      throw new InvalidInputError(`asOf ${input.asOf} is in the future; a retrospective looks back.`);
    const model = this.o.model();
    await this.o.ready;
    if (input.sessionId && [...this.runs.values()].some((r) => r.sessionId === input.sessionId)) {
      throw new ConflictError('The analyst is still answering in this session; wait for it or press Stop.');
    }
    const session = this.sessions.resolve({ type: input.trigger ?? 'pm', sessionId: input.sessionId, fresh: input.newSession });
    if ([...this.runs.values()].some((r) => r.sessionId === session.sessionId)) {
      throw new ConflictError('The analyst is still answering in this session; wait for it or press Stop.');
    }
    if (input.asOf) {
      this.asOfs.set(session.sessionId, input.asOf);
      // Kept with the session, so a restart (or reopening it later) keeps the retrospective's date.
      await this.o.fs.writeFile(asOfPath(session.sessionId), `as_of: ${input.asOf}\n`, { actor: 'pm', sessionId: session.sessionId });
    }
    const runId = `run_${randomBytes(6).toString('hex')}`;
    const controller = new AbortController();
    const done = this.execute(runId, model, message, session, controller.signal).finally(() => this.runs.delete(runId));
    this.runs.set(runId, { controller, sessionId: session.sessionId, done });
    return { runId, sessionId: session.sessionId, turn: session.turn, demo: this.demo };
  }

  /** The date a session runs "as of" (a retrospective), if it does: fetches return nothing later. */
  asOfFor(sessionId: string): string | undefined {
    const known = this.asOfs.get(sessionId);
    if (known) return known;
    const path = asOfPath(sessionId);
    const kept = this.o.fs.exists(path) ? /^as_of:\s*(\d{4}-\d{2}-\d{2})\s*$/m.exec(this.o.fs.readFile(path))?.[1] : undefined;
    if (kept) this.asOfs.set(sessionId, kept);
    return kept;
  }

  /** Stops a run: the model stream and any tool see the abort at once. */
  cancel(runId: string): boolean {
    const run = this.runs.get(runId);
    if (!run) return false;
    run.controller.abort();
    return true;
  }

  /** Resolves when a run ends (tests, the CLI demo). */
  async wait(runId: string): Promise<RunOutcome> {
    const run = this.runs.get(runId);
    if (!run) throw new NotFoundError(`There is no running analyst run ${runId}.`);
    return run.done;
  }

  get running(): number {
    return this.runs.size;
  }

  /** Stops every run (shutdown) and waits for them to settle. */
  async close(): Promise<void> {
    const all = [...this.runs.values()];
    for (const r of all) r.controller.abort();
    await Promise.allSettled(all.map((r) => r.done));
  }

  /** The analyst's tools, in their fixed order (all eight when the executor and reviewer are wired). */
  tools(): AnalystTool[] {
    return analystTools({ providers: this.o.providers, tasks: this.o.tasks, reviewer: this.o.reviewer });
  }

  /**
   * The system prompt and tools a run in this session gets, and what they occupy in context. The
   * session block is fixed the first time a session is seen (its turn history as it stood then), so
   * every later turn of the session reads the whole system prompt from the cache.
   */
  prompt(session: { sessionId: string; turn?: number; startedAt: Date; priorSummary?: string | null }): {
    system: SystemBlock[];
    tools: AnalystTool[];
    fixed: ContextTokens;
  } {
    const tools = this.tools();
    const frame = this.frameFor(session);
    const snapshot = workspaceSnapshot(this.o.fs, this.o.skillCatalog?.() ?? '', this.o.limits());
    const system = buildSystemPrompt(
      snapshot,
      {
        startedAt: frame.startedAt,
        timezone: this.o.settings().timezone,
        sessionId: session.sessionId,
        priorSummary: frame.priorSummary ?? undefined,
        demo: this.demo,
      },
      { tools: tools.map((t) => t.name) },
    );
    const fixed = countContextTokens({ system, tools: tools.map((t) => toModelTool(t as ToolDefinition)), messages: [] });
    return { system, tools, fixed };
  }

  private frameFor(session: { sessionId: string; startedAt: Date; priorSummary?: string | null }): SessionFrame {
    let frame = this.frames.get(session.sessionId);
    if (frame) return frame;
    frame = { startedAt: session.startedAt, priorSummary: session.priorSummary ?? null, historyChars: this.history(session.sessionId).length };
    if (this.frames.size >= MAX_FRAMES) this.frames.delete(this.frames.keys().next().value!);
    this.frames.set(session.sessionId, frame);
    return frame;
  }

  private history(sessionId: string): string {
    return this.o.fs.store.sessions.getFile(sessionId, HISTORY_FILE)?.content ?? '';
  }

  /** Turn history recorded since the session block was fixed (its last lines), for the user message. */
  recentTurns(sessionId: string): string | null {
    const frame = this.frames.get(sessionId);
    const since = this.history(sessionId)
      .slice(frame?.historyChars ?? 0)
      .trim();
    return since ? since.split('\n').slice(-PRIOR_LINES).join('\n') : null;
  }

  /** What any run starts with before the conversation: the meter's fixed part. */
  fixedContext(): ContextTokens {
    return this.prompt({ sessionId: 'sess_preview', turn: 1, startedAt: this.now() }).fixed;
  }

  /** Runs in progress, for the Chat screen after a reload. */
  active(): { runId: string; sessionId: string; demo: boolean }[] {
    return [...this.runs.entries()].map(([runId, r]) => ({ runId, sessionId: r.sessionId, demo: this.demo }));
  }

  sessionTotals(sessionId: string): UsageTotals {
    return { ...(this.totals.get(sessionId) ?? emptyTotals()) };
  }

  private async execute(
    runId: string,
    model: Model,
    message: string,
    session: ReturnType<SessionManager['resolve']>,
    signal: AbortSignal,
  ): Promise<RunOutcome> {
    const sessionId = session.sessionId;
    const emit = this.o.emit;
    const outcome: RunOutcome = { runId, sessionId, stop: 'failed', text: '', rounds: 0, toolCalls: [] };
    const totals = this.totals.get(sessionId) ?? emptyTotals();
    this.totals.set(sessionId, totals);
    try {
      const settings = this.o.settings();
      const { system, tools, fixed } = this.prompt(session);
      const toolContext: AnalystToolContext = {
        fs: this.o.fs.forSession(sessionId),
        writer: { actor: 'agent', sessionId },
        limits: this.o.limits,
        search: this.o.search,
        providers: this.o.providers,
        model,
        reviews: this.o.reviews,
        signal,
        now: this.now,
        asOf: this.asOfFor(sessionId),
      };
      const pending = new Map<string, { name: string; input: Record<string, unknown> }>();
      const onEvent = (e: AgentEvent) => {
        if (e.type === 'text_delta') emit({ type: 'text', runId, sessionId, round: e.round, text: e.text });
        else if (e.type === 'restart') emit({ type: 'text', runId, sessionId, round: e.round, text: '', reset: true });
        else if (e.type === 'tool_call') {
          pending.set(e.call.id, { name: e.call.name, input: e.call.input });
          emit({ type: 'tool-call', runId, sessionId, round: e.round, callId: e.call.id, name: e.call.name, input: e.call.input });
        } else if (e.type === 'tool_result') {
          const call = pending.get(e.callId);
          outcome.toolCalls.push({ name: e.name, input: call?.input ?? {}, result: e.result.content, isError: !!e.result.isError });
          const logged = { at: this.now().toISOString(), turn: session.turn, round: e.round, name: e.name, input: call?.input ?? {} };
          try {
            appendToolLog(this.o.fs.store, sessionId, { ...logged, isError: !!e.result.isError, result: e.result.content });
          } catch {
            // Decision lineage reads this log; failing to keep it must never stop the run.
          }
          const content = e.result.content.length > RESULT_PREVIEW_CHARS ? `${e.result.content.slice(0, RESULT_PREVIEW_CHARS)}…` : e.result.content;
          emit({
            type: 'tool-result',
            runId,
            sessionId,
            round: e.round,
            callId: e.callId,
            name: e.name,
            content,
            isError: !!e.result.isError,
            untrusted: !!e.result.untrusted,
            durationMs: Math.round(e.durationMs),
          });
        } else if (e.type === 'usage') {
          addTotals(totals, e.usage);
          const total = e.usage.inputTokens + e.usage.cacheReadTokens + e.usage.cacheWriteTokens;
          const context = { system: fixed.system, tools: fixed.tools, conversation: Math.max(0, total - fixed.system - fixed.tools), total };
          emit({ type: 'usage', runId, sessionId, round: e.round, model: e.model, usage: e.usage, context, session: { ...totals } });
        }
      };
      const result = await runAgent({
        model,
        role: 'agent',
        system,
        messages: [
          {
            role: 'user',
            content: stampUserMessage(asOfNote(this.asOfFor(sessionId)) + message, this.now(), { turn: session.turn, recent: this.recentTurns(sessionId) }),
          },
        ],
        tools,
        toolContext,
        maxRounds: settings.maxRounds ?? DEFAULT_MAX_ROUNDS,
        signal,
        onEvent,
      });
      outcome.stop = result.stop;
      outcome.text = result.text;
      outcome.rounds = result.rounds;
      const recorded = result.stop === 'answered' ? result.text : `(stopped after ${result.rounds} rounds without an answer)`;
      await this.sessions.recordTurn(sessionId, session.turn, message, recorded, { actor: 'agent', sessionId });
      emit({ type: 'done', runId, sessionId, stop: result.stop, text: result.text, rounds: result.rounds, usage: { ...totals }, demo: this.demo });
    } catch (e) {
      const cancelled = e instanceof CancelledError || (e instanceof ModelError && e.kind === 'cancelled') || signal.aborted;
      if (cancelled) {
        outcome.stop = 'cancelled';
        await this.sessions.recordTurn(sessionId, session.turn, message, '(stopped by the PM)', { actor: 'agent', sessionId }).catch(() => undefined);
        emit({ type: 'done', runId, sessionId, stop: 'cancelled', text: '', rounds: outcome.rounds, usage: { ...totals }, demo: this.demo });
      } else {
        const err = e as AppError & { requestId?: string };
        const code = typeof err?.code === 'string' ? err.code : 'internal';
        outcome.error = { code, message: err?.message ?? String(e), requestId: err?.requestId ?? null };
        emit({ type: 'error', runId, sessionId, ...outcome.error });
      }
    }
    return outcome;
  }
}

function isDay(s: string): boolean {
  const d = new Date(`${s}T00:00:00Z`);
  return /^\d{4}-\d{2}-\d{2}$/.test(s) && !Number.isNaN(d.getTime()) && d.toISOString().slice(0, 10) === s;
}

/** Told to the model in the user message (not the cached system prompt): the date the retrospective stands on. */
/** Where a session keeps the date it runs "as of". */
function asOfPath(sessionId: string): string {
  return `/session/${sessionId}/as_of.md`;
}

function asOfNote(asOf: string | undefined): string {
  return asOf ? `(This session is as of ${asOf}: fetch returns no data after that date; reason as of then.) ` : '';
}
