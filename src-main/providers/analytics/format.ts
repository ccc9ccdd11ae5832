/** Markdown helpers for the analytics provider's reports. */

/** A number with `digits` decimals, no trailing float noise; '—' for null. */
export function num(x: number | null | undefined, digits = 4): string {
  if (x === null || x === undefined) return '—';
  if (!Number.isFinite(x)) return x > 0 ? '∞' : x < 0 ? '−∞' : '—';
  const r = Number(x.toFixed(digits));
  return Object.is(r, -0) ? '0' : String(r);
}

/** `digits` significant digits (for greeks and other small quantities): 0.049963 → "0.04996". */
export function sig(x: number | null | undefined, digits = 4): string {
  if (x === null || x === undefined) return '—';
  if (!Number.isFinite(x)) return x > 0 ? '∞' : x < 0 ? '−∞' : '—';
  if (x === 0) return '0';
  return String(Number(x.toPrecision(digits)));
}

/** A decimal rate as a percent: 0.04123 → "4.123%". */
export function pct(x: number | null | undefined, digits = 3): string {
  if (x === null || x === undefined || !Number.isFinite(x)) return '—';
  return `${num(x * 100, digits)}%`;
}

export function table(headers: string[], rows: (string | number)[][]): string {
  const cell = (c: string | number) => String(c).replace(/\|/g, '/').replace(/\s+/g, ' ');
  return [`| ${headers.join(' | ')} |`, `|${headers.map(() => '---').join('|')}|`, ...rows.map((r) => `| ${r.map(cell).join(' | ')} |`)].join('\n');
}
