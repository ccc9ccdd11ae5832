import type { AuditFinding, BuildDetail, BuildLogEntry, BuildMode, BuildStatus, BuildSummary, PhaseView, StopCode } from '../api/builds';
import { NotFoundError } from '../common/errors';
import type { ChatMessage } from '../llm/types';
import type { Db } from '../store';
import type { WorkspaceSnapshot } from './workspace';

/**
 * The builder's persistence (migration 008): runs, phases, tests, findings, the conversation,
 * the log, token usage per turn and compactions. Every method is synchronous and each change
 * commits on its own, so a crash leaves the build at its last completed step.
 */

/** The runner's bookkeeping between turns, saved with the run (JSON) so a resume continues it. */
export interface RunnerState {
  /** Model turns so far (one model call each). */
  turns: number;
  /** Kept for builds saved before the per-phase window gate (the old first-turn reminder's flag); unused. */
  gateChecked: boolean;
  /** Failing test → consecutive failed runs since it last passed or since recovery was asked. */
  fixAttempts: Record<string, number>;
  /** Workspace snapshot (path → hash and line count) when the current phase started, for the diff summary. */
  phaseStart: WorkspaceSnapshot | null;
  /** Plain-text answers waiting to be sent (STOP answers, gate reminders). */
  pending: string[];
  /** Nudges sent in a row without progress (bounded so a stuck model cannot loop forever). */
  idleNudges: number;
  /** Contracts the builder has read (mirrored in the scratchpad). */
  contractsRead: string[];
  /** Set while compaction waits for a TASK DONE or sign-off boundary. */
  compactionPending: boolean;
  /** The turn count at the last Resume: the turn limit counts from there. */
  resumedAtTurn: number;
  /**
   * The phase whose window has been read since that phase started (null: none yet). Writes and
   * commands are refused while it is not the current phase; it resets at every phase start.
   */
  windowRead: string | null;
  /** Stored phase number → the plan's own id ("3.1"), for plans not numbered 0, 1, 2 … */
  phaseIds?: Record<string, string>;
  /** The spec-kit/Kiro feature or OpenSpec change the build was started on (absent: the package's default). */
  feature?: string;
}

export const initialRunnerState = (): RunnerState => ({
  turns: 0,
  gateChecked: false,
  fixAttempts: {},
  phaseStart: null,
  pending: [],
  idleNudges: 0,
  contractsRead: [],
  compactionPending: false,
  resumedAtTurn: 0,
  windowRead: null,
});

/** The PM's choices about a build's commands, kept beside the runner's state (same JSON column, its own key). */
export interface CommandSettings {
  /** "Allow network for this build": the sandbox keeps the host's network (package installs). Default off. */
  allowNetwork: boolean;
  /** Command classes (`tests`, `npm install`, `git`, …) the PM let run unconfined on a machine without the sandbox. */
  approvedClasses: string[];
}

const COMMANDS_KEY = 'commands';

function runnerStateOf(json: string): RunnerState {
  const { [COMMANDS_KEY]: _commands, ...saved } = JSON.parse(json) as Partial<RunnerState> & { [COMMANDS_KEY]?: unknown };
  return { ...initialRunnerState(), ...saved };
}

export interface NewBuild {
  id: string;
  workDir: string;
  projectName: string;
  projectId: string | null;
  mode: BuildMode;
  mini: boolean;
  model: string;
  limitTokens: number;
  fixedTokens: number;
  phases: { number: number; name: string }[];
}

interface RunRow {
  id: string;
  work_dir: string;
  project_name: string;
  project_id: string | null;
  mode: BuildMode;
  mini: number;
  model: string;
  status: BuildStatus;
  current_phase: number;
  stop_code: StopCode | null;
  stop_reason: string | null;
  stop_at: string | null;
  error: string | null;
  input_tokens: number;
  output_tokens: number;
  cost_usd: number | null;
  fixed_tokens: number;
  conversation_tokens: number;
  limit_tokens: number;
  state: string;
  created_at: string;
  updated_at: string;
}

