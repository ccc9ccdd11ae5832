import type { AuditFinding, BuildLogEntry, BuildStatus, BuildSummary, PhaseView, StopCode, BuildDetail } from '../api/builds';
import { NotFoundError } from '../common/errors';
import type { ChatMessage } from '../llm/types';
import type { Db } from '../store';
import { buildDetailOf } from './store-detail';
import {
  type BuildRun,
  COMMANDS_KEY,
  type CommandSettings,
  initialRunnerState,
  type NewBuild,
  type RunnerState,
  type RunRow,
  runOf,
  summaryOf,
} from './store-rows';

/**
 * The builder's persistence (migration 008): runs, phases, tests, findings, the conversation,
 * the log, token usage per turn and compactions. Every method is synchronous and each change
 * commits on its own, so a crash leaves the build at its last completed step.
 * The shapes of a saved build (and how a row becomes a run) live in store-rows.ts; the Builds
 * screen's detail read in store-detail.ts. This file holds the writes and the runner's reads.
 */

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
    return runOf(this.row(id));
  }

  summary(id: string): BuildSummary {
    return summaryOf(this.db, this.row(id));
  }

  list(): BuildSummary[] {
    return (this.db.prepare('SELECT * FROM build_runs ORDER BY created_at DESC, id DESC LIMIT 200').all() as RunRow[]).map((r) => summaryOf(this.db, r));
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
    return buildDetailOf(this.db, this.row(id), scratchpad);
  }
}
