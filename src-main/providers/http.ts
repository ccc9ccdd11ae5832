import { retryWithBackoff } from '../common/retry';
import { retryAfterMs } from '../common/retry-after';
import { ProviderError } from './provider';

/**
 * The one HTTP client every data provider uses: GET only, a timeout covering the whole exchange,
 * a body size cap, the content type checked against what the caller expects, bounded retries
 * (429 honouring Retry-After, 5xx, connection resets), and secrets redacted from every message.
 * Every failure is a ProviderError whose kind the fetch tool shows; never a raw Error.
 */

export type HttpAccept = 'json' | 'xml' | 'html' | 'text' | 'pdf';

export interface HttpGetRequest {
  /** http(s) only. */
  url: string;
  headers?: Record<string, string>;
  /** Expected content: a wrong Content-Type is a ProviderError('bad_response'). */
  accept: HttpAccept;
  /** Whole exchange, body included, per attempt. Default 15_000. */
  timeoutMs?: number;
  /** Default 5 MiB; a larger body is a ProviderError('bad_response'). */
  maxBytes?: number;
  /** Default 2 (429 honouring Retry-After up to 30 s, 5xx, connection resets). */
  retries?: number;
  signal?: AbortSignal;
  /** Never put an API key in a log or an error message: these query params / headers are redacted. */
  secretParams?: string[];
  /** First back-off between retries of a 5xx or reset, doubled each time (default 500 ms). */
  retryBaseMs?: number;
  /** A Retry-After longer than this is not waited out: the call fails as rate_limited (default 30 s). */
  maxRetryAfterMs?: number;
  /**
   * Checks every redirect target BEFORE it is requested (throw to refuse): the web provider's guard
   * against a public page redirecting the fetch to a private address. Without it redirects are followed.
   */
  checkRedirect?: (target: URL) => Promise<void> | void;
}

const MAX_REDIRECTS = 5;

export interface HttpGetResponse {
  status: number;
  /** The final URL (after redirects), secrets redacted. */
  url: string;
  contentType: string;
  text: string;
  bytes: Buffer;
  /** The parsed body when `accept` is 'json' (malformed JSON is a ProviderError('bad_response')). */
  json?: unknown;
}

/** A failure with an HTTP status: the vendor's own error body (redacted, ≤ 2 KB) for providers to read. */
export class HttpStatusError extends ProviderError {
  constructor(
    message: string,
    kind: ProviderError['kind'],
    readonly status: number,
    readonly body: string,
  ) {
    super(message, kind);
    this.name = 'ProviderError';
  }
}

const DEFAULT_TIMEOUT_MS = 15_000;
const DEFAULT_MAX_BYTES = 5 * 1024 * 1024;
const RESET_CODES = new Set(['ECONNRESET', 'EPIPE', 'UND_ERR_SOCKET', 'UND_ERR_CLOSED', 'ECONNABORTED']);

const CONTENT_TYPES: Record<HttpAccept, (ct: string) => boolean> = {
  json: (ct) => ct === 'application/json' || ct === 'text/json' || ct.endsWith('+json'),
  xml: (ct) => ct === 'application/xml' || ct === 'text/xml' || ct.endsWith('+xml'),
  html: (ct) => ct === 'text/html' || ct === 'application/xhtml+xml',
  // CSV downloads name themselves many ways: Treasury's application/csv, SDMX's application/vnd.sdmx.data+csv.
  text: (ct) => ct.startsWith('text/') || ct === 'application/csv' || ct === 'application/x-csv' || ct.endsWith('+csv'),
  pdf: (ct) => ct === 'application/pdf' || ct === 'application/x-pdf',
};

/** Some servers send PDFs as octet-stream or omit the type: accept only when the bytes say so. */
function sniff(accept: HttpAccept, bytes: Buffer): boolean {
  const head = bytes.subarray(0, 512).toString('utf8').trimStart();
  if (accept === 'pdf') return head.startsWith('%PDF-');
  if (accept === 'json') return head.startsWith('{') || head.startsWith('[');
  if (accept === 'xml') return head.startsWith('<');
  if (accept === 'html') return /^<(!doctype html|html)/i.test(head);
  // CSV downloads (Stooq, FRED mirrors) often come as octet-stream: text when it holds no NUL byte and is not a page.
  if (accept === 'text') return !bytes.subarray(0, 4096).includes(0) && !/^<(!doctype html|html)/i.test(head);
  return false;
}

