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
  issues?: { path: (string | number)[]; message: string }[];
}

export type Envelope<T> = { ok: true; value: T } | { ok: false; error: ApiErrorBody };

export function ok<T>(value: T): Envelope<T> {
  return { ok: true, value };
}

export function fail(code: ErrorCode, message: string, issues?: ApiErrorBody['issues']): Envelope<never> {
  return issues ? { ok: false, error: { code, message, issues } } : { ok: false, error: { code, message } };
}
