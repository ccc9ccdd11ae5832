/**
 * How long a server asked us to wait before trying again — the one reading of it for data providers,
 * the model client and the HTTP embedders. `Retry-After` (RFC 9110 §10.2.3) is either whole seconds
 * ("120") or an HTTP date ("Fri, 31 Dec 1999 23:59:59 GMT"); Anthropic and OpenAI also send
 * `retry-after-ms`, which is more precise and wins. Fractional seconds are accepted (some servers send
 * "1.5"). Anything else — negative, empty, unparseable — is no answer, so the caller's own back-off
 * applies. How long is too long to wait is each caller's policy, not decided here.
 */
export function retryAfterMs(headers: { get(name: string): string | null } | null | undefined, now: number = Date.now()): number | undefined {
  if (!headers) return undefined;
  const ms = parseNumber(headers.get('retry-after-ms'));
  if (ms !== undefined) return ms;
  const raw = headers.get('retry-after')?.trim();
  if (!raw) return undefined;
  const secs = parseNumber(raw);
  if (secs !== undefined) return secs * 1000;
  // An HTTP date names a weekday and a month; Date.parse alone would also take "2" or "soon-ish 5".
  if (!/^[A-Za-z]{3},? /.test(raw)) return undefined;
  const at = Date.parse(raw);
  return Number.isNaN(at) ? undefined : Math.max(0, at - now);
}

function parseNumber(text: string | null | undefined): number | undefined {
  const t = text?.trim();
  if (!t || !/^\d+(\.\d+)?$/.test(t)) return undefined;
  return Number(t);
}
