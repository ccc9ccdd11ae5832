import { CLOSED_EXPRESSION_STATUSES, countsInBook, isClosedExpression, LIVE_EXPRESSION_STATUSES } from '../common/expression-status';
import type { GuardrailLimits } from './limits';
import { asOfInstant, factorKey, type PositionsSnapshot } from './snapshot';
import { roundFigure } from './trade-figures';

/** An Expression as the book sees it, read from its header. */
export interface ExpressionPosition {
  id: string;
  viewId: string | null;
  status: string;
  /** Signed % of NAV (a `direction: short` or negative notional is short). NaN when unreadable. */
  notional: number;
  maxLossPct: number;
  durationImpact: number;
  factor: string | null;
  /** When it became active (activated_at / approved_at); null for Expressions that predate the stamp. */
  activatedAt: string | null;
  closedAt: string | null;
}

export interface OpenExpression {
  id: string;
  viewId: string | null;
  notional: number;
  maxLossPct: number;
  durationImpact: number;
  factor: string | null;
  since: string | null;
  /** True when the snapshot already holds it; false when the book adds it on top. */
  inSnapshot: boolean;
}

export interface LimitUsage {
  rule: 'max_gross_exposure' | 'max_factor_concentration' | 'max_single_risk' | 'max_duration_contribution';
  value: number;
  limit: number;
  /** What the figure is about: the factor with the largest share, the Expression with the largest risk. */
  detail?: string;
}

/** The book the guardrails check against: the snapshot plus what was activated since, minus what closed since. */
export interface Book {
  asOf: string;
  navMusd: number | null;
  gross: number;
  net: number;
  duration: number;
  /** Gross exposure by factor, % of NAV. */
  factors: Record<string, number>;
  open: OpenExpression[];
  usage: LimitUsage[];
  /** Expressions closed since the snapshot whose exposure was taken out. */
  closedSinceSnapshot: string[];
  /** Live Expressions whose notional cannot be read: the book cannot be measured while any exist. */
  unmeasured: string[];
  /** Live Expressions added on top of the snapshot whose factor cannot be read: no factor's share can be measured while any exist. */
  unfactored: string[];
  /** The snapshot's own rows. */
  positions: PositionsSnapshot['positions'];
}

/** The one definition (common/expression-status), re-exported where the book's readers look for it. */
export { CLOSED_EXPRESSION_STATUSES, LIVE_EXPRESSION_STATUSES };

const round = roundFigure;

/** Header → ExpressionPosition. Unreadable numbers stay NaN so the caller can fail closed. */
export function expressionPosition(id: string, header: Record<string, unknown>): ExpressionPosition {
  const num = (v: unknown) => {
    if (typeof v === 'number') return v;
    if (typeof v === 'string' && v.trim() !== '') return Number(v.trim().replace(/%$/, ''));
    return Number.NaN;
  };
  const text = (v: unknown) => (typeof v === 'string' && v.trim() ? v.trim() : typeof v === 'number' ? String(v) : null);
  const direction = text(header.direction)?.toLowerCase();
  const raw = num(header.notional);
  const short = direction === 'short' || direction === 'sell' || direction === 'pay';
  const factor = text(header.factor);
  return {
    id,
    viewId: text(header.view_id ?? header.view),
    status: (text(header.status) ?? '').toLowerCase(),
    notional: short ? -Math.abs(raw) : raw,
    maxLossPct: num(header.max_loss_pct),
    durationImpact: num(header.duration_impact),
    factor: factor ? factorKey(factor) : null,
    activatedAt: text(header.activated_at ?? header.approved_at),
    closedAt: text(header.closed_at),
  };
}

/**
 * Computes the book. An Expression is in the snapshot when the snapshot names it, or when it was
 * activated at or before `asOf` (or carries no activation stamp: it predates the computed book).
 * Live Expressions not in the snapshot are added; snapshot Expressions closed after `asOf` are
 * taken out. `exclude` takes one Expression out of the book wherever it is counted (the one being
 * checked, which the check then adds once): its own snapshot rows when the snapshot names it, its
 * notional when the book holds it inside the snapshot unnamed, nothing when it was never counted.
 */