export interface BuildRun {
  id: string;
  workDir: string;
  projectName: string;
  projectId: string | null;
  mode: BuildMode;
  mini: boolean;
  model: string;
  status: BuildStatus;
  currentPhase: number;
  stop: { code: StopCode; reason: string; at: string } | null;
  error: string | null;
  limitTokens: number;
  fixedTokens: number;
  conversationTokens: number;
  state: RunnerState;
}

const MAX_LOG_TEXT = 4000;
const MAX_TEST_OUTPUT = 6000;

export class BuildStore {
  constructor(
    private readonly db: Db,
    private readonly now: () => Date = () => new Date(),
  ) {}

  private at(): string {
    return this.now().toISOString();
  }

  create(b: NewBuild): void {
    const at = this.at();
    this.db
      .transaction(() => {
        this.db
          .prepare(
            `INSERT INTO build_runs (id, work_dir, project_name, project_id, mode, mini, model, status, current_phase, limit_tokens, fixed_tokens, state, created_at, updated_at)
             VALUES (?, ?, ?, ?, ?, ?, ?, 'running', ?, ?, ?, ?, ?, ?)`,
          )
          .run(
            b.id,
            b.workDir,
            b.projectName,
            b.projectId,
            b.mode,
            b.mini ? 1 : 0,
            b.model,
            b.phases[0]?.number ?? 0,
            b.limitTokens,
            b.fixedTokens,
            JSON.stringify(initialRunnerState()),
            at,
            at,
          );
        const insert = this.db.prepare("INSERT INTO build_phases (build_id, number, name, status) VALUES (?, ?, ?, 'pending')");
        for (const p of b.phases) insert.run(b.id, p.number, p.name.slice(0, 200));
        this.db.prepare('UPDATE builds SET status = ? WHERE id = ?').run('running', b.id);
      })
      .immediate();
  }

  private row(id: string): RunRow {
    const r = this.db.prepare('SELECT * FROM build_runs WHERE id = ?').get(id) as RunRow | undefined;
    if (!r) throw new NotFoundError(`There is no build "${id.slice(0, 100)}". Pick one from the Builds screen's list.`);
    return r;
  }

  get(id: string): BuildRun {
    const r = this.row(id);
    return {
      id: r.id,
      workDir: r.work_dir,
      projectName: r.project_name,
      projectId: r.project_id,
      mode: r.mode,
      mini: r.mini === 1,
      model: r.model,
      status: r.status,
      currentPhase: r.current_phase,
      stop: r.stop_code ? { code: r.stop_code, reason: r.stop_reason ?? '', at: r.stop_at ?? r.updated_at } : null,
      error: r.error,
      limitTokens: r.limit_tokens,
      fixedTokens: r.fixed_tokens,
      conversationTokens: r.conversation_tokens,
      state: runnerStateOf(r.state),
    };
  }

  summary(id: string): BuildSummary {
    return this.toSummary(this.row(id));
  }

  list(): BuildSummary[] {
    return (this.db.prepare('SELECT * FROM build_runs ORDER BY created_at DESC, id DESC LIMIT 200').all() as RunRow[]).map((r) => this.toSummary(r));
  }

  /** Builds that were running when the app stopped (they become `interrupted`). */
  markInterrupted(): string[] {
    const ids = (this.db.prepare("SELECT id FROM build_runs WHERE status = 'running'").all() as { id: string }[]).map((r) => r.id);
    if (ids.length) {
      this.db
        .prepare(
          "UPDATE build_runs SET status = 'interrupted', error = 'Forge stopped while this build ran; Resume continues from the last saved turn.', updated_at = ? WHERE status = 'running'",
        )
        .run(this.at());
    }
    return ids;
  }

