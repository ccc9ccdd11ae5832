/**
 * A procedure's answer as tests read it (the API envelope), with the two ways they look at it: the
 * value of an answer that must have succeeded, and the error code (or 'ok') of one that may not.
 */
export type Result<T> = { ok: true; value: T } | { ok: false; error: { code: string; message: string } };

/** The value; a refusal fails the test with its code and message. */
export function ok<T>(r: Result<T>): T {
  if (!r.ok) throw new Error(`${r.error.code}: ${r.error.message}`);
  return r.value;
}

/** 'ok', or the refusal's code. */
export const code = (r: Result<unknown>) => (r.ok ? 'ok' : r.error.code);
