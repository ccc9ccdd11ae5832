import type { ReviewReportView } from '../../src-main/api/schedule';

export type ReportRow = ReviewReportView['views'][number];
export type Move = ReportRow['moves'][number];

/** A level in its quote: yields in %, spreads in bp, prices as quoted. */
export function formatLevel(kind: Move['kind'], value: number): string {
  if (kind === 'yield') return `${value}%`;
  if (kind === 'spread') return `${value} bp`;
  return String(value);
}

/** −1.7 bp, +0.308%, ±0 bp: the sign always shown, a true minus sign. */
export function formatChange(m: Pick<Move, 'change' | 'unit'>): string {
  const sign = m.change > 0 ? '+' : m.change < 0 ? '−' : '±';
  return `${sign}${Math.abs(m.change)}${m.unit === 'bp' ? ' bp' : '%'}`;
}

export function changeDirection(m: Pick<Move, 'change'>): 'up' | 'down' | 'flat' {
  return m.change > 0 ? 'up' : m.change < 0 ? 'down' : 'flat';
}

export const actionLabel: Record<NonNullable<ReportRow['action']>, string> = {
  hold: 'Hold',
  review: 'Review',
  retire: 'Retire',
  update: 'Update',
};

/** "2026-11-20 07:00" in the PM's own clock. */
export function localMinute(iso: string): string {
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return iso;
  const p = (n: number) => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${p(d.getMonth() + 1)}-${p(d.getDate())} ${p(d.getHours())}:${p(d.getMinutes())}`;
}

export interface ReportTotals {
  fired: number;
  unmatched: number;
  firingViews: string[];
  measured: number;
}

export function totals(report: Pick<ReviewReportView, 'views'>): ReportTotals {
  const fired = report.views.flatMap((v) => v.invalidationsFired);
  return {
    fired: fired.length,
    unmatched: fired.filter((f) => !f.matched).length,
    firingViews: report.views.filter((v) => v.invalidationsFired.length > 0).map((v) => v.id),
    measured: report.views.filter((v) => v.moves.length > 0).length,
  };
}

/** The report's headline: what fired, or that nothing did. */
export function headline(report: Pick<ReviewReportView, 'views' | 'parsed'>): string {
  const t = totals(report);
  if (t.fired > 0) return `${t.fired} invalidation condition${t.fired === 1 ? '' : 's'} fired (${t.firingViews.join(', ')})`;
  return report.parsed ? 'No invalidation condition fired' : 'No structured verdict in the answer — moves only';
}