  private toSummary(r: RunRow): BuildSummary {
    const phases = this.db.prepare('SELECT count(*) AS n FROM build_phases WHERE build_id = ?').get(r.id) as { n: number };
    return {
      id: r.id,
      workDir: r.work_dir,
      projectName: r.project_name,
      mode: r.mode,
      mini: r.mini === 1,
      model: r.model,
      status: r.status,
      currentPhase: r.current_phase,
      totalPhases: phases.n,
      createdAt: r.created_at,
      updatedAt: r.updated_at,
      inputTokens: r.input_tokens,
      outputTokens: r.output_tokens,
      costUsd: r.cost_usd,
      error: r.error,
    };
  }

  setStatus(id: string, status: BuildStatus, error: string | null = null): void {
    this.db.prepare('UPDATE build_runs SET status = ?, error = ?, updated_at = ? WHERE id = ?').run(status, error, this.at(), id);
    this.db.prepare('UPDATE builds SET status = ? WHERE id = ?').run(status, id);
  }

  setStop(id: string, stop: { code: StopCode; reason: string } | null): void {
    const at = this.at();
    if (stop)
      this.db
        .prepare("UPDATE build_runs SET status = 'waiting_answer', stop_code = ?, stop_reason = ?, stop_at = ?, updated_at = ? WHERE id = ?")
        .run(stop.code, stop.reason.slice(0, 4000), at, at, id);
    else this.db.prepare('UPDATE build_runs SET stop_code = NULL, stop_reason = NULL, stop_at = NULL, updated_at = ? WHERE id = ?').run(at, id);
  }

  saveState(id: string, state: RunnerState): void {
    // The PM's command settings change between the runner's saves; its copy of the state never overwrites them.
    this.db
      .transaction(() => {
        const commands = this.commandSettings(id);
        this.db
          .prepare('UPDATE build_runs SET state = ?, updated_at = ? WHERE id = ?')
          .run(JSON.stringify({ ...state, [COMMANDS_KEY]: commands }), this.at(), id);
      })
      .immediate();
  }

  /** The PM's choices about this build's commands: the network switch and the unconfined command classes approved. */
  commandSettings(id: string): CommandSettings {
    const raw = (JSON.parse(this.row(id).state) as Record<string, unknown>)[COMMANDS_KEY] as Partial<CommandSettings> | null | undefined;
    return {
      allowNetwork: raw?.allowNetwork === true,
      approvedClasses: Array.isArray(raw?.approvedClasses) ? raw.approvedClasses.filter((c): c is string => typeof c === 'string') : [],
    };
  }

  setAllowNetwork(id: string, allow: boolean): void {
    this.updateCommandSettings(id, (c) => ({ ...c, allowNetwork: allow }));
  }

  /** Remembers, for this build, that the PM let this class of command run unconfined. */
  approveCommandClass(id: string, commandClass: string): void {
    this.updateCommandSettings(id, (c) => (c.approvedClasses.includes(commandClass) ? c : { ...c, approvedClasses: [...c.approvedClasses, commandClass] }));
  }

  private updateCommandSettings(id: string, change: (c: CommandSettings) => CommandSettings): void {
    this.db
      .transaction(() => {
        const state = JSON.parse(this.row(id).state) as Record<string, unknown>;
        const next = change(this.commandSettings(id));
        this.db.prepare('UPDATE build_runs SET state = ?, updated_at = ? WHERE id = ?').run(JSON.stringify({ ...state, [COMMANDS_KEY]: next }), this.at(), id);
      })
      .immediate();
  }

  setCurrentPhase(id: string, phase: number): void {
    this.db.prepare('UPDATE build_runs SET current_phase = ?, updated_at = ? WHERE id = ?').run(phase, this.at(), id);
  }

  // --- phases -------------------------------------------------------------------------------

  phases(id: string): { number: number; name: string; status: PhaseView['status'] }[] {
    return this.db.prepare('SELECT number, name, status FROM build_phases WHERE build_id = ? ORDER BY number').all(id) as never;
  }

