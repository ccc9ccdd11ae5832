import { InvalidInputError } from '../common/errors';

/**
 * The last positions snapshot: what the PM's order/risk system said the book held at `asOf`.
 * It lives in `/portfolio/state.md` as header lines (`as_of`, `nav_musd`) and a POSITIONS table.
 * Nothing here is read from prose: gross, net, duration and factors are sums over the rows.
 */
export interface Position {
  instrument: string;
  /** Factor key the concentration limit groups by (us_rates, fx, …). */
  factor: string;
  /** Signed exposure, % of NAV (negative = short). */
  exposurePct: number;
  /** Duration contribution, years (signed). */
  duration: number;
  /** The Expression this position carries, when it came from one (E-001). */
  expression: string | null;
}

export interface PositionsSnapshot {
  /** ISO date or timestamp the positions were taken at. */
  asOf: string;
  navMusd: number | null;
  positions: Position[];
}

const EXPRESSION_ID = /^E-\d{3,}$/;

export function factorKey(name: string): string {
  return name
    .trim()
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '_')
    .replace(/^_|_$/g, '');
}

/**
 * `as_of` as an instant. A date alone means the START of that day (UTC): an Expression approved
 * later that same day is then counted on top of the snapshot — double-counting a trade is safe,
 * missing one is not.
 */
export function asOfInstant(asOf: string): number {
  const t = Date.parse(/^\d{4}-\d{2}-\d{2}$/.test(asOf) ? `${asOf}T00:00:00Z` : asOf);
  return Number.isFinite(t) ? t : Number.NaN;
}

/** Column names a POSITIONS (or the older EXPOSURES) table may use, by what they mean. */
const COLUMNS: Record<keyof Omit<Position, never>, RegExp> = {
  instrument: /^(instrument|position|bucket|name|description)$/,
  factor: /^(factor|risk_factor|bucket_factor)$/,
  exposurePct: /^(exposure_pct_nav|exposure|exposure_pct|pct_nav|gross_pct_nav|gross|net_pct_nav|notional_pct_nav)$/,
  duration: /^(duration|duration_years|duration_yrs|dur)$/,
  expression: /^(expression|expression_id)$/,
};

const columnKey = (cell: string) =>
  cell
    .toLowerCase()
    .replace(/%/g, 'pct')
    .replace(/\(.*?\)/g, '')
    .trim()
    .replace(/[^a-z0-9]+/g, '_')
    .replace(/^_|_$/g, '');

function tableAfter(md: string, heading: string): string[] | null {
  const m = new RegExp(`^## ${heading}[ \\t]*\\n([\\s\\S]*?)(?=\\n## |(?![\\s\\S]))`, 'm').exec(md);
  if (!m) return null;
  return m[1]!.split('\n').filter((l) => l.trim().startsWith('|'));
}

const cellsOf = (line: string) =>
  line
    .trim()
    .replace(/^\|/, '')
    .replace(/\|$/, '')
    .split('|')
    .map((c) => c.trim());

function headerValue(md: string, key: string): string | undefined {
  const head = md.split(/\n---[ \t]*\n/)[0] ?? '';
  return new RegExp(`^${key}:[ \\t]*(.+?)[ \\t]*$`, 'm').exec(head)?.[1];
}

/**
 * Reads the snapshot out of `/portfolio/state.md`. A malformed row is an error naming its line,
 * never skipped: a position the guardrails cannot see is exposure they would not count.
 */
export function parseSnapshot(stateMd: string | null): PositionsSnapshot {
  if (!stateMd) return { asOf: '1970-01-01', navMusd: null, positions: [] };
  const asOf = headerValue(stateMd, 'as_of') ?? '1970-01-01';
  if (!Number.isFinite(asOfInstant(asOf))) {
    throw new InvalidInputError(`/portfolio/state.md: as_of "${asOf.slice(0, 40)}" is not a date; use YYYY-MM-DD or an ISO timestamp.`);
  }
  const navRaw = headerValue(stateMd, 'nav_musd');
  const nav = navRaw === undefined ? null : Number(navRaw);
  const rows = tableAfter(stateMd, 'POSITIONS') ?? tableAfter(stateMd, 'EXPOSURES') ?? [];
  const positions: Position[] = [];
  if (rows.length) {
    const lines = stateMd.split('\n');
    const head = cellsOf(rows[0]!).map(columnKey);
    const at: Partial<Record<keyof Position, number>> = {};
    for (const [key, re] of Object.entries(COLUMNS) as [keyof Position, RegExp][]) {
      const i = head.findIndex((h) => re.test(h));
      if (i >= 0) at[key] = i;
    }
    if (at.instrument === undefined || at.exposurePct === undefined) {
      throw new InvalidInputError('/portfolio/state.md: the POSITIONS table needs an instrument column and an exposure_pct_nav column.');
    }
    for (const row of rows.slice(1)) {
      const cells = cellsOf(row);
      if (cells.every((c) => /^:?-+:?$/.test(c) || c === '')) continue;
      const lineNo = lines.indexOf(row) + 1;
      const fail = (col: string, what: string) => new InvalidInputError(`/portfolio/state.md line ${lineNo}, column ${col}: ${what}.`);
      const instrument = cells[at.instrument]!;
      if (!instrument) throw fail('instrument', 'is empty');
      const exposure = Number(cells[at.exposurePct]);
      if (!Number.isFinite(exposure)) throw fail('exposure_pct_nav', `"${cells[at.exposurePct]?.slice(0, 20)}" is not a number`);
      const durText = at.duration === undefined ? '' : (cells[at.duration] ?? '');
      const duration = durText === '' ? 0 : Number(durText);
      if (!Number.isFinite(duration)) throw fail('duration', `"${durText.slice(0, 20)}" is not a number`);
      const expression = at.expression === undefined ? '' : (cells[at.expression] ?? '');
      if (expression && !EXPRESSION_ID.test(expression)) throw fail('expression', `"${expression.slice(0, 20)}" is not an Expression id such as E-001`);
      const factorText = at.factor === undefined ? instrument : cells[at.factor] || instrument;
      positions.push({ instrument, factor: factorKey(factorText), exposurePct: exposure, duration, expression: expression || null });
    }
  }
  return { asOf, navMusd: nav !== null && Number.isFinite(nav) && nav > 0 ? nav : null, positions };
}

const fmt = (n: number) => String(Math.round(n * 1e6) / 1e6);

/** Writes a snapshot as `/portfolio/state.md` (the form parseSnapshot reads back exactly). */
export function renderSnapshot(s: PositionsSnapshot, source: string): string {
  const lines = [
    '# state — Positions snapshot',
    `source: ${source}`,
    `as_of: ${s.asOf}`,
    ...(s.navMusd !== null ? [`nav_musd: ${fmt(s.navMusd)}`] : []),
    '---',
    '## SUMMARY',
    `Positions as of ${s.asOf} (${s.positions.length} rows, from ${source}). Forge computes gross, net, duration and factor exposure from this table plus the Expressions approved or closed since; the Portfolio screen shows the live book.`,
    '',
    '## POSITIONS',
    '| instrument | factor | exposure_pct_nav | duration | expression |',
    '|---|---|---|---|---|',
    ...s.positions.map((p) => `| ${p.instrument.replace(/\|/g, '/')} | ${p.factor} | ${fmt(p.exposurePct)} | ${fmt(p.duration)} | ${p.expression ?? ''} |`),
  ];
  return `${lines.join('\n')}\n`;
}