export async function httpGet(req: HttpGetRequest): Promise<HttpGetResponse> {
  const redact = redactor(req);
  let url: URL;
  try {
    url = new URL(req.url);
  } catch {
    throw new ProviderError(`Not a valid URL: ${redact(req.url).slice(0, 200)}`, 'bad_params');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new ProviderError(`Only http(s) URLs can be fetched (got ${url.protocol}).`, 'bad_params');
  const where = `${url.host}${redact(url.pathname)}`;
  // attemptOnce reports rather than throws, so how a failure is judged travels with it.
  let last: Attempt | undefined;
  return retryWithBackoff(
    async () => {
      last = await attemptOnce(req, url, where, redact);
      if (last.ok) return last.value;
      throw last.error;
    },
    {
      attempts: Math.max(0, req.retries ?? 2) + 1,
      baseDelayMs: req.retryBaseMs ?? 500,
      // A vendor asking for minutes fails the call as rate_limited rather than holding the fetch tool.
      retryAfter: { maxMs: req.maxRetryAfterMs ?? 30_000, beyond: 'fail' },
      classify: () => (last && !last.ok ? { retry: last.retryable, retryAfterMs: last.retryAfterMs } : { retry: false }),
      signal: req.signal,
      stopped: () => new ProviderError(`Stopped while waiting to retry ${where}.`, 'unavailable'),
    },
  );
}

type Attempt = { ok: true; value: HttpGetResponse } | { ok: false; error: ProviderError; retryable: boolean; retryAfterMs?: number };

async function attemptOnce(req: HttpGetRequest, url: URL, where: string, redact: (s: string) => string): Promise<Attempt> {
  if (req.signal?.aborted) return { ok: false, error: new ProviderError(`Stopped before fetching ${where}.`, 'unavailable'), retryable: false };
  const timeoutMs = req.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const maxBytes = req.maxBytes ?? DEFAULT_MAX_BYTES;
  const timer = new AbortController();
  const t = setTimeout(() => timer.abort(), timeoutMs);
  const signal = req.signal ? AbortSignal.any([req.signal, timer.signal]) : timer.signal;
  const aborted = (): ProviderError =>
    timer.signal.aborted
      ? new ProviderError(`${where} did not answer within ${Math.round(timeoutMs / 100) / 10} s.`, 'unavailable')
      : new ProviderError(`Stopped while fetching ${where}.`, 'unavailable');
  try {
    let res: Response;
    try {
      res = await fetchFollowing(url, req, signal);
    } catch (e) {
      if (e instanceof ProviderError) return { ok: false, error: e, retryable: false };
      if (signal.aborted) return { ok: false, error: aborted(), retryable: false };
      const code = errorCode(e);
      const reset = code !== undefined && RESET_CODES.has(code);
      return { ok: false, error: new ProviderError(`Could not reach ${where} (${code ?? 'network error'}).`, 'unavailable'), retryable: reset };
    }

    let bytes: Buffer;
    try {
      const declared = Number(res.headers.get('content-length') ?? Number.NaN);
      if (Number.isFinite(declared) && declared > maxBytes) {
        await res.body?.cancel().catch(() => undefined);
        return { ok: false, error: tooBig(where, maxBytes), retryable: false };
      }
      const read = await readCapped(res, maxBytes);
      if (read === 'too_big') return { ok: false, error: tooBig(where, maxBytes), retryable: false };
      bytes = read;
    } catch (e) {
      if (signal.aborted) return { ok: false, error: aborted(), retryable: false };
      const code = errorCode(e);
      return {
        ok: false,
        error: new ProviderError(`The connection to ${where} broke while reading (${code ?? 'network error'}).`, 'unavailable'),
        retryable: true,
      };
    }

    const status = res.status;
    if (status < 200 || status > 299) {
      const body = redact(bytes.subarray(0, 2048).toString('utf8'));
      if (status === 429) {
        const after = retryAfterMs(res.headers);
        const msg = `${where} is rate limiting requests (HTTP 429${after !== undefined ? `, retry after ${Math.ceil(after / 1000)} s` : ''}).`;
        return { ok: false, error: new HttpStatusError(msg, 'rate_limited', status, body), retryable: true, retryAfterMs: after };
      }
      const [kind, what] = statusKind(status);
      const error = new HttpStatusError(`${where} answered HTTP ${status} (${what}).`, kind, status, body);
      return { ok: false, error, retryable: status >= 500 };
    }

    const contentType = (res.headers.get('content-type') ?? '').split(';')[0]!.trim().toLowerCase();
    const typeOk = CONTENT_TYPES[req.accept](contentType);
    if (!typeOk && !((contentType === '' || contentType === 'application/octet-stream') && sniff(req.accept, bytes))) {
      return {
        ok: false,
        error: new ProviderError(`${where} sent ${contentType || 'no content type'} where ${req.accept} was expected.`, 'bad_response'),
        retryable: false,
      };
    }
    const text = req.accept === 'pdf' ? '' : bytes.toString('utf8');
    const value: HttpGetResponse = { status, url: redact(res.url || url.href), contentType, text, bytes };
    if (req.accept === 'json') {
      try {
        value.json = JSON.parse(text);
      } catch {
        return { ok: false, error: new ProviderError(`${where} sent malformed JSON (${bytes.length} bytes).`, 'bad_response'), retryable: false };
      }
    }
    return { ok: true, value };
  } finally {
    clearTimeout(t);
  }
}

async function readCapped(res: Response, maxBytes: number): Promise<Buffer | 'too_big'> {
  if (!res.body) return Buffer.alloc(0);
  const chunks: Buffer[] = [];
  let total = 0;
  const reader = res.body.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    total += value.byteLength;
    if (total > maxBytes) {
      await reader.cancel().catch(() => undefined);
      return 'too_big';
    }
    chunks.push(Buffer.from(value));
  }
  return Buffer.concat(chunks);
}