  startPhase(id: string, phase: number): void {
    this.db
      .prepare(
        "UPDATE build_phases SET status = 'in_progress', started_at = coalesce(started_at, ?) WHERE build_id = ? AND number = ? AND status <> 'signed_off'",
      )
      .run(this.at(), id, phase);
  }

  finishPhase(id: string, phase: number, status: 'signed_off' | 'failed'): void {
    this.db.prepare('UPDATE build_phases SET status = ?, finished_at = ? WHERE build_id = ? AND number = ?').run(status, this.at(), id, phase);
  }

  /** A new plan replaces the phase's tasks (a re-plan after a rejected sign-off starts the marks again). */
  setPlan(id: string, phase: number, tasks: { number: number; text: string }[]): void {
    const plan = tasks.map((t) => ({ number: t.number, text: t.text.slice(0, 1000), done: false, doneAt: null }));
    this.db.prepare('UPDATE build_phases SET plan = ? WHERE build_id = ? AND number = ?').run(JSON.stringify(plan), id, phase);
  }

  /** Marks tasks done; returns the numbers that are not in the plan (the model is told). */
  markTasks(id: string, phase: number, numbers: number[]): number[] {
    const row = this.db.prepare('SELECT plan FROM build_phases WHERE build_id = ? AND number = ?').get(id, phase) as { plan: string } | undefined;
    if (!row) return numbers;
    const plan = JSON.parse(row.plan) as PhaseView['plan'];
    const unknown: number[] = [];
    const at = this.at();
    for (const n of numbers) {
      const t = plan.find((x) => x.number === n);
      if (!t) unknown.push(n);
      else if (!t.done) Object.assign(t, { done: true, doneAt: at });
    }
    this.db.prepare('UPDATE build_phases SET plan = ? WHERE build_id = ? AND number = ?').run(JSON.stringify(plan), id, phase);
    return unknown;
  }

  setSignOff(id: string, phase: number, signOff: { deliverables: string[]; tests: string; accepted: boolean }): void {
    this.db.prepare('UPDATE build_phases SET sign_off = ? WHERE build_id = ? AND number = ?').run(JSON.stringify({ at: this.at(), ...signOff }), id, phase);
  }

  addTestRun(id: string, phase: number, run: { command: string; passed: boolean; exitCode: number | null; by: 'builder' | 'forge'; output: string }): void {
    this.db
      .prepare('INSERT INTO build_test_runs (build_id, phase, at, command, passed, exit_code, by, output) VALUES (?, ?, ?, ?, ?, ?, ?, ?)')
      .run(id, phase, this.at(), run.command.slice(0, 500), run.passed ? 1 : 0, run.exitCode, run.by, run.output.slice(-MAX_TEST_OUTPUT));
  }

  addFindings(id: string, phase: number, findings: AuditFinding[]): void {
    const insert = this.db.prepare('INSERT INTO build_findings (build_id, phase, at, severity, source, file, message) VALUES (?, ?, ?, ?, ?, ?, ?)');
    const at = this.at();
    this.db.transaction(() => {
      for (const f of findings) insert.run(id, phase, at, f.severity, f.source, f.file, f.message.slice(0, 2000));
    })();
  }

  // --- conversation -------------------------------------------------------------------------

  messages(id: string): ChatMessage[] {
    return (
      this.db.prepare('SELECT role, content FROM build_messages WHERE build_id = ? ORDER BY seq').all(id) as { role: 'user' | 'assistant'; content: string }[]
    ).map((r) => ({ role: r.role, content: JSON.parse(r.content) }) as ChatMessage);
  }

  appendMessages(id: string, messages: ChatMessage[]): void {
    if (!messages.length) return;
    this.db
      .transaction(() => {
        const last = this.db.prepare('SELECT max(seq) AS s FROM build_messages WHERE build_id = ?').get(id) as { s: number | null };
        let seq = last.s ?? 0;
        const insert = this.db.prepare('INSERT INTO build_messages (build_id, seq, role, content) VALUES (?, ?, ?, ?)');
        for (const m of messages) insert.run(id, ++seq, m.role, JSON.stringify(m.content));
      })
      .immediate();
  }