export function computeBook(snapshot: PositionsSnapshot, expressions: ExpressionPosition[], limits: GuardrailLimits, options: { exclude?: string } = {}): Book {
  const asOf = asOfInstant(snapshot.asOf);
  const named = new Set(snapshot.positions.map((p) => p.expression).filter((e): e is string => !!e));
  const inSnapshot = (e: ExpressionPosition) => {
    if (named.has(e.id)) return true;
    if (!e.activatedAt) return true;
    const t = Date.parse(e.activatedAt);
    return Number.isFinite(t) && t <= asOf;
  };

  let gross = 0;
  let net = 0;
  let duration = 0;
  const factors: Record<string, number> = {};
  const add = (exposure: number, dur: number, factor: string | null, sign: 1 | -1) => {
    gross += sign * Math.abs(exposure);
    net += sign * exposure;
    duration += sign * dur;
    if (factor) factors[factor] = (factors[factor] ?? 0) + sign * Math.abs(exposure);
  };
  // A re-checked Expression's own rows come out here; without this it counted twice (issue #26).
  for (const p of snapshot.positions) if (!options.exclude || p.expression !== options.exclude) add(p.exposurePct, p.duration, p.factor, 1);

  const open: OpenExpression[] = [];
  const closedSinceSnapshot: string[] = [];
  const unmeasured: string[] = [];
  const unfactored: string[] = [];
  const closedSince = (e: ExpressionPosition) => {
    const closedAt = e.closedAt ? Date.parse(e.closedAt) : Number.NaN;
    // Named in the snapshot without a close stamp: the snapshot still held it, so it closed since.
    return Number.isFinite(closedAt) ? closedAt > asOf : named.has(e.id);
  };
  for (const e of expressions) {
    const held = inSnapshot(e);
    if (e.id === options.exclude) {
      // Inside the snapshot but not named there: its exposure sits in unnamed rows, so its own
      // header figures come out instead. Never counted (a proposal, added on top): nothing to take out.
      const inUnnamedRows = !named.has(e.id) && held && (countsInBook(e.status) || (isClosedExpression(e.status) && closedSince(e)));
      if (inUnnamedRows) add(finite(e.notional), finite(e.durationImpact), e.factor, -1);
      continue;
    }
    if (countsInBook(e.status)) {
      open.push({
        id: e.id,
        viewId: e.viewId,
        notional: e.notional,
        maxLossPct: e.maxLossPct,
        durationImpact: e.durationImpact,
        factor: e.factor,
        since: e.activatedAt,
        inSnapshot: held,
      });
      if (!held && !Number.isFinite(e.notional)) unmeasured.push(e.id);
      if (!held && !e.factor) unfactored.push(e.id);
      if (!held) add(finite(e.notional), finite(e.durationImpact), e.factor, 1);
    } else if (isClosedExpression(e.status) && held && closedSince(e)) {
      add(finite(e.notional), finite(e.durationImpact), e.factor, -1);
      closedSinceSnapshot.push(e.id);
    }
  }
  for (const k of Object.keys(factors)) {
    factors[k] = round(factors[k]!);
    if (Math.abs(factors[k]!) < 1e-9) delete factors[k];
  }
  gross = round(Math.max(0, gross));
  open.sort((a, b) => a.id.localeCompare(b.id, undefined, { numeric: true }));
  return {
    asOf: snapshot.asOf,
    navMusd: snapshot.navMusd,
    gross,
    net: round(net),
    duration: round(duration),
    factors,
    open,
    usage: usageOf(gross, factors, open, limits),
    closedSinceSnapshot,
    unmeasured,
    unfactored,
    positions: snapshot.positions,
  };
}

const finite = (x: number) => (Number.isFinite(x) ? x : 0);

function usageOf(gross: number, factors: Record<string, number>, open: OpenExpression[], limits: GuardrailLimits): LimitUsage[] {
  const top = Object.entries(factors).sort((a, b) => b[1] - a[1])[0];
  const largest = (pick: (o: OpenExpression) => number) =>
    open.reduce<{ id: string; v: number } | null>((best, o) => {
      const v = Math.abs(finite(pick(o)));
      return !best || v > best.v ? { id: o.id, v } : best;
    }, null);
  const risk = largest((o) => o.maxLossPct);
  const dur = largest((o) => o.durationImpact);
  return [
    { rule: 'max_gross_exposure', value: gross, limit: limits.maxGross },
    {
      rule: 'max_factor_concentration',
      value: top && gross > 0 ? round((top[1] / gross) * 100) : 0,
      limit: limits.maxFactorConcentration,
      ...(top ? { detail: top[0] } : {}),
    },
    { rule: 'max_single_risk', value: round(risk?.v ?? 0), limit: limits.maxSingleRisk, ...(risk ? { detail: risk.id } : {}) },
    { rule: 'max_duration_contribution', value: round(dur?.v ?? 0), limit: limits.maxDuration, ...(dur ? { detail: dur.id } : {}) },
  ];
}
