import type { ProviderResult } from '../provider';
import type { FredObservation, FredSeries } from './fred';
import { UNITS } from './params';

/** Renderings of FRED answers: the markdown stored in the session and the ~100-token summary. */

const cell = (s: string | undefined) => (s ?? '').replace(/\|/g, '/').replace(/\s+/g, ' ').trim();
const num = (v: string): number | null => {
  if (v.trim() === '' || v === '.') return null;
  const n = Number(v);
  return Number.isFinite(n) ? n : null;
};
/** FRED writes a missing value as `.`. */
export const isValue = (v: string): boolean => num(v) !== null;
const fmt = (n: number) => String(Math.round(n * 1e4) / 1e4);

export interface ObservationsView {
  series: FredSeries | null;
  seriesId: string;
  units: keyof typeof UNITS;
  frequency?: string;
  aggregation?: string;
  /** The real-time window asked for (vintage queries), else undefined. */
  realtime?: { start: string; end: string } | { vintages: string[] };
  observations: FredObservation[];
  /** FRED's count of matching observations (more than shown when truncated). */
  count: number;
  /** Rows FRED sent that were dated after the session's as-of date, and were cut here. */
  removedAfterAsOf?: { count: number; asOf: string };
  asOf: string;
  fetchedAt: string;
  /** How it was read when not the keyed API, e.g. `fredgraph CSV, no key`: shown in the source line. */
  via?: string;
  /** Sentences the reader must see in the summary (e.g. that values are today's, revisions included). */
  notes?: string[];
}

export function observationsResult(v: ObservationsView): ProviderResult {
  const obs = v.observations;
  const first = obs[0]!.date;
  const last = obs[obs.length - 1]!.date;
  const vintageText = !v.realtime ? '' : 'vintages' in v.realtime ? `vintages ${v.realtime.vintages.join(', ')}` : `vintage ${v.realtime.end}`;
  const transform = v.units === 'lin' ? '' : ` ${v.units}`;
  const label = `${v.seriesId}${transform} ${first}..${last}${vintageText ? ` (${vintageText})` : ''}`;
  const source = `FRED ${v.seriesId}${vintageText ? ` (${vintageText})` : ''}${v.via ? ` (${v.via})` : ''}`;
  const multiPeriod = !!v.realtime && new Set(obs.map((o) => o.realtime_start)).size > 1;
  const summary = summariseObservations(v, multiPeriod);
  const title = v.series?.title ?? v.seriesId;
  const full = () =>
    [
      `# ctx — economic: ${v.seriesId} — ${cell(title)}`,
      `source: ${source}`,
      `series: ${v.seriesId}`,
      `title: ${cell(title)}`,
      v.series?.units ? `units: ${cell(v.series.units)}${v.series.seasonal_adjustment_short ? ` (${v.series.seasonal_adjustment_short})` : ''}` : null,
      v.series?.frequency ? `native_frequency: ${cell(v.series.frequency)}` : null,
      `transform: ${v.units} (${UNITS[v.units]})`,
      v.frequency ? `frequency: ${v.frequency}${v.aggregation ? ` (${v.aggregation})` : ''}` : null,
      vintageText
        ? `realtime: ${'start' in (v.realtime ?? {}) ? `${(v.realtime as { start: string }).start}..${(v.realtime as { end: string }).end}` : vintageText}`
        : null,
      `as_of: ${v.asOf}`,
      `observations: ${obs.length}${v.count > obs.length ? ` (most recent of ${v.count})` : ''}`,
      v.removedAfterAsOf ? `removed_after_as_of: ${v.removedAfterAsOf.count}` : null,
      `range: ${first}..${last}`,
      `fetched_at: ${v.fetchedAt}`,
      '---',
      '## SUMMARY',
      summary,
      '',
      '## DATA',
      multiPeriod ? '| date | value | realtime_start | realtime_end |' : '| date | value |',
      multiPeriod ? '|---|---|---|---|' : '|---|---|',
      ...obs.map((o) =>
        multiPeriod ? `| ${o.date} | ${cell(o.value)} | ${o.realtime_start ?? ''} | ${o.realtime_end ?? ''} |` : `| ${o.date} | ${cell(o.value)} |`,
      ),
      '',
    ]
      .filter((l): l is string => l !== null)
      .join('\n');
  return { label, asOf: v.asOf, source, formatFull: full, formatSummary: () => summary };
}

