import { type ResponseCache, cacheKey } from '../cache';
import { CsvFormatError, readCsvTable } from '../csv-table';
import { HttpStatusError, httpGet } from '../http';
import { ProviderError } from '../provider';
import type { FredObservation } from './fred';

/**
 * FRED's graph download (`fred.stlouisfed.org/graph/fredgraph.csv?id=DGS10`): any FRED series,
 * current values, no API key. It is what lets the economic provider answer without a key. The
 * CSV is `observation_date,DGS10` (older downloads: `DATE,DGS10`) with FRED's `.` for a missing
 * value, read by the same CSV reader as the PM's own files so "." never turns the column into text.
 */

export const FREDGRAPH_URL = 'https://fred.stlouisfed.org/graph/fredgraph.csv';

export interface FredGraphOptions {
  /**
   * The FRED API root Settings points at (a mirror, a test server). When set, the graph CSV is
   * read from the same host at `/graph/fredgraph.csv`: one setting moves both.
   */
  baseUrl?: () => string | undefined;
  cache?: ResponseCache;
  timeoutMs?: number;
  retries?: number;
  retryBaseMs?: number;
  maxBytes?: number;
}

export function fredGraphUrl(baseUrl: string | undefined): string {
  if (!baseUrl) return FREDGRAPH_URL;
  return `${new URL(baseUrl).origin}/graph/fredgraph.csv`;
}

/** Reads one fredgraph CSV into FRED observations (value `.` when missing, as the JSON API writes it). */
export function parseFredGraphCsv(bytes: Uint8Array, seriesId: string): FredObservation[] {
  const head = Buffer.from(bytes.subarray(0, 200)).toString('utf8').trimStart();
  if (head.startsWith('<')) throw new ProviderError(`FRED sent a web page instead of the CSV of ${seriesId} (the series may not exist).`, 'bad_response');
  let table: ReturnType<typeof readCsvTable>;
  try {
    table = readCsvTable(bytes);
  } catch (e) {
    if (e instanceof CsvFormatError) throw new ProviderError(`FRED's CSV of ${seriesId} cannot be read: ${e.message}`, 'bad_response');
    throw e;
  }
  if (!table.dated || table.header.length < 2) throw new ProviderError(`FRED's CSV of ${seriesId} has no date and value columns.`, 'bad_response');
  // A download of several ids has one column each; the one asked for is named by its id.
  const col = Math.max(
    1,
    table.header.findIndex((h, i) => i > 0 && h.trim().toUpperCase() === seriesId),
  );
  if (table.kinds[col] !== 'number') {
    const bad = table.rows.find((r) => r[col] !== null)?.[col];
    throw new ProviderError(`FRED's CSV of ${seriesId} holds text where numbers belong ("${String(bad).slice(0, 40)}").`, 'bad_response');
  }
  return table.rows.map((r) => ({ date: r[0]!, value: r[col] ?? '.' }));
}

export class FredGraphClient {
  constructor(private readonly o: FredGraphOptions = {}) {}

  /** All observations of a series in [start, end] (either open), ascending, through the cache. */
  async observations(seriesId: string, range: { start?: string; end?: string }, ttlMs: number, signal?: AbortSignal): Promise<FredObservation[]> {
    const params = new URLSearchParams({ id: seriesId });
    if (range.start) params.set('cosd', range.start);
    if (range.end) params.set('coed', range.end);
    const url = `${fredGraphUrl(this.o.baseUrl?.() || undefined)}?${params}`;
    const load = async () => {
      let res: Awaited<ReturnType<typeof httpGet>>;
      try {
        res = await httpGet({
          url,
          accept: 'text',
          signal,
          timeoutMs: this.o.timeoutMs,
          retries: this.o.retries,
          retryBaseMs: this.o.retryBaseMs,
          maxBytes: this.o.maxBytes,
        });
      } catch (e) {
        if (e instanceof HttpStatusError && (e.status === 404 || e.status === 400))
          throw new ProviderError(`FRED has no series ${seriesId} (fredgraph answered HTTP ${e.status}).`, 'not_found');
        if (e instanceof ProviderError) throw new ProviderError(`FRED graph CSV of ${seriesId}: ${e.message}`, e.kind);
        throw e;
      }
      if (res.contentType === 'text/html')
        throw new ProviderError(`FRED sent a web page instead of the CSV of ${seriesId} (the series may not exist).`, 'bad_response');
      // Parsed before it is cached: a truncated or malformed body is a fault, never stored as data.
      parseFredGraphCsv(res.bytes, seriesId);
      return res.text;
    };
    const text = this.o.cache ? (await this.o.cache.through(cacheKey('economic:fredgraph', url), ttlMs, load)).value : await load();
    return parseFredGraphCsv(Buffer.from(text, 'utf8'), seriesId);
  }
}
