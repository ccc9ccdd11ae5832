import { extractSection, type HeaderFields, type MemoryDocument } from '../fs';

/**
 * The terms of a trade as the tracker reads them from an Expression (or a tracked Counterfactual).
 *
 * Header fields (preferred; all optional except where noted):
 *   price_series   REQUIRED — where its prices come from: a market symbol (`UST2Y`, `EURUSD`,
 *                  `SPY.US`) or a column of a file in the PM's data folder, `<file>.<column>`
 *                  (`spy.us.close` for Stooq's spy.us.csv; Yahoo's `Adj Close` as `spy.adj_close` or
 *                  `"spy.Adj Close"`); a list `[UST2Y, ust_yields.us2y]` is tried in order.
 *   quote          price | yield | spread — how the series is quoted (else: the series' own kind,
 *                  then the units written in the rules: `3.62%` a yield, `38bp` a spread).
 *   direction      long/buy/pay/steepener gain when the series rises; short/sell/receive/flattener
 *                  when it falls (else inferred: a target above entry gains when it rises).
 *   entry_price, entry_date
 *   target, stop   a level (`3.17%`, `23bp`, `1.10`) or a move from entry (`+25bp`, `-12bp`, `+5%`).
 *   exit_by        the time exit, YYYY-MM-DD (aliases: time_exit, close_by, expiry, expires).
 *   notional       REQUIRED — % of NAV (the book's own field).
 *   duration_impact REQUIRED for yields and spreads — years of duration the trade adds (the book's field).
 *
 * The seed's Expressions write entry and exit rules in the body instead; those shapes are read too:
 *   ## ENTRY        `Entered 2026-10-15 at 3.62%.`
 *   ## EXIT RULES   `- Target: 3.17%.`  `- Stop: +12bp`  `- Time: close by 2027-03-31 if neither is hit.`
 * The header wins where both say something.
 */

export type Quote = 'price' | 'yield' | 'spread';
export type GainsWhen = 'up' | 'down';

/** A level as written: absolute (with the unit written, if any) or a move from the entry. */
export type LevelSpec = { kind: 'level'; value: number; unit: '%' | 'bp' | null } | { kind: 'move'; value: number; unit: '%' | 'bp' };

export interface TradeTerms {
  priceSeries: string[];
  quote: Quote | null;
  direction: GainsWhen | null;
  entryPrice: LevelSpec | null;
  entryDate: string | null;
  target: LevelSpec | null;
  stop: LevelSpec | null;
  exitBy: string | null;
  /** % of NAV, positive; NaN when unreadable. */
  notional: number;
  /** Years of duration, positive; NaN when absent. */
  durationImpact: number;
}

const DAY = /\b(\d{4}-\d{2}-\d{2})\b/;
const UP_WORDS = new Set(['long', 'buy', 'pay', 'payer', 'steepener', 'steepen', 'up']);
const DOWN_WORDS = new Set(['short', 'sell', 'receive', 'receiver', 'flattener', 'flatten', 'down']);

const text = (v: unknown): string | null => (typeof v === 'string' && v.trim() ? v.trim() : typeof v === 'number' ? String(v) : null);
const num = (v: unknown): number => {
  const t = text(v);
  if (t === null) return Number.NaN;
  const n = Number(t.replace(/%$/, ''));
  return Number.isFinite(n) ? n : Number.NaN;
};

/** `3.17%`, `38bp`, `1.10`, `+25bp`, `-12 bp`, `+5%` (trailing words and punctuation ignored). */
export function parseLevel(raw: unknown): LevelSpec | null {
  if (typeof raw === 'number') return Number.isFinite(raw) ? { kind: 'level', value: raw, unit: null } : null;
  const t = text(raw);
  if (t === null) return null;
  const m = /^([+\-−])?\s*(\d+(?:\.\d+)?)\s*(bps?|%)?(?![\d.]*\d)/i.exec(t.replace(/^(?:at|@)\s+/i, ''));
  if (!m) return null;
  const value = Number(m[2]);
  const unit = m[3] ? (m[3].toLowerCase().startsWith('bp') ? 'bp' : '%') : null;
  if (m[1]) {
    // A move needs its unit: "+25" alone could be points, bp or percent.
    if (!unit) return null;
    return { kind: 'move', value: m[1] === '+' ? value : -value, unit };
  }
  return { kind: 'level', value, unit };
}

function firstDate(s: string | null): string | null {
  const m = s ? DAY.exec(s) : null;
  return m ? m[1]! : null;
}

function directionOf(v: unknown): GainsWhen | null {
  const t = text(v)?.toLowerCase();
  if (!t) return null;
  for (const w of t.split(/[^a-z]+/)) {
    if (UP_WORDS.has(w)) return 'up';
    if (DOWN_WORDS.has(w)) return 'down';
  }
  return null;
}

/** `- Target: 3.17%.` → `3.17%.` from an EXIT RULES section. */
function rule(section: string | null, name: string): string | null {
  if (!section) return null;
  const m = new RegExp(`^\\s*[-*]?\\s*${name}\\s*:\\s*(.+)$`, 'im').exec(section);
  return m ? m[1]!.trim() : null;
}

