import { ForbiddenError } from '../common/errors';
import type { WriteContext } from './types';

/**
 * Who may write the records calibration is computed from. Outcomes, the resolution of a
 * Counterfactual and the Calibration files are Forge's own computation — the tracker's, from
 * market data. A writer who could type them in could fake a track record (issue #26: 30,000
 * hand-written `status: resolved` Outcomes were counted), so every memory write, whatever door it
 * came through (the analyst, a sub-agent, the PM's editor, an attached IDE), is checked here,
 * inside its write transaction.
 *
 * The tracker's authority is a symbol-keyed mark on its WriteContext, not a string: JSON,
 * structured clone and zod parsing drop symbols, so no API input or tool argument can carry it,
 * and a context that merely says `actor: 'tracker'` is refused.
 */
const GRANT = Symbol('forge.write-grant');
type Grant = 'tracker' | 'seed';
type Granted = WriteContext & { readonly [GRANT]?: Grant };

/**
 * The tracker's writer (Outcomes, Counterfactual resolutions, Calibration files). Only the
 * tracking module and the write pipeline's Outcome-on-close use it; a test reads the imports.
 * `cause` keeps the session and task of the write that closed an Expression, for the audit trail.
 */
export function trackerWriter(cause: { sessionId?: string; taskId?: string } = {}): WriteContext {
  const ctx: Granted = {
    actor: 'tracker',
    ...(cause.sessionId ? { sessionId: cause.sessionId } : {}),
    ...(cause.taskId ? { taskId: cause.taskId } : {}),
    [GRANT]: 'tracker',
  };
  return ctx;
}

/** The demo workspace loaded once into a new data folder: its files came with the app (seed.ts). */
export function seedWriter(): WriteContext {
  const ctx: Granted = { actor: 'pm', operation: 'seed', [GRANT]: 'seed' };
  return ctx;
}

const grantOf = (ctx: WriteContext): Grant | null => (ctx as Granted)[GRANT] ?? null;

/** The actor "tracker" is claimed only with the tracker's mark. */
export function checkActorClaim(ctx: WriteContext): void {
  if (ctx.actor === 'tracker' && grantOf(ctx) !== 'tracker') {
    throw new ForbiddenError('Only Forge\'s tracker writes as "tracker"; no request or tool can choose that writer.');
  }
}

/** The writer in the PM's words, for the refusal. */
export function writerName(actor: string): string {
  if (actor.startsWith('subagent:')) return `A sub-agent (${actor.slice('subagent:'.length)})`;
  const names: Record<string, string> = {
    pm: 'The PM',
    agent: 'The analyst',
    mcp: 'An attached IDE (MCP client)',
    scheduler: 'The scheduler',
    builder: 'The builder',
  };
  return names[actor] ?? `"${actor.slice(0, 40)}"`;
}

/** Statuses a Counterfactual has before the tracker resolves it (or none yet). */
const OPEN_COUNTERFACTUAL = new Set(['', 'tracking', 'untracked']);
/** What the tracker writes when it resolves one: the realised figures and when/why it ended. */
export const RESOLUTION_FIELDS = [
  'hit',
  'pnl',
  'pnl_bp',
  'pnl_pct',
  'exit_price',
  'exit_date',
  'exit_reason',
  'entry_price',
  'entry_date',
  'gains_when',
  'resolved_at',
  'expired_at',
  'expired_reason',
  // The evidence the result was priced from: an open record claiming a series would pre-empt it.
  'series_used',
  'series_source',
  'series_as_of',
] as const;

export interface RecordState {
  status: string | null;
  header: Record<string, unknown>;
}

export type RecordChange = 'write' | 'delete' | 'archive';

const statusOf = (s: RecordState) =>
  String(s.header.status ?? s.status ?? '')
    .trim()
    .toLowerCase();
const resolutionFieldsOf = (s: RecordState) => RESOLUTION_FIELDS.filter((k) => s.header[k] !== undefined);
const isResolved = (s: RecordState) => !OPEN_COUNTERFACTUAL.has(statusOf(s)) || resolutionFieldsOf(s).length > 0;

/**
 * Refuses (ForbiddenError) a change to a record that only the tracker may make. `before` is the
 * live record (undefined when the write creates it); `after` is what a write would store (null
 * for a delete or an archive). Called inside the write transaction, so `before` is current.
 */
export function checkRecordAuthority(
  change: { category: string; path: string; kind: RecordChange; ctx: WriteContext },
  before: RecordState | undefined,
  after: RecordState | null,
): void {
  const grant = grantOf(change.ctx);
  if (grant === 'tracker' || grant === 'seed') return;
  const who = writerName(change.ctx.actor);
  const act = change.kind === 'write' ? (before ? 'change' : 'write') : change.kind;
  if (change.category === 'outcomes') {
    throw new ForbiddenError(
      `Outcomes are recorded only by Forge's tracker when an Expression closes: it computes the P&L from market data, so calibration counts only what happened. ${who} cannot ${act} ${change.path}. To close a trade, the PM closes its Expression and the tracker records its Outcome; to comment on one, write an Observation.`,
    );
  }
  if (change.category === 'calibration') {
    throw new ForbiddenError(
      `Calibration files are computed only by Forge's tracker, from resolved Outcomes and Counterfactuals, and rewritten whenever those change. ${who} cannot ${act} ${change.path}. Read it (or the Calibration screen) for the figures; to comment on them, write an Observation.`,
    );
  }
  if (change.category !== 'counterfactuals') return;
  if (before && isResolved(before)) {
    throw new ForbiddenError(
      `${change.path} is resolved (status ${statusOf(before) || 'set'}): Forge's tracker computed its result from market data and calibration counts it. ${who} cannot ${act} it; to comment on it, write an Observation.`,
    );
  }
  if (after && isResolved(after)) {
    const fields = resolutionFieldsOf(after);
    const status = statusOf(after);
    const what = [...(OPEN_COUNTERFACTUAL.has(status) ? [] : [`status: ${status}`]), ...fields].join(', ');
    throw new ForbiddenError(
      `A Counterfactual is resolved only by Forge's tracker, which follows the declined trade in market data: ${who} cannot set ${what} on ${change.path}. Write it with status tracking (or untracked) and without a result; the tracker records the result.`,
    );
  }
}
