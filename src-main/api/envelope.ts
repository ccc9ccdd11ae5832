/**
 * The result envelope every procedure returns, across every transport.
 * Structured clone (IPC) and JSON (HTTP) both drop prototypes, so callers check `ok` and
 * `error.code`, never `instanceof`.
 */
export const errorCodes = [
  'invalid_input',
  'not_found',
  'conflict',
  'unauthorized',
  /** No usable model API key (none set, or the provider refused it): the PM fixes it in Settings → API keys. Not `unauthorized`, which means the page's own access token was refused. */
  'missing_key',
  'forbidden',
  'unavailable',
  'blocked',
  /** A hard risk limit refused the write; the message names each rule, the value and the limit. */
  'guardrail_violation',
  'cancelled',
  'too_large',
  'internal',
] as const;
export type ErrorCode = (typeof errorCodes)[number];

export interface ApiErrorBody {
  code: ErrorCode;
  message: string;
  /** For invalid_input: where in the input each problem sits (zod issue paths). */
  issues?: ApiIssue[];
}

/**
 * One problem with the input. `code` and the limits are zod's own (when zod found it), so the
 * renderer can word it for a PM ("The filter can be at most 2,000 characters") without parsing
 * the developer message.
 */
export interface ApiIssue {
  path: (string | number)[];
  message: string;
  /** zod's issue code: too_big, too_small, invalid_type, invalid_format, invalid_value, … */
  code?: string;
  /** What was measured: string (characters), number, array (items), date, … */
  origin?: string;
  maximum?: number;
  minimum?: number;
  /** For invalid_type: the type the field needs (number, string, …). */
  expected?: string;
  /** For invalid_format: which format (date, datetime, url, email, regex, …). */
  format?: string;
  /** For invalid_value: the values allowed. */
  values?: string[];
}

export type Envelope<T> = { ok: true; value: T } | { ok: false; error: ApiErrorBody };

export function ok<T>(value: T): Envelope<T> {
  return { ok: true, value };
}

export function fail(code: ErrorCode, message: string, issues?: ApiErrorBody['issues']): Envelope<never> {
  return issues ? { ok: false, error: { code, message, issues } } : { ok: false, error: { code, message } };
}