  /**
   * Adds text to the newest message (a user turn holding tool results): the Messages API wants a
   * reminder sent after tool results in the same user turn, not in a second user message.
   */
  appendToLastMessage(id: string, text: string): ChatMessage | null {
    const row = this.db.prepare('SELECT seq, role, content FROM build_messages WHERE build_id = ? ORDER BY seq DESC LIMIT 1').get(id) as
      | { seq: number; role: 'user' | 'assistant'; content: string }
      | undefined;
    if (row?.role !== 'user') return null;
    const parsed = JSON.parse(row.content) as ChatMessage['content'];
    const content = typeof parsed === 'string' ? [{ type: 'text' as const, text: parsed }] : parsed;
    content.push({ type: 'text', text });
    this.db.prepare('UPDATE build_messages SET content = ? WHERE build_id = ? AND seq = ?').run(JSON.stringify(content), id, row.seq);
    return { role: 'user', content };
  }

  /** Compaction: the conversation replaced in one transaction (a crash keeps the old one whole). */
  replaceMessages(id: string, messages: ChatMessage[], compaction: { turn: number; beforeTokens: number; afterTokens: number }): void {
    this.db
      .transaction(() => {
        this.db.prepare('DELETE FROM build_messages WHERE build_id = ?').run(id);
        const insert = this.db.prepare('INSERT INTO build_messages (build_id, seq, role, content) VALUES (?, ?, ?, ?)');
        messages.forEach((m, i) => {
          insert.run(id, i + 1, m.role, JSON.stringify(m.content));
        });
        this.db
          .prepare('INSERT INTO build_compactions (build_id, at, turn, before_tokens, after_tokens) VALUES (?, ?, ?, ?, ?)')
          .run(id, this.at(), compaction.turn, compaction.beforeTokens, compaction.afterTokens);
        this.db.prepare('UPDATE build_runs SET conversation_tokens = ?, updated_at = ? WHERE id = ?').run(compaction.afterTokens, this.at(), id);
      })
      .immediate();
  }

  // --- usage and log ------------------------------------------------------------------------

  addTurn(
    id: string,
    turn: number,
    usage: { inputTokens: number; outputTokens: number; cacheReadTokens: number; costUsd: number | null },
    conversationTokens: number,
  ): void {
    this.db
      .transaction(() => {
        this.db
          .prepare('INSERT OR REPLACE INTO build_turns (build_id, turn, at, input_tokens, output_tokens, cache_read_tokens) VALUES (?, ?, ?, ?, ?, ?)')
          .run(id, turn, this.at(), usage.inputTokens, usage.outputTokens, usage.cacheReadTokens);
        this.db
          .prepare(
            `UPDATE build_runs SET input_tokens = input_tokens + ?, output_tokens = output_tokens + ?,
               cost_usd = CASE WHEN ? IS NULL THEN cost_usd ELSE coalesce(cost_usd, 0) + ? END,
               conversation_tokens = ?, updated_at = ? WHERE id = ?`,
          )
          .run(usage.inputTokens, usage.outputTokens, usage.costUsd, usage.costUsd, conversationTokens, this.at(), id);
      })
      .immediate();
  }

  log(id: string, entry: { kind: BuildLogEntry['kind']; text: string; tool?: string | null; isError?: boolean }): BuildLogEntry {
    const at = this.at();
    const text = entry.text.length > MAX_LOG_TEXT ? `${entry.text.slice(0, MAX_LOG_TEXT)}… (${entry.text.length - MAX_LOG_TEXT} more characters)` : entry.text;
    const seq = this.db
      .transaction(() => {
        const last = this.db.prepare('SELECT max(seq) AS s FROM build_log WHERE build_id = ?').get(id) as { s: number | null };
        const s = (last.s ?? 0) + 1;
        this.db
          .prepare('INSERT INTO build_log (build_id, seq, at, kind, text, tool, is_error) VALUES (?, ?, ?, ?, ?, ?, ?)')
          .run(id, s, at, entry.kind, text, entry.tool ?? null, entry.isError ? 1 : 0);
        return s;
      })
      .immediate();
    return { seq, at, kind: entry.kind, text, tool: entry.tool ?? null, isError: !!entry.isError };
  }