function summariseObservations(v: ObservationsView, multiPeriod: boolean): string {
  const head = seriesHead(v.series, v.seriesId, v.units);
  // With several real-time periods, the newest vintage's values tell the current story.
  const latestStart = multiPeriod ? v.observations.reduce((m, o) => ((o.realtime_start ?? '') > m ? (o.realtime_start ?? '') : m), '') : null;
  const rows = latestStart === null ? v.observations : v.observations.filter((o) => o.realtime_start === latestStart);
  const values = rows.map((o) => ({ date: o.date, n: num(o.value) })).filter((x): x is { date: string; n: number } => x.n !== null);
  // A page of a longer series says so here too: the summary may be all the analyst reads.
  const shown = v.count > v.observations.length ? `${v.observations.length} of ${v.count} obs (the most recent)` : `${v.observations.length} obs`;
  const parts = [`${head}: ${shown} ${v.observations[0]!.date}..${v.observations[v.observations.length - 1]!.date}.`];
  if (values.length) {
    const last = values[values.length - 1]!;
    const prev = values.length > 1 ? values[values.length - 2]! : null;
    const ns = values.map((x) => x.n);
    parts.push(
      `Latest ${last.date} ${fmt(last.n)}${prev ? ` (prev ${prev.date} ${fmt(prev.n)})` : ''}; min ${fmt(Math.min(...ns))}, max ${fmt(Math.max(...ns))}.`,
    );
  } else parts.push('No numeric values (all missing).');
  if (multiPeriod) parts.push(`${new Set(v.observations.map((o) => o.realtime_start)).size} real-time periods; latest values from vintage ${latestStart}.`);
  else if (v.realtime) parts.push(`As known on ${'end' in v.realtime ? v.realtime.end : v.realtime.vintages.at(-1)}.`);
  if (v.removedAfterAsOf) parts.push(removedSentence(v.removedAfterAsOf));
  parts.push(...(v.notes ?? []));
  return parts.join(' ');
}

function removedSentence(r: { count: number; asOf: string }): string {
  return `${r.count} observation${r.count === 1 ? '' : 's'} after ${r.asOf} ${r.count === 1 ? 'was' : 'were'} removed (the session is as of ${r.asOf}).`;
}

function seriesHead(series: FredSeries | null, seriesId: string, units: keyof typeof UNITS): string {
  const meta = [series?.units_short, series?.frequency_short, series?.seasonal_adjustment_short].filter(Boolean).join(', ');
  return `${seriesId}${series ? ` (${cell(series.title).slice(0, 80)}${meta ? `; ${meta}` : ''})` : ''}${units === 'lin' ? '' : `, ${UNITS[units]}`}`;
}

export interface EmptyObservationsView {
  series: FredSeries | null;
  seriesId: string;
  units: keyof typeof UNITS;
  /** The observation range asked for, `start..end` (`…` for an open end). */
  range: string;
  vintageEnd: string | null;
  removedAfterAsOf?: { count: number; asOf: string };
  asOf: string;
  fetchedAt: string;
  via?: string;
}

/** A series that exists but has no observations in the range asked for: an answer, said in a sentence. */
export function emptyObservationsResult(v: EmptyObservationsView): ProviderResult {
  const known = v.vintageEnd ? ` as known on ${v.vintageEnd}` : '';
  const summary = [
    `${seriesHead(v.series, v.seriesId, v.units)}: no observations in ${v.range}${known}.`,
    v.removedAfterAsOf ? removedSentence(v.removedAfterAsOf) : null,
  ]
    .filter(Boolean)
    .join(' ');
  const source = `FRED ${v.seriesId}${v.vintageEnd ? ` (vintage ${v.vintageEnd})` : ''}${v.via ? ` (${v.via})` : ''}`;
  const full = () =>
    [
      `# ctx — economic: ${v.seriesId} — ${cell(v.series?.title ?? v.seriesId)}`,
      `source: ${source}`,
      `series: ${v.seriesId}`,
      `as_of: ${v.asOf}`,
      'observations: 0',
      `range: ${v.range}`,
      v.removedAfterAsOf ? `removed_after_as_of: ${v.removedAfterAsOf.count}` : null,
      `fetched_at: ${v.fetchedAt}`,
      '---',
      '## SUMMARY',
      summary,
      '',
    ]
      .filter((l): l is string => l !== null)
      .join('\n');
  return { label: `${v.seriesId} ${v.range} (no observations)`, asOf: v.asOf, source, formatFull: full, formatSummary: () => summary };
}

export function searchResult(text: string, series: FredSeries[], count: number, asOf: string, fetchedAt: string): ProviderResult {
  const label = `search "${text.slice(0, 40)}" ${series.length} series`;
  const summary = [
    `FRED search "${text.slice(0, 60)}": ${count} matches; top ${Math.min(series.length, 5)}:`,
    ...series
      .slice(0, 5)
      .map((s) => `${s.id} (${cell(s.title).slice(0, 60)}; ${[s.frequency_short, s.units_short, s.seasonal_adjustment_short].filter(Boolean).join(', ')}).`),
  ].join(' ');
  const full = () =>
    [
      `# ctx — economic: FRED search "${cell(text)}"`,
      'source: FRED series/search',
      `as_of: ${asOf}`,
      `matches: ${count} (showing ${series.length})`,
      `fetched_at: ${fetchedAt}`,
      '---',
      '## SUMMARY',
      summary,
      '',
      '## SERIES',
      '| id | title | frequency | units | seasonal adj. | observations | last updated | popularity |',
      '|---|---|---|---|---|---|---|---|',
      ...series.map(
        (s) =>
          `| ${s.id} | ${cell(s.title)} | ${cell(s.frequency_short ?? s.frequency)} | ${cell(s.units_short ?? s.units)} | ${cell(s.seasonal_adjustment_short)} | ${s.observation_start ?? ''}..${s.observation_end ?? ''} | ${cell(s.last_updated)} | ${s.popularity ?? ''} |`,
      ),
      '',
    ].join('\n');
  return { label, asOf, source: 'FRED series/search', formatFull: full, formatSummary: () => summary };
}
