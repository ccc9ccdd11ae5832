import type { DataProvider, FetchContext, ProviderHealth, ProviderResult } from '../provider';
import { ProviderError } from '../provider';
import { FredClient, type FredClientOptions, fredTtl, observationsResponse, seriesResponse } from './fred';
import { emptyObservationsResult, isValue, observationsResult, searchResult } from './format';
import { FredGraphClient } from './fredgraph';
import { type EconomicParams, economicParams } from './params';

const DEFAULT_OBSERVATIONS = 500;
const DEFAULT_SEARCH = 10;
const NO_KEY = "no FRED key: any series by id from FRED's graph CSV (current values)";
const NO_KEY_SOURCE = 'fredgraph CSV, no key';

/**
 * `economic`: FRED series — search, observations with transforms and frequency aggregation, and
 * ALFRED vintages. In a session as of a past date every request is a vintage request as of that
 * date (realtime_end ≤ asOf, observation_end ≤ asOf): the analyst sees the numbers as they were
 * known then, revisions included, never later ones.
 */
export class EconomicProvider implements DataProvider<typeof economicParams> {
  readonly name = 'economic';
  /** Read on every listing: without a key the analyst is told what works, so no call is spent finding out. */
  get description(): string {
    return this.client.configured() ? 'FRED search, observations, vintages' : 'FRED series by id (no key: search and vintages need one)';
  }
  readonly params = economicParams;
  readonly secret = 'fredApiKey';
  private readonly client: FredClient;
  /** Without a key, observations come from FRED's graph CSV (current values; no search or vintages). */
  private readonly graph: FredGraphClient;

  constructor(options: FredClientOptions) {
    this.client = new FredClient(options);
    this.graph = new FredGraphClient(options);
  }

  health(): ProviderHealth {
    if (!this.client.configured())
      return {
        state: 'ok',
        detail: `${NO_KEY}; search, vintages and transforms need a FRED API key (Settings → API keys, free at fred.stlouisfed.org, or FRED_API_KEY).`,
      };
    return { state: 'ok' };
  }

  async fetch(p: EconomicParams, ctx: FetchContext = {}): Promise<ProviderResult> {
    const now = (ctx.now ?? (() => new Date()))();
    const today = now.toISOString().slice(0, 10);
    const asOf = ctx.asOf;
    if (!this.client.configured()) return this.fromGraph(p, asOf, now, ctx.signal);
    if (p.search) return this.search(p.search, p.limit ?? DEFAULT_SEARCH, asOf, now, ctx.signal);

    const seriesId = p.series_id!.toUpperCase();
    // The real-time window: the session's as-of date caps it; without one, only what was asked.
    for (const d of [...(p.vintage_dates ?? []), p.realtime_start].filter((x): x is string => !!x)) {
      if (asOf && d > asOf) throw new ProviderError(`Vintage ${d} is after ${asOf}: data after ${asOf} is not used in a session as of ${asOf}.`, 'as_of');
    }
    let realtime: { start: string; end: string } | { vintages: string[] } | undefined;
    if (p.vintage_dates) realtime = { vintages: [...new Set(p.vintage_dates)].sort() };
    else if (p.realtime_start || p.realtime_end || asOf) {
      const end = minDay(p.realtime_end ?? asOf ?? today, asOf);
      realtime = { start: p.realtime_start ?? end, end };
    }
    const observationEnd = asOf ? minDay(p.end ?? asOf, asOf) : p.end;
    if (p.start && observationEnd && p.start > observationEnd) {
      throw new ProviderError(`start ${p.start} is after ${observationEnd}${asOf ? ` (the session is as of ${asOf})` : ''}.`, asOf ? 'as_of' : 'bad_params');
    }
    const vintageEnd = !realtime ? null : 'end' in realtime ? realtime.end : realtime.vintages[realtime.vintages.length - 1]!;
    const ttl = fredTtl(vintageEnd !== null && vintageEnd < today);
    const rt = realtime && 'end' in realtime ? { realtime_start: realtime.start, realtime_end: realtime.end } : {};
    const units = p.units ?? 'lin';

    const info = await this.client.get(
      'series',
      { series_id: seriesId, ...(asOf ? { realtime_start: minDay(vintageEnd ?? asOf, asOf), realtime_end: minDay(vintageEnd ?? asOf, asOf) } : {}) },
      seriesResponse,
      ttl,
      `series ${seriesId}`,
      ctx.signal,
    );
    const res = await this.client.get(
      'series/observations',
      {
        series_id: seriesId,
        observation_start: p.start,
        observation_end: observationEnd,
        units,
        frequency: p.frequency,
        aggregation_method: p.aggregation_method,
        ...rt,
        vintage_dates: realtime && 'vintages' in realtime ? realtime.vintages.join(',') : undefined,
        sort_order: 'desc',
        limit: String(p.limit ?? DEFAULT_OBSERVATIONS),
      },
      observationsResponse,
      ttl,
      `observations of ${seriesId}`,
      ctx.signal,
    );
    const sorted = [...res.observations].sort((a, b) =>
      a.date === b.date ? (a.realtime_start ?? '').localeCompare(b.realtime_start ?? '') : a.date < b.date ? -1 : 1,
    );
    // The session's as-of date is enforced here, not trusted to FRED (or to whatever server Settings
    // points at): a row dated after it would leak the future into the analysis, so it is cut and counted.
    const observations = asOf ? sorted.filter((o) => o.date <= asOf) : sorted;
    const removedAfterAsOf = asOf && sorted.length > observations.length ? { count: sorted.length - observations.length, asOf } : undefined;
    const series = info.seriess[info.seriess.length - 1] ?? null;
    // Not found is for a series that does not exist; an existing one with no rows in range is an answer.
    const fallbackAsOf = vintageEnd ?? asOf ?? today;
    if (!observations.length) {
      return emptyObservationsResult({
        series,
        seriesId,
        units,
        range: `${p.start ?? '…'}..${observationEnd ?? '…'}`,
        vintageEnd,
        removedAfterAsOf,
        asOf: fallbackAsOf,
        fetchedAt: now.toISOString(),
      });
    }
    // A missing value ('.') says nothing about when the data ends: the as-of is the last real number.
    const lastReal = observations.findLast((o) => isValue(o.value))?.date;
    return observationsResult({
      series,
      seriesId,
      units,
      frequency: p.frequency,
      aggregation: p.aggregation_method,
      realtime,
      observations,
      count: Math.max((res.count ?? sorted.length) - (removedAfterAsOf?.count ?? 0), observations.length),
      removedAfterAsOf,
      // A vintage is as of its real-time date; plain observations are as of the latest one with a value.
      asOf: vintageEnd ?? lastReal ?? fallbackAsOf,
      fetchedAt: now.toISOString(),
    });
  }

