import type { Book } from './book';

import { shownFigure } from './figures';

// Same rounding as the guardrail messages, so the book and a refusal quote the same figure.
const pct = (x: number, limit?: number) => shownFigure(x, limit);
const years = (x: number) => shownFigure(x, undefined, 2);

/**
 * The book as the analyst (and an IDE attached over MCP) reads it at /portfolio/book.md:
 * computed figures, each limit as value vs limit, and the open Expressions.
 */
export function formatBook(book: Book): string {
  const factors = Object.entries(book.factors).sort((a, b) => b[1] - a[1]);
  const lines = [
    '# book — Computed book (read-only)',
    `as_of_snapshot: ${book.asOf}`,
    ...(book.navMusd !== null ? [`nav_musd: ${book.navMusd}`] : []),
    `gross: ${pct(book.gross)}`,
    `net: ${pct(book.net)}`,
    `duration: ${years(book.duration)}`,
    `open_expressions: ${book.open.length}`,
    '---',
    '## SUMMARY',
    `Gross ${pct(book.gross)}% of NAV, net ${pct(book.net)}%, duration ${years(book.duration)} years: the positions snapshot of ${book.asOf} plus ${book.open.filter((o) => !o.inSnapshot).length} Expression(s) activated since, minus ${book.closedSinceSnapshot.length} closed since. Computed by Forge; the guardrails check every Expression against exactly this.`,
    '',
    '## LIMITS (value vs limit)',
    ...book.usage.map((u) => `- ${u.rule}: ${pct(u.value, u.limit)} vs ${u.limit}${u.detail ? ` (${u.detail})` : ''}${u.value > u.limit ? ' — OVER' : ''}`),
    '',
    '## FACTORS (gross % NAV, share of gross)',
    ...factors.map(([f, v]) => `- ${f}: ${pct(v)} (${book.gross > 0 ? pct((v / book.gross) * 100) : '0'}%)`),
    '',
    '## OPEN EXPRESSIONS',
    ...(book.open.length
      ? book.open.map(
          (o) =>
            `- ${o.id} (${o.viewId ?? 'no view'}): notional ${Number.isFinite(o.notional) ? pct(o.notional) : '?'}, max loss ${Number.isFinite(o.maxLossPct) ? pct(o.maxLossPct) : '?'}%, duration ${Number.isFinite(o.durationImpact) ? years(o.durationImpact) : '?'}, factor ${o.factor ?? 'none'}, ${o.inSnapshot ? 'in the snapshot' : `added since ${o.since}`}`,
        )
      : ['None.']),
  ];
  if (book.unmeasured.length) lines.push('', `WARNING: ${book.unmeasured.join(', ')} have no readable notional; no new trade passes until they are fixed.`);
  if (book.unfactored.length) lines.push('', `WARNING: ${book.unfactored.join(', ')} name no factor; no new trade passes until each has a \`factor:\` line.`);
  return lines.join('\n');
}
