/**
 * Reading the portfolio files (`/portfolio/state.md`, `/portfolio/constraints.md`): their `key:
 * value` header, and the guardrail limits in force, read the same way the core reads them.
 */

export interface PortfolioDoc {
  /** From `# state — Demo portfolio state`: the part after the dash (or the whole line). */
  title: string;
  /** Header lines in file order. */
  fields: [string, string][];
  body: string;
}

/** Splits a portfolio file into its title, header fields and body; a file without `---` is all body. */
export function splitDoc(content: string): PortfolioDoc {
  const lines = content.replace(/\r\n?/g, '\n').split('\n');
  const sep = lines.findIndex((l) => l.trim() === '---');
  if (sep < 0) return { title: '', fields: [], body: content };
  let title = '';
  const fields: [string, string][] = [];
  for (const line of lines.slice(0, sep)) {
    const heading = /^#\s+(.*)$/.exec(line);
    if (heading) {
      const t = heading[1].trim();
      title = t.includes(' — ') ? t.slice(t.indexOf(' — ') + 3).trim() : t;
      continue;
    }
    const kv = /^([A-Za-z0-9_]+):\s*(.*)$/.exec(line);
    if (kv) fields.push([kv[1], kv[2].trim()]);
  }
  return { title, fields, body: lines.slice(sep + 1).join('\n') };
}

export function field(doc: PortfolioDoc | null, key: string): string | null {
  return doc?.fields.find(([k]) => k === key)?.[1] ?? null;
}

/** A positive number from a header field, or null (the core ignores anything else too). */
export function positiveNumber(value: string | null): number | null {
  if (value === null || !/^[\d.]+$/.test(value.trim())) return null;
  const n = Number(value);
  return Number.isFinite(n) && n > 0 ? n : null;
}

export interface LimitRow {
  key: string;
  label: string;
  unit: string;
  /** What applies: the constraints file's value, else Forge's default. */
  limit: number;
  fromFile: boolean;
  /** The computed book's figure for this limit (largest open trade for per-trade limits); null before the core answers. */
  now: number | null;
  /** What the figure is about: the largest factor, or the open Expression with the largest figure. */
  detail: string | null;
  /** How the limit is checked, in the PM's words. */
  scope: string;
}

type UsageRule = 'max_gross_exposure' | 'max_factor_concentration' | 'max_single_risk' | 'max_duration_contribution';

/** The limits in force as the core serves them (`guardrails/limits`): the same numbers the write tool checks. */
export interface LimitsInForce {
  limits: { maxSingleRisk: number; maxGross: number; maxDuration: number; maxFactorConcentration: number };
  fromConstraints: { maxSingleRisk: boolean; maxGross: boolean; maxDuration: boolean; maxFactorConcentration: boolean };
  /** Each limit against the computed book now. */
  usage?: { rule: UsageRule; value: number; limit: number; detail?: string }[];
}

/** Each limit, with the name the PM writes in constraints.md and the rule the core reports. */
const limitInfo: { key: keyof LimitsInForce['limits']; file: string; rule: UsageRule; label: string; unit: string; scope: string }[] = [
  {
    key: 'maxSingleRisk',
    file: 'max_single_risk',
    rule: 'max_single_risk',
    label: 'Single-trade risk',
    unit: '% of NAV',
    scope: 'each Expression’s max loss (largest open shown)',
  },
  { key: 'maxGross', file: 'max_gross', rule: 'max_gross_exposure', label: 'Gross exposure', unit: '% of NAV', scope: 'the book including the new trade' },
  {
    key: 'maxDuration',
    file: 'max_duration',
    rule: 'max_duration_contribution',
    label: 'Duration contribution',
    unit: 'years',
    scope: 'each Expression (largest open shown)',
  },
  {
    key: 'maxFactorConcentration',
    file: 'max_factor_concentration',
    rule: 'max_factor_concentration',
    label: 'Factor concentration',
    unit: '% of gross',
    scope: 'any one factor after the trade (largest shown)',
  },
];

/** The limits as rows, each with the computed book's figure against it (never a figure read from prose). */
export function limitRows(inForce: LimitsInForce | null): LimitRow[] {
  if (!inForce) return [];
  return limitInfo.map((info) => {
    const use = inForce.usage?.find((u) => u.rule === info.rule);
    return {
      key: info.file,
      label: info.label,
      unit: info.unit,
      limit: inForce.limits[info.key],
      fromFile: inForce.fromConstraints[info.key],
      now: use ? use.value : null,
      detail: use?.detail ?? null,
      scope: info.scope,
    };
  });
}

/** Share of a limit in use, 0..1+ (may exceed 1 when the book is already over). */
export function usedShare(row: LimitRow): number | null {
  return row.now === null ? null : row.now / row.limit;
}

/** A figure for a table: fixed decimals, a real minus sign, right-aligned by the caller. */
export function figure(value: number | null | undefined, decimals = 1): string {
  if (value === null || value === undefined || !Number.isFinite(value)) return '—';
  const text = Math.abs(value).toFixed(decimals);
  return value < 0 ? `−${text}` : text;
}

const headerWords: Record<string, string> = {
  as_of: 'as of',
  nav_musd: 'NAV ($m)',
  gross: 'gross (% NAV)',
  net: 'net (% NAV)',
  duration: 'duration (yrs)',
  risk_budget_used: 'risk budget used',
};

/** A header key in the PM's words (`nav_musd` → `NAV ($m)`). */
export function fieldLabel(key: string): string {
  return headerWords[key] ?? key.replace(/_/g, ' ');
}

/** `risk_budget_used: 0.62` reads better as 62%. */
export function fieldValue(key: string, value: string): string {
  if (key === 'risk_budget_used') {
    const n = Number(value);
    if (Number.isFinite(n) && n >= 0 && n <= 1.5) return `${Math.round(n * 100)}%`;
  }
  return value;
}
