import type { ApiErrorBody, ErrorCode } from '../../src-main/api';
import { defaultLabels, type FieldLabels, plainIssue, plainIssues } from './plain-errors';

/**
 * A failed procedure call, rebuilt from the envelope. Envelopes cross IPC and HTTP as plain data,
 * so everything the UI needs (code, message, field issues) lives on this one class.
 */
export class ApiError extends Error {
  readonly code: ErrorCode;
  readonly issues: NonNullable<ApiErrorBody['issues']>;
  /** The core's own sentence, kept for logs when `message` was reworded for the PM. */
  readonly detail: string;

  constructor(body: ApiErrorBody) {
    // Every screen that prints `error.message` shows the plain-words version of zod's problems.
    super(plainMessage(body));
    this.name = 'ApiError';
    this.code = body.code;
    this.issues = body.issues ?? [];
    this.detail = body.message;
  }
}

/**
 * zod's problems (issues carrying a zod `code`) in plain words with the field's label; any other
 * message was written by the core for people (a query error naming its column) and is kept.
 */
function plainMessage(body: ApiErrorBody, labels: FieldLabels = defaultLabels): string {
  const issues = body.issues ?? [];
  if (body.code !== 'invalid_input' || !issues.some((i) => i.code)) return body.message;
  return `${plainIssues(issues, labels).slice(0, 5).join('. ')}.`;
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
  missing_key: 'API key needed',
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
export function readableMessage(err: unknown, labels: FieldLabels = defaultLabels): string {
  if (isApiError(err)) {
    if (err.code === 'internal') return 'Forge hit an unexpected problem. Try again; if it keeps happening, restart Forge.';
    // A screen with its own field names words zod's problems with them.
    if (labels !== defaultLabels) return plainMessage({ code: err.code, message: err.detail, issues: err.issues }, labels);
    return err.message || headlines[err.code];
  }
  return 'Something unexpected happened in the window. Try again, or reload with Ctrl+R.';
}

/**
 * Field messages keyed by the dotted path below `root` (e.g. issues at
 * `["settings","searchWeights","semantic"]` with root `settings` → `searchWeights.semantic`).
 */
export function fieldErrors(err: unknown, root?: string, labels: FieldLabels = defaultLabels): Record<string, string> {
  const out: Record<string, string> = {};
  if (!isApiError(err) || err.code !== 'invalid_input') return out;
  for (const issue of err.issues) {
    let path = issue.path.map(String);
    if (root !== undefined) {
      if (path[0] !== root) continue;
      path = path.slice(1);
    }
    const key = path.join('.');
    if (!(key in out)) out[key] = `${plainIssue(issue, labels)}.`;
  }
  return out;
}