const tooBig = (where: string, maxBytes: number) =>
  new ProviderError(`${where} sent more than ${Math.round((maxBytes / 1024 / 1024) * 10) / 10} MiB; narrow the request.`, 'bad_response');

function statusKind(status: number): [ProviderError['kind'], string] {
  if (status === 400 || status === 422) return ['bad_params', 'the request was refused'];
  if (status === 401 || status === 403) return ['not_configured', 'the credentials were refused'];
  if (status === 404 || status === 410) return ['not_found', 'not found'];
  if (status >= 500) return ['unavailable', 'server error'];
  return ['bad_response', 'unexpected status'];
}

/** The system error code (ECONNRESET, UND_ERR_SOCKET…) of a fetch failure, looked for down its cause chain. */
function errorCode(e: unknown): string | undefined {
  for (let cur: unknown = e, depth = 0; cur && depth < 4; depth++) {
    const code = (cur as { code?: unknown }).code;
    if (typeof code === 'string') return code;
    cur = (cur as { cause?: unknown }).cause;
  }
  return undefined;
}

/**
 * Replaces every secret (the named query params' and headers' values, wherever they appear) with
 * `***`, and the named params in any URL text.
 */
function redactor(req: HttpGetRequest): (s: string) => string {
  const names = new Set((req.secretParams ?? []).map((n) => n.toLowerCase()));
  if (!names.size) return (s) => s;
  const values: string[] = [];
  try {
    for (const [k, v] of new URL(req.url).searchParams) if (names.has(k.toLowerCase()) && v) values.push(v, encodeURIComponent(v));
  } catch {
    // an unparsable URL is reported without its query below
  }
  for (const [k, v] of Object.entries(req.headers ?? {})) if (names.has(k.toLowerCase()) && v) values.push(v);
  const unique = [...new Set(values)].filter((v) => v.length >= 3).sort((a, b) => b.length - a.length);
  return (s) => {
    let out = s;
    for (const v of unique) out = out.split(v).join('***');
    return out.replace(/([?&])([^=&#\s]+)=([^&#\s]*)/g, (m, sep: string, k: string) => (names.has(safeDecode(k).toLowerCase()) ? `${sep}${k}=***` : m));
  };
}

function safeDecode(s: string): string {
  try {
    return decodeURIComponent(s);
  } catch {
    return s;
  }
}

/** For logs and messages: the URL with its secret params masked. */
export function redactUrl(url: string, secretParams: string[]): string {
  return redactor({ url, accept: 'text', secretParams })(url);
}

/** GET with redirects followed here, each target checked first when the caller asks (checkRedirect). */
async function fetchFollowing(url: URL, req: HttpGetRequest, signal: AbortSignal): Promise<Response> {
  if (!req.checkRedirect) return fetch(url, { method: 'GET', headers: req.headers, signal, redirect: 'follow' });
  let current = url;
  for (let hop = 0; ; hop++) {
    const res = await fetch(current, { method: 'GET', headers: req.headers, signal, redirect: 'manual' });
    const location = res.status >= 300 && res.status < 400 ? res.headers.get('location') : null;
    if (!location) return res;
    await res.body?.cancel().catch(() => undefined);
    if (hop >= MAX_REDIRECTS) throw new ProviderError(`${current.host} redirected more than ${MAX_REDIRECTS} times.`, 'bad_response');
    const next = new URL(location, current);
    try {
      await req.checkRedirect(next);
    } catch (e) {
      throw new ProviderError(`${current.host} redirected to a place that cannot be read (${e instanceof Error ? e.message : String(e)}).`, 'bad_params');
    }
    current = next;
  }
}