  /**
   * No key: FRED's graph CSV. It has today's values only, so search, vintages and transforms are
   * refused with what to do; in a past-dated session the rows after the as-of date are cut here and
   * the result says the values are today's (revisions included), not as first published.
   */
  private async fromGraph(p: EconomicParams, asOf: string | undefined, now: Date, signal?: AbortSignal): Promise<ProviderResult> {
    const needsKey = p.search
      ? 'a FRED search'
      : p.vintage_dates || p.realtime_start || p.realtime_end
        ? 'a vintage (ALFRED) request'
        : (p.units && p.units !== 'lin') || p.frequency
          ? 'a transform or frequency change'
          : null;
    if (needsKey)
      throw new ProviderError(
        `${needsKey[0]!.toUpperCase()}${needsKey.slice(1)} needs a FRED API key: add one in Settings → API keys (free at fred.stlouisfed.org) or set FRED_API_KEY. Without a key, ask for the plain series (series_id, start, end, limit).`,
        'not_configured',
      );
    const seriesId = p.series_id!.toUpperCase();
    const today = now.toISOString().slice(0, 10);
    const end = asOf ? minDay(p.end ?? asOf, asOf) : p.end;
    if (p.start && end && p.start > end) {
      throw new ProviderError(`start ${p.start} is after ${end}${asOf ? ` (the session is as of ${asOf})` : ''}.`, asOf ? 'as_of' : 'bad_params');
    }
    const all = await this.graph.observations(seriesId, { start: p.start, end }, fredTtl(false), signal);
    // Enforced here, not trusted to the server: a row after the as-of date would leak the future.
    const inRange = all.filter((o) => (!p.start || o.date >= p.start) && (!end || o.date <= end));
    const cut = asOf ? all.filter((o) => o.date > asOf).length : 0;
    const removedAfterAsOf = cut ? { count: cut, asOf: asOf! } : undefined;
    const limit = p.limit ?? DEFAULT_OBSERVATIONS;
    const observations = inRange.slice(-limit);
    const via = NO_KEY_SOURCE;
    if (!observations.length) {
      return emptyObservationsResult({
        series: null,
        seriesId,
        units: 'lin',
        range: `${p.start ?? '…'}..${end ?? '…'}`,
        vintageEnd: null,
        removedAfterAsOf,
        asOf: asOf ?? today,
        fetchedAt: now.toISOString(),
        via,
      });
    }
    const lastReal = observations.findLast((o) => isValue(o.value))?.date;
    return observationsResult({
      series: null,
      seriesId,
      units: 'lin',
      observations,
      count: inRange.length,
      removedAfterAsOf,
      asOf: lastReal ?? asOf ?? today,
      fetchedAt: now.toISOString(),
      via,
      notes: asOf ? [`Values as FRED shows them today (later revisions included), not as known on ${asOf}: a FRED API key gets that vintage.`] : [],
    });
  }

  private async search(text: string, limit: number, asOf: string | undefined, now: Date, signal?: AbortSignal): Promise<ProviderResult> {
    const res = await this.client.get(
      'series/search',
      { search_text: text, limit: String(limit), order_by: 'search_rank', ...(asOf ? { realtime_start: asOf, realtime_end: asOf } : {}) },
      seriesResponse,
      fredTtl(false),
      `search "${text.slice(0, 60)}"`,
      signal,
    );
    if (!res.seriess.length) throw new ProviderError(`No FRED series match "${text.slice(0, 60)}"; try other words or a series id.`, 'not_found');
    return searchResult(text, res.seriess, res.count ?? res.seriess.length, asOf ?? now.toISOString().slice(0, 10), now.toISOString());
  }
}

function minDay(a: string, b: string | undefined): string {
  return b && b < a ? b : a;
}
