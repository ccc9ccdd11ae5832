import type { ApiErrorBody, ErrorCode } from '../../src-main/api';

/**
 * A failed procedure call, rebuilt from the envelope. Envelopes cross IPC and HTTP as plain data,
 * so everything the UI needs (code, message, field issues) lives on this one class.
 */
export class ApiError extends Error {
  readonly code: ErrorCode;
  readonly issues: NonNullable<ApiErrorBody['issues']>;

  constructor(body: ApiErrorBody) {
    super(body.message);
    this.name = 'ApiError';
    this.code = body.code;
    this.issues = body.issues ?? [];
  }
}

export function isApiError(err: unknown): err is ApiError {
  return err instanceof ApiError;
}

/** Headline words per code, so a PM sees what kind of problem it is before the details. */
const headlines: Record<ErrorCode, string> = {
  invalid_input: 'Please check the input',
  not_found: 'Not found',
  conflict: 'Changed elsewhere',
  unauthorized: 'Access link needed',
  forbidden: 'Not allowed',
  unavailable: 'Not available right now',
  blocked: 'Blocked',
  guardrail_violation: 'Blocked by a risk limit',
  cancelled: 'Cancelled',
  too_large: 'Too large',
  internal: 'Something went wrong inside Forge',
};

export function errorHeadline(err: unknown): string {
  return isApiError(err) ? headlines[err.code] : 'Something went wrong';
}

/**
 * A message fit to show a PM: the server's own sentence for API errors, never a stack trace or
 * an engine message such as "Failed to fetch".
 */
export function readableMessage(err: unknown): string {
  if (isApiError(err)) {
    if (err.code === 'internal') return 'Forge hit an unexpected problem. Try again; if it keeps happening, restart Forge.';
    return err.message || headlines[err.code];
  }
  return 'Something unexpected happened in the window. Try again, or reload with Ctrl+R.';
}

/**
 * Field messages keyed by the dotted path below `root` (e.g. issues at
 * `["settings","searchWeights","semantic"]` with root `settings` → `searchWeights.semantic`).
 */
export function fieldErrors(err: unknown, root?: string): Record<string, string> {
  const out: Record<string, string> = {};
  if (!isApiError(err) || err.code !== 'invalid_input') return out;
  for (const issue of err.issues) {
    let path = issue.path.map(String);
    if (root !== undefined) {
      if (path[0] !== root) continue;
      path = path.slice(1);
    }
    const key = path.join('.');
    if (!(key in out)) out[key] = issue.message;
  }
  return out;
}
