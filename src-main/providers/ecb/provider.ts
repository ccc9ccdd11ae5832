import { type ResponseCache, cacheKey } from '../cache';
import { cutAfterAsOf, datedTableResult, fmtNumber, lastValueDate } from '../dated-table';
import { HttpStatusError, httpGet } from '../http';
import type { DataProvider, FetchContext, ProviderHealth, ProviderResult } from '../provider';
import { ProviderError } from '../provider';
import { type EcbParams, type EcbSelection, ecbParams, resolveSeries } from './params';
import { byMaturity, periodBounds, type SdmxTable, parseSdmxCsv, seriesLabels, unitName } from './parse';

export const ECB_BASE_URL = 'https://data-api.ecb.europa.eu/service/data';

const HOUR = 3_600_000;
const DAY_MS = 24 * HOUR;
const DEFAULT_LIMIT = 250;

export interface EcbProviderOptions {
  /** The data endpoint root (`…/service/data`) unless Settings (or a test) points elsewhere. */
  baseUrl?: () => string | undefined;
  cache?: ResponseCache;
  now?: () => Date;
  timeoutMs?: number;
  retries?: number;
  retryBaseMs?: number;
  maxBytes?: number;
}

/**
 * `ecb`: series from the ECB Data Portal as SDMX-CSV, no key — euro area yield curves, €STR, HICP,
 * reference exchange rates by name, or any FLOW/KEY. The ECB is asked for periods up to the
 * session's as-of date, and any period ending after it is still cut here and counted.
 */
export class EcbProvider implements DataProvider<typeof ecbParams> {
  readonly name = 'ecb';
  readonly description = 'ECB Data Portal series: euro AAA curve, €STR, HICP, FX reference rates, any FLOW/KEY';
  readonly params = ecbParams;

  constructor(private readonly o: EcbProviderOptions = {}) {}

  health(): ProviderHealth {
    return { state: 'ok', detail: 'ECB Data Portal, no key needed' };
  }

  async fetch(p: EcbParams, ctx: FetchContext = {}): Promise<ProviderResult> {
    const now = (ctx.now ?? this.o.now ?? (() => new Date()))();
    const today = now.toISOString().slice(0, 10);
    const asOf = ctx.asOf;
    const sel = resolveSeries(p.series)!;
    const start = p.start ? periodBounds(p.start)! : null;
    const end = p.end ? periodBounds(p.end)! : null;
    if (start && asOf && start.start > asOf) throw new ProviderError(`start ${p.start} is after ${asOf} (the session is as of ${asOf}).`, 'as_of');
    // Ask only for what the session may see; the answer is still cut below.
    const endPeriod = asOf && (!end || end.end > asOf) ? asOf : p.end;
    const id = `${sel.flow}/${sel.key}`;
    const query = { format: 'csvdata', startPeriod: p.start, endPeriod };
    // A range that ended a month ago will not change; recent data may be revised or extended.
    const settled = endPeriod !== undefined && (periodBounds(endPeriod)?.end ?? today) < addDays(today, -30);

    let table: SdmxTable;
    let latestNote: string | null = null;
    try {
      table = await this.get(sel, query, settled ? DAY_MS : HOUR, ctx.signal);
    } catch (e) {
      // The ECB answers 404 both for a key that does not exist and for a range with no observations:
      // a second look (the series' last observation) tells them apart.
      if (!(e instanceof HttpStatusError && e.status === 404)) throw e;
      if (!p.start && !p.end && !asOf) throw notFound(id, e.body);
      const probe = await this.get(sel, { format: 'csvdata', lastNObservations: '1' }, HOUR, ctx.signal).catch((err: unknown) => {
        if (err instanceof HttpStatusError && err.status === 404) throw notFound(id, e.body);
        throw err;
      });
      table = { series: probe.series, rows: [] };
      const last = probe.rows[probe.rows.length - 1];
      if (last && (!asOf || last.date <= asOf))
        latestNote = `The latest observation is ${last.period} (${last.values.map((v) => (v === null ? '' : fmtNumber(v))).join(', ')}).`;
    }

    const inRange = table.rows.filter((r) => (!start || r.date >= start.start) && (!end || periodBounds(r.period)!.start <= end.end));
    // A period is known from its last day: March's HICP is not visible in a session as of 15 March.
    const { kept, removed } = cutAfterAsOf(inRange, asOf);
    const limit = p.limit ?? DEFAULT_LIMIT;
    const rows = kept.slice(-limit);
    const keys = table.series.map((s) => s.key);
    const columns = keys.length > 1 ? seriesLabels(keys) : [sel.alias ?? keys[0] ?? sel.key];
    const first = table.series[0];
    const title = `ECB ${sel.alias ?? id} — ${sel.title ?? first?.title ?? id}${sel.alias ? ` (${id})` : ''}`;
    const units = [...new Set(table.series.map((s) => unitName(s.unit)).filter(Boolean))];
    const lastDay = lastValueDate(rows);
    return datedTableResult(
      {
        provider: this.name,
        title,
        short: `ECB ${sel.alias ?? id}`,
        source: `ECB Data Portal ${id}`,
        columns,
        unit: units.length === 1 ? units[0] : undefined,
        rows,
        total: kept.length,
        removedAfterAsOf: removed ? { count: removed, asOf: asOf! } : undefined,
        range: `${p.start ?? '…'}..${p.end ?? (asOf ? asOf : '…')}`,
        // The last period with a value, by its last day (never after today or the session's date).
        asOf: minDay(lastDay ?? minDay(end?.end ?? today, asOf), today),
        fetchedAt: now.toISOString(),
        notes: [
          latestNote,
          // Dated by the period's last day; the release comes later (HICP's flash about a day after month end).
          asOf && rows.some((r) => r.period.length < 10) ? 'Periods are dated by their last day; their later release date is not modelled.' : null,
        ].filter((n): n is string => n !== null),
        meta: table.series.map((s, i) => `series ${columns[i]}: ${s.key}${s.title ? ` — ${s.title}` : ''}${s.unit ? ` [${unitName(s.unit)}]` : ''}`),
      },
      'obs',
    );
  }