/**
 * `[spy.close, UST2Y]`, `spy.close, UST2Y` or `spy.close UST2Y`; a quoted entry keeps its spaces
 * (`["spy.Adj Close"]`: a Yahoo column, also reachable as `spy.adj_close`).
 */
function seriesList(v: unknown): string[] {
  const t = text(v);
  const quoted = /^\s*(["'])(.*)\1\s*$/;
  const items = Array.isArray(v) ? v.map(String) : t === null ? [] : quoted.test(t) ? [t] : t.split(t.includes(',') ? /,/ : /\s+/);
  return items.map((s) => s.trim().replace(quoted, '$2').trim()).filter(Boolean);
}

/** The day the tracker measures a trade from: its stated entry date, else the day it went live (activation, approval). */
export function entryDateOf(doc: Pick<MemoryDocument, 'header' | 'body'>, terms: TradeTerms = readTradeTerms(doc)): string | null {
  const live = text(doc.header.activated_at) ?? text(doc.header.approved_at);
  return terms.entryDate ?? (live ? live.slice(0, 10) : null);
}

/** Reads the trade terms of a record; nothing is validated here (see `checkTerms`). */
export function readTradeTerms(doc: Pick<MemoryDocument, 'header' | 'body'>): TradeTerms {
  const h: HeaderFields = doc.header;
  const body = doc.body ?? '';
  const entrySection = extractSection(body, 'ENTRY');
  const rules = extractSection(body, 'EXIT RULES');
  // "Entered 2026-10-15 at 3.62%." — the date and the level after "at".
  const entered = entrySection ? /(\d{4}-\d{2}-\d{2})[^\n]*?\bat\s+([+-]?\d[^\s,;]*)/i.exec(entrySection) : null;
  const timeRule = rule(rules, 'Time');
  return {
    priceSeries: seriesList(h.price_series),
    quote: ((): Quote | null => {
      const q = text(h.quote)?.toLowerCase();
      return q === 'price' || q === 'yield' || q === 'spread' ? q : null;
    })(),
    direction: directionOf(h.direction),
    entryPrice: parseLevel(h.entry_price) ?? (entered ? parseLevel(entered[2]) : null),
    entryDate: firstDate(text(h.entry_date)) ?? (entered ? entered[1]! : null),
    target: parseLevel(h.target) ?? parseLevel(rule(rules, 'Target')),
    stop: parseLevel(h.stop) ?? parseLevel(rule(rules, 'Stop')),
    exitBy: firstDate(text(h.exit_by ?? h.time_exit ?? h.close_by ?? h.expiry ?? h.expires)) ?? firstDate(timeRule),
    notional: Math.abs(num(h.notional)),
    durationImpact: Math.abs(num(h.duration_impact)),
  };
}

/** The quote a trade is measured in: header, then the series' kind, then the units its rules use. */
export function resolveQuote(terms: TradeTerms, seriesKind: string | null): Quote {
  if (terms.quote) return terms.quote;
  if (seriesKind === 'price' || seriesKind === 'yield') return seriesKind;
  const levels = [terms.entryPrice, terms.target, terms.stop].filter((l): l is LevelSpec => l !== null && l.kind === 'level');
  if (levels.some((l) => l.unit === '%')) return 'yield';
  if (levels.some((l) => l.unit === 'bp')) return 'spread';
  const moves = [terms.target, terms.stop].filter((l): l is LevelSpec => l !== null);
  if (moves.length && moves.every((l) => l.unit === 'bp')) return 'spread';
  return 'price';
}

/**
 * A level in the series' units. Yields are in % (a move of +25bp is +0.25), spreads in bp, prices
 * in their currency (a move of +5% is ×1.05).
 */
export function resolveLevel(spec: LevelSpec, quote: Quote, entry: number): number {
  if (spec.kind === 'level') {
    if (quote === 'yield' && spec.unit === 'bp') return spec.value / 100;
    return spec.value;
  }
  const { value, unit } = spec;
  switch (quote) {
    case 'yield':
      return entry + (unit === 'bp' ? value / 100 : value);
    case 'spread':
      return entry + (unit === 'bp' ? value : value * 100);
    case 'price':
      return entry * (1 + (unit === 'bp' ? value / 10_000 : value / 100));
  }
}

/** Which way the trade makes money: the stated direction, else the side its target (or stop) is on. */
export function resolveDirection(terms: TradeTerms, entry: number, target: number | null, stop: number | null): { direction: GainsWhen } | { problem: string } {
  const fromTarget: GainsWhen | null = target === null || target === entry ? null : target > entry ? 'up' : 'down';
  const fromStop: GainsWhen | null = stop === null || stop === entry ? null : stop < entry ? 'up' : 'down';
  if (fromTarget && fromStop && fromTarget !== fromStop) {
    return { problem: `its target (${target}) and stop (${stop}) are on the same side of the entry (${entry}); fix the exit rules` };
  }
  const implied = fromTarget ?? fromStop;
  if (terms.direction && implied && terms.direction !== implied) {
    return {
      problem: `its direction says it gains when the price goes ${terms.direction}, but its ${fromTarget ? 'target' : 'stop'} says ${implied}; fix the direction or the exit rules`,
    };
  }
  const direction = terms.direction ?? implied;
  if (!direction) return { problem: 'it states no direction and no target or stop to infer one from; add `direction: long` or `direction: short`' };
  return { direction };
}
