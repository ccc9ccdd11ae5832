import type { AuditFinding, BuildDetail, BuildLogEntry, PhaseView } from '../api/builds';
import type { Db } from '../store';
import { type RunRow, runnerStateOf, summaryOf } from './store-rows';

/**
 * The Builds screen's one big read: a build with its phases (plans, sign-offs, test runs,
 * findings), the newest 500 log lines, compactions and per-turn usage. Apart from store.ts because it
 * is read-only and joins every table the writes keep separate; the runner never calls it mid-turn.
 * Everything but `commands`, which the manager adds (a command waiting for consent lives in memory).
 */
export function buildDetailOf(db: Db, r: RunRow, scratchpad: { key: string; value: string }[]): Omit<BuildDetail, 'commands'> {
  const id = r.id;
  const phaseIds = runnerStateOf(r.state).phaseIds ?? {};
  const phases = (
    db.prepare('SELECT number, name, status, plan, sign_off, started_at, finished_at FROM build_phases WHERE build_id = ? ORDER BY number').all(id) as {
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
      db.prepare('SELECT at, command, passed, exit_code, by, output FROM build_test_runs WHERE build_id = ? AND phase = ? ORDER BY id').all(id, p.number) as {
        at: string;
        command: string;
        passed: number;
        exit_code: number | null;
        by: 'builder' | 'forge';
        output: string;
      }[]
    ).map((t) => ({ at: t.at, command: t.command, passed: t.passed === 1, exitCode: t.exit_code, by: t.by, output: t.output })),
    findings: db
      .prepare('SELECT severity, source, file, message FROM build_findings WHERE build_id = ? AND phase = ? ORDER BY id')
      .all(id, p.number) as AuditFinding[],
    startedAt: p.started_at,
    finishedAt: p.finished_at,
  }));
  const log = (
    db.prepare('SELECT seq, at, kind, text, tool, is_error FROM build_log WHERE build_id = ? ORDER BY seq DESC LIMIT 500').all(id) as {
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
    db.prepare('SELECT at, turn, before_tokens, after_tokens FROM build_compactions WHERE build_id = ? ORDER BY id').all(id) as {
      at: string;
      turn: number;
      before_tokens: number;
      after_tokens: number;
    }[]
  ).map((c) => ({ at: c.at, turn: c.turn, beforeTokens: c.before_tokens, afterTokens: c.after_tokens }));
  const turns = (
    db.prepare('SELECT turn, at, input_tokens, output_tokens, cache_read_tokens FROM build_turns WHERE build_id = ? ORDER BY turn').all(id) as {
      turn: number;
      at: string;
      input_tokens: number;
      output_tokens: number;
      cache_read_tokens: number;
    }[]
  ).map((t) => ({ turn: t.turn, at: t.at, inputTokens: t.input_tokens, outputTokens: t.output_tokens, cacheReadTokens: t.cache_read_tokens }));
  return {
    build: summaryOf(db, r),
    phases,
    stop: r.stop_code ? { code: r.stop_code, reason: r.stop_reason ?? '', at: r.stop_at ?? r.updated_at } : null,
    log,
    scratchpad,
    context: { fixedTokens: r.fixed_tokens, conversationTokens: r.conversation_tokens, limitTokens: r.limit_tokens, compactions },
    turns,
  };
}
