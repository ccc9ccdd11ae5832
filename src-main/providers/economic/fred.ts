import { z } from 'zod';
import { type ResponseCache, cacheKey } from '../cache';
import { HttpStatusError, httpGet } from '../http';
import { ProviderError } from '../provider';
import { fredXmlError } from './fred-xml';

/**
 * The FRED web API (https://fred.stlouisfed.org/docs/api/fred/): GET `<base>/<endpoint>` with
 * `api_key` and `file_type=json`. Successful answers are cached by request (without the key);
 * FRED's own error bodies (`{error_code, error_message}`) become ProviderErrors the analyst can read.
 */

export const FRED_BASE_URL = 'https://api.stlouisfed.org/fred';

const HOUR = 3_600_000;
const DAY_MS = 24 * HOUR;

export interface FredClientOptions {
  apiKey: () => string | undefined;
  /** `https://api.stlouisfed.org/fred` unless Settings (or a test) points elsewhere. */
  baseUrl?: () => string | undefined;
  cache?: ResponseCache;
  /** Timeouts and retries (tests shorten them). */
  timeoutMs?: number;
  retries?: number;
  retryBaseMs?: number;
  maxBytes?: number;
}

const observation = z.object({ date: z.string(), value: z.string(), realtime_start: z.string().optional(), realtime_end: z.string().optional() });
export const observationsResponse = z.object({
  realtime_start: z.string().optional(),
  realtime_end: z.string().optional(),
  count: z.number().optional(),
  observations: z.array(observation),
});
export type FredObservation = z.infer<typeof observation>;
export type FredObservations = z.infer<typeof observationsResponse>;

const seriesInfo = z.object({
  id: z.string(),
  title: z.string(),
  frequency: z.string().optional(),
  frequency_short: z.string().optional(),
  units: z.string().optional(),
  units_short: z.string().optional(),
  seasonal_adjustment_short: z.string().optional(),
  observation_start: z.string().optional(),
  observation_end: z.string().optional(),
  last_updated: z.string().optional(),
  popularity: z.number().optional(),
  realtime_end: z.string().optional(),
});
export const seriesResponse = z.object({ realtime_end: z.string().optional(), count: z.number().optional(), seriess: z.array(seriesInfo) });
export type FredSeries = z.infer<typeof seriesInfo>;
export type FredSeriesList = z.infer<typeof seriesResponse>;

export class FredClient {
  constructor(private readonly o: FredClientOptions) {}

  configured(): boolean {
    return !!this.o.apiKey()?.trim();
  }

  /**
   * GET one endpoint, through the cache. `ttlMs` is how long a success is kept; a failure is never
   * stored. `what` names the request in messages (e.g. `series RSAFS`).
   */
  async get<T>(
    endpoint: string,
    query: Record<string, string | undefined>,
    schema: z.ZodType<T>,
    ttlMs: number,
    what: string,
    signal?: AbortSignal,
  ): Promise<T> {
    const key = this.o.apiKey()?.trim();
    if (!key) throw new ProviderError('No FRED API key: add one in Settings → API keys (free at fred.stlouisfed.org) or set FRED_API_KEY.', 'not_configured');
    const base = (this.o.baseUrl?.() || FRED_BASE_URL).replace(/\/+$/, '');
    const params = new URLSearchParams();
    for (const [k, v] of Object.entries(query)) if (v !== undefined && v !== '') params.set(k, v);
    params.set('file_type', 'json');
    const publicUrl = `${base}/${endpoint}?${params}`;
    const load = async () => {
      try {
        const res = await httpGet({
          url: `${publicUrl}&api_key=${encodeURIComponent(key)}`,
          accept: 'json',
          secretParams: ['api_key'],
          signal,
          timeoutMs: this.o.timeoutMs,
          retries: this.o.retries,
          retryBaseMs: this.o.retryBaseMs,
          maxBytes: this.o.maxBytes,
        });
        // Checked before it can be cached: a 200 with the wrong shape is a fault, not data.
        const shaped = schema.safeParse(res.json);
        if (!shaped.success)
          throw new ProviderError(`FRED answered ${what} in an unexpected shape (${shaped.error.issues[0]?.path.join('.') || 'body'}).`, 'bad_response');
        return res.text;
      } catch (e) {
        throw fredError(e, what);
      }
    };
    const text = this.o.cache ? (await this.o.cache.through(cacheKey('economic', publicUrl), ttlMs, load)).value : await load();
    return schema.parse(JSON.parse(text));
  }
}

/** How long a FRED answer is kept: a day when it describes a past vintage (it cannot change), else an hour. */
export function fredTtl(pastVintage: boolean): number {
  return pastVintage ? DAY_MS : HOUR;
}

/** FRED's error bodies, in the analyst's words: unknown series, refused key, bad request. */
function fredError(e: unknown, what: string): ProviderError {
  if (!(e instanceof ProviderError)) return new ProviderError(`FRED ${what}: ${(e as Error)?.message ?? String(e)}`, 'unavailable');
  if (!(e instanceof HttpStatusError)) return e;
  let fredMessage = '';
  try {
    const body = JSON.parse(e.body) as { error_message?: unknown };
    if (typeof body.error_message === 'string') fredMessage = body.error_message.replace(/\s+/g, ' ').trim().slice(0, 300);
  } catch {
    // not FRED's JSON error body: FRED answers some errors in XML (`<error code message/>`)
    fredMessage = fredXmlError(e.body)?.message.slice(0, 300) ?? '';
  }
  if (e.status === 400 && /does not exist/i.test(fredMessage)) return new ProviderError(`FRED has no ${what} (${fredMessage})`, 'not_found');
  if ((e.status === 400 || e.status === 401 || e.status === 403) && /api.?key/i.test(fredMessage)) {
    return new ProviderError(`FRED refused the API key (${fredMessage}). Check it in Settings → API keys.`, 'not_configured');
  }
  if (fredMessage && e.status === 429) return new ProviderError(`${e.message} FRED: ${fredMessage}`, e.kind);
  if (fredMessage) return new ProviderError(`FRED refused ${what}: ${fredMessage}`, e.kind);
  return new ProviderError(`FRED ${what}: ${e.message}`, e.kind);
}