  /** Everything but `commands`, which the manager adds (a command waiting for consent lives in memory). */
  detail(id: string, scratchpad: { key: string; value: string }[]): Omit<BuildDetail, 'commands'> {
    const r = this.row(id);
    const phaseIds = runnerStateOf(r.state).phaseIds ?? {};
    const phases = (
      this.db.prepare('SELECT number, name, status, plan, sign_off, started_at, finished_at FROM build_phases WHERE build_id = ? ORDER BY number').all(id) as {
        number: number;
        name: string;
        status: PhaseView['status'];
        plan: string;
        sign_off: string | null;
        started_at: string | null;
        finished_at: string | null;
      }[]
    ).map((p) => ({
      number: p.number,
      ...(phaseIds[String(p.number)] && phaseIds[String(p.number)] !== String(p.number) ? { id: phaseIds[String(p.number)] } : {}),
      name: p.name,
      status: p.status,
      plan: JSON.parse(p.plan),
      signOff: p.sign_off ? JSON.parse(p.sign_off) : null,
      tests: (
        this.db
          .prepare('SELECT at, command, passed, exit_code, by, output FROM build_test_runs WHERE build_id = ? AND phase = ? ORDER BY id')
          .all(id, p.number) as { at: string; command: string; passed: number; exit_code: number | null; by: 'builder' | 'forge'; output: string }[]
      ).map((t) => ({ at: t.at, command: t.command, passed: t.passed === 1, exitCode: t.exit_code, by: t.by, output: t.output })),
      findings: this.db
        .prepare('SELECT severity, source, file, message FROM build_findings WHERE build_id = ? AND phase = ? ORDER BY id')
        .all(id, p.number) as AuditFinding[],
      startedAt: p.started_at,
      finishedAt: p.finished_at,
    }));
    const log = (
      this.db.prepare('SELECT seq, at, kind, text, tool, is_error FROM build_log WHERE build_id = ? ORDER BY seq DESC LIMIT 500').all(id) as {
        seq: number;
        at: string;
        kind: BuildLogEntry['kind'];
        text: string;
        tool: string | null;
        is_error: number;
      }[]
    )
      .reverse()
      .map((l) => ({ seq: l.seq, at: l.at, kind: l.kind, text: l.text, tool: l.tool, isError: l.is_error === 1 }));
    const compactions = (
      this.db.prepare('SELECT at, turn, before_tokens, after_tokens FROM build_compactions WHERE build_id = ? ORDER BY id').all(id) as {
        at: string;
        turn: number;
        before_tokens: number;
        after_tokens: number;
      }[]
    ).map((c) => ({ at: c.at, turn: c.turn, beforeTokens: c.before_tokens, afterTokens: c.after_tokens }));
    const turns = (
      this.db.prepare('SELECT turn, at, input_tokens, output_tokens, cache_read_tokens FROM build_turns WHERE build_id = ? ORDER BY turn').all(id) as {
        turn: number;
        at: string;
        input_tokens: number;
        output_tokens: number;
        cache_read_tokens: number;
      }[]
    ).map((t) => ({ turn: t.turn, at: t.at, inputTokens: t.input_tokens, outputTokens: t.output_tokens, cacheReadTokens: t.cache_read_tokens }));
    return {
      build: this.toSummary(r),
      phases,
      stop: r.stop_code ? { code: r.stop_code, reason: r.stop_reason ?? '', at: r.stop_at ?? r.updated_at } : null,
      log,
      scratchpad,
      context: { fixedTokens: r.fixed_tokens, conversationTokens: r.conversation_tokens, limitTokens: r.limit_tokens, compactions },
      turns,
    };
  }
}
