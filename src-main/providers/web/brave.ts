import { z } from 'zod';
import { HttpStatusError, httpGet } from '../http';
import { ProviderError } from '../provider';
import { cap, inlineText } from './text';

/**
 * Brave Search API, web endpoint (`GET /res/v1/web/search?q=&count=`, key in the
 * `X-Subscription-Token` header). Only the fields the analyst reads are declared; Brave adds
 * fields freely, so unknown ones pass. `web` is absent when nothing was found.
 */
const braveResult = z.looseObject({
  title: z.string().default(''),
  url: z.string(),
  description: z.string().optional(),
  /** ISO-ish timestamp of the page, when Brave knows it. */
  page_age: z.string().optional(),
  /** Human text: "3 days ago", "November 12, 2026". */
  age: z.string().optional(),
  profile: z.looseObject({ name: z.string().optional() }).optional(),
  meta_url: z.looseObject({ hostname: z.string().optional() }).optional(),
  extra_snippets: z.array(z.string()).optional(),
});
const braveResponse = z.looseObject({
  type: z.literal('search'),
  query: z.looseObject({ original: z.string().optional(), altered: z.string().optional() }).optional(),
  web: z.looseObject({ results: z.array(z.unknown()).default([]) }).optional(),
});
const braveError = z.looseObject({
  type: z.literal('ErrorResponse'),
  error: z.looseObject({ code: z.string().optional(), detail: z.string().optional(), status: z.number().optional() }),
});

export interface WebSearchHit {
  title: string;
  url: string;
  site: string;
  snippet: string;
  /** As Brave states it (page_age, else age), or ''. */
  age: string;
}

export interface WebSearchAnswer {
  query: string;
  /** When Brave corrected the spelling: the query it actually ran. */
  altered?: string;
  hits: WebSearchHit[];
}

export interface BraveRequest {
  baseUrl: string;
  apiKey: string;
  query: string;
  count: number;
  timeoutMs?: number;
  retries?: number;
  retryBaseMs?: number;
  signal?: AbortSignal;
}

export const BRAVE_BASE_URL = 'https://api.search.brave.com';
const SNIPPET_MAX = 400;

export async function braveSearch(req: BraveRequest): Promise<{ body: string; answer: WebSearchAnswer }> {
  // Relative to the base, so a base with a path (a proxy, a test server) keeps it.
  const url = new URL('res/v1/web/search', req.baseUrl.endsWith('/') ? req.baseUrl : `${req.baseUrl}/`);
  url.searchParams.set('q', req.query);
  url.searchParams.set('count', String(req.count));
  let body: string;
  try {
    const res = await httpGet({
      url: url.href,
      headers: { Accept: 'application/json', 'X-Subscription-Token': req.apiKey },
      accept: 'json',
      secretParams: ['X-Subscription-Token'],
      timeoutMs: req.timeoutMs ?? 15_000,
      retries: req.retries ?? 1,
      retryBaseMs: req.retryBaseMs,
      maxBytes: 2 * 1024 * 1024,
      signal: req.signal,
    });
    body = res.text;
  } catch (e) {
    throw redact(braveFailure(e), req.apiKey);
  }
  return { body, answer: readBraveResponse(body, req.query) };
}

/** Parses a stored or fresh Brave response; a shape we do not recognise is a ProviderError('bad_response'). */
export function readBraveResponse(body: string, query: string): WebSearchAnswer {
  let json: unknown;
  try {
    json = JSON.parse(body);
  } catch {
    throw new ProviderError('Brave Search sent malformed JSON.', 'bad_response');
  }
  const parsed = braveResponse.safeParse(json);
  if (!parsed.success) throw new ProviderError(`Brave Search sent an answer in an unexpected shape (${describeShape(json)}).`, 'bad_response');
  const hits: WebSearchHit[] = [];
  for (const raw of parsed.data.web?.results ?? []) {
    const r = braveResult.safeParse(raw);
    // One odd result is skipped, not fatal: the rest are still worth reading.
    if (!r.success || !/^https?:\/\//i.test(r.data.url)) continue;
    const snippet = [r.data.description ?? '', ...(r.data.extra_snippets ?? []).slice(0, 2)].filter(Boolean).join(' … ');
    hits.push({
      title: inlineText(r.data.title, 200) || r.data.url,
      url: r.data.url,
      site: r.data.profile?.name || r.data.meta_url?.hostname || safeHost(r.data.url),
      snippet: inlineText(snippet, SNIPPET_MAX),
      age: cap((r.data.page_age ?? r.data.age ?? '').trim(), 40),
    });
  }
  const altered = parsed.data.query?.altered;
  return { query, ...(altered && altered !== query ? { altered } : {}), hits };
}

/** Brave's own error codes say more than the status: an invalid key comes back as 422, not 401. */
function braveFailure(e: unknown): ProviderError {
  if (!(e instanceof ProviderError))
    return new ProviderError(`Brave Search could not be reached (${e instanceof Error ? e.message : String(e)}).`, 'unavailable');
  if (!(e instanceof HttpStatusError)) return new ProviderError(`Brave Search: ${e.message}`, e.kind);
  let code = '';
  let detail = '';
  try {
    const err = braveError.safeParse(JSON.parse(e.body));
    if (err.success) {
      code = err.data.error.code ?? '';
      detail = err.data.error.detail ?? '';
    }
  } catch {
    // Not Brave's JSON error (a proxy's HTML page): the status alone must do.
  }
  const said = code || detail ? ` — ${[code, cap(detail, 200).replace(/\.$/, '')].filter(Boolean).join(': ')}` : '';
  if (/TOKEN|SUBSCRIPTION|UNAUTHORI[SZ]ED|AUTH/i.test(code) || e.status === 401 || e.status === 403) {
    return new ProviderError(
      `Brave Search refused the API key (HTTP ${e.status}${said}); check the Brave Search API key in Settings → API keys.`,
      'not_configured',
    );
  }
  const kind = /RATE_LIMIT|QUOTA/i.test(code) ? 'rate_limited' : e.kind;
  return new ProviderError(`Brave Search: ${e.message.replace(/\.$/, '')}${said}.`, kind);
}

/** Belt and braces: httpGet redacts the header, and this catches the key wherever else it might surface. */
export function redact(e: ProviderError, secret: string): ProviderError {
  if (!secret || secret.length < 3 || !e.message.includes(secret)) return e;
  return new ProviderError(e.message.split(secret).join('***'), e.kind);
}

function describeShape(json: unknown): string {
  if (json === null || typeof json !== 'object') return `a ${json === null ? 'null' : typeof json}`;
  if (Array.isArray(json)) return 'an array';
  const keys = Object.keys(json).slice(0, 6);
  return keys.length ? `fields ${keys.join(', ')}` : 'an empty object';
}

function safeHost(url: string): string {
  try {
    return new URL(url).hostname;
  } catch {
    return '';
  }
}
