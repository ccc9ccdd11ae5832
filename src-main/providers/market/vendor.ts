import type { ProviderResult } from '../provider';
import type { MarketParams, MarketSeries } from './schema';
import { type CorporateEvent, describeEvent } from './yahoo-chart';

/**
 * What a keyless or keyed price vendor (Polygon, Stooq) hands the market provider, and the parts
 * of its answer every such vendor says the same way: how many rows of how many, how many were cut
 * for the session's as-of date, which splits and dividends fall in the window (reported, never
 * applied), and an empty window as a sentence rather than "not found".
 */

export interface VendorLoad {
  series: MarketSeries;
  /** Names the vendor and how its prices are adjusted, e.g. `Polygon aggs AAPL … (adjusted=true: …)`. */
  source: string;
  notes: string[];
  /** Splits and dividends the vendor lists for the range asked. */
  events?: CorporateEvent[];
}

export interface WindowFacts {
  /** Rows in the date window before `last` / the row cap kept only the most recent. */
  total: number;
  /** Rows the vendor sent dated after the session's as-of date (cut by Forge). */
  removedAfterAsOf: number;
  /** The window's ends as asked (`…` when open). */
  range: string;
}

/** The date window of a request, counted before anything is cut: the "N of M" and the as-of sentence come from here. */
export function windowFacts(series: MarketSeries, params: Pick<MarketParams, 'start' | 'end'>, asOf?: string): WindowFacts {
  const end = asOf && (!params.end || asOf < params.end) ? asOf : params.end;
  const inStart = (d: string) => !params.start || d >= params.start;
  const total = series.rows.filter((r) => inStart(r.date) && (!end || r.date <= end)).length;
  const removedAfterAsOf = asOf ? series.rows.filter((r) => inStart(r.date) && r.date > asOf && (!params.end || r.date <= params.end)).length : 0;
  return { total, removedAfterAsOf, range: `${params.start ?? '…'}..${end ?? '…'}` };
}

/** Sentences for the summary: "10 of 91", the as-of cut, and the events in the rows shown. */
export function vendorNotes(facts: WindowFacts, shown: number, asOf: string | undefined): string[] {
  const notes: string[] = [];
  if (facts.total > shown) notes.push(`Showing ${shown} of ${facts.total} obs (the most recent).`);
  if (facts.removedAfterAsOf && asOf) {
    const n = facts.removedAfterAsOf;
    notes.push(`${n} observation${n === 1 ? '' : 's'} after ${asOf} ${n === 1 ? 'was' : 'were'} removed (the session is as of ${asOf}).`);
  }
  return notes;
}

/** The events dated within [first, last] of the rows shown. */
export function eventsIn(events: CorporateEvent[] | undefined, first: string, last: string): CorporateEvent[] {
  return (events ?? []).filter((e) => e.date >= first && e.date <= last);
}

export function eventsSentence(events: CorporateEvent[]): string {
  return events.length ? `Events: ${events.map(describeEvent).join('; ')} (reported, not applied).` : 'No splits or dividends listed in this range.';
}

/** No rows in the window: an answer, said in a sentence, as of the session's date (or today). */
export function emptyVendorResult(params: MarketParams, load: VendorLoad, facts: WindowFacts, asOf: string | undefined, now: () => Date): ProviderResult {
  const day = asOf ?? now().toISOString().slice(0, 10);
  const summary = [`${load.series.name}: no observations in ${facts.range}.`, ...vendorNotes({ ...facts, total: 0 }, 0, asOf), `Source: ${load.source}.`].join(
    ' ',
  );
  const full = () =>
    [
      `# ${params.symbol} ${params.kind}`,
      `name: ${load.series.name}`,
      `source: ${load.source}`,
      `range: ${facts.range}`,
      'observations: 0',
      `as_of: ${day}`,
      `fetched_at: ${now().toISOString()}`,
      '---',
      '## SUMMARY',
      summary,
      '',
    ].join('\n');
  return {
    label: `${params.symbol} ${params.kind} ${facts.range} (no observations)`,
    asOf: day,
    source: load.source,
    formatFull: full,
    formatSummary: () => summary,
  };
}