  /** One request through the cache; only an answer that parses as SDMX-CSV is stored. */
  private async get(sel: EcbSelection, query: Record<string, string | undefined>, ttlMs: number, signal?: AbortSignal): Promise<SdmxTable> {
    const base = (this.o.baseUrl?.() || ECB_BASE_URL).replace(/\/+$/, '');
    const qs = new URLSearchParams();
    for (const [k, v] of Object.entries(query)) if (v) qs.set(k, v);
    const url = `${base}/${sel.flow}/${sel.key}?${qs}`;
    const id = `${sel.flow}/${sel.key}`;
    const load = async () => {
      const res = await httpGet({
        url,
        accept: 'text',
        signal,
        timeoutMs: this.o.timeoutMs,
        retries: this.o.retries,
        retryBaseMs: this.o.retryBaseMs,
        maxBytes: this.o.maxBytes,
      }).catch((e: unknown) => {
        if (e instanceof HttpStatusError) {
          if (e.status === 404) throw e; // the caller decides: unknown series or an empty range
          if (e.status === 400) throw new ProviderError(`The ECB refused ${id}: ${firstLine(e.body) || e.message}`, 'bad_params');
          throw new HttpStatusError(`ECB ${id}: ${e.message}`, e.kind, e.status, e.body);
        }
        throw e instanceof ProviderError ? new ProviderError(`ECB ${id}: ${e.message}`, e.kind) : e;
      });
      if (res.contentType === 'text/html') throw new ProviderError(`The ECB answered ${id} with a web page, not SDMX-CSV.`, 'bad_response');
      parseSdmxCsv(res.text, id); // checked before it can be cached
      return res.text;
    };
    const text = this.o.cache ? (await this.o.cache.through(cacheKey('ecb', url), ttlMs, load)).value : await load();
    return byMaturity(parseSdmxCsv(text, id));
  }
}

function notFound(id: string, body: string): ProviderError {
  const said = firstLine(body);
  return new ProviderError(`The ECB has no series ${id}${said ? ` (${said})` : ''}; check the flow and key on data.ecb.europa.eu.`, 'not_found');
}

const firstLine = (s: string) =>
  s
    .replace(/<[^>]*>/g, ' ')
    .trim()
    .split(/\r?\n/)[0]!
    .trim()
    .slice(0, 200);

function minDay(a: string, b: string | undefined): string {
  return b && b < a ? b : a;
}

function addDays(day: string, n: number): string {
  return new Date(Date.parse(`${day}T00:00:00Z`) + n * DAY_MS).toISOString().slice(0, 10);
}
