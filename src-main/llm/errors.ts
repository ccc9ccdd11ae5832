import { AppError } from '../common/errors';
import type { ErrorCode } from '../api/envelope';

/** What went wrong with a model call, finer than the envelope code; the UI can pick words by it. */
export type ModelErrorKind =
  | 'missing_key'
  | 'auth'
  | 'bad_request'
  | 'not_found'
  | 'too_large'
  | 'rate_limited'
  | 'overloaded'
  | 'server_error'
  | 'timeout'
  | 'connection'
  | 'stream_interrupted'
  | 'cancelled';

const codeOf: Record<ModelErrorKind, ErrorCode> = {
  // Its own code: as `unauthorized` the page would ask the PM to reopen its access link (#29).
  missing_key: 'missing_key',
  // A key Anthropic refused is the PM's key to fix in Settings, not the page's access link either.
  auth: 'missing_key',
  bad_request: 'invalid_input',
  not_found: 'not_found',
  too_large: 'too_large',
  rate_limited: 'unavailable',
  overloaded: 'unavailable',
  server_error: 'unavailable',
  timeout: 'unavailable',
  connection: 'unavailable',
  stream_interrupted: 'unavailable',
  cancelled: 'cancelled',
};

const retryableKinds = new Set<ModelErrorKind>(['rate_limited', 'overloaded', 'server_error', 'timeout', 'connection', 'stream_interrupted']);

/**
 * A model call that failed. Carries the provider's request id so the PM can quote it to support,
 * whether trying again later may help, and how many attempts were really made (the message says
 * so only when there was more than one, so it never claims retries that did not happen).
 */
export class ModelError extends AppError {
  readonly kind: ModelErrorKind;
  readonly status?: number;
  readonly requestId?: string;
  readonly retryable: boolean;
  /** The message without the attempt count and request id. */
  readonly reason: string;
  /** Attempts made before giving up (1 = not retried). */
  readonly attempts: number;
  /** How long the server asked us to wait before trying again (retry-after), when it said. */
  readonly retryAfterMs?: number;

  constructor(kind: ModelErrorKind, message: string, options: ModelErrorOptions = {}) {
    const attempts = options.attempts ?? 1;
    const tried = attempts > 1 ? ` Forge tried ${attempts} times.` : '';
    const suffix = options.requestId ? ` (request id ${options.requestId})` : '';
    super(codeOf[kind], message + tried + suffix, { cause: options.cause });
    this.name = 'ModelError';
    this.kind = kind;
    this.reason = message;
    this.attempts = attempts;
    this.retryable = retryableKinds.has(kind);
    if (options.status !== undefined) this.status = options.status;
    if (options.requestId) this.requestId = options.requestId;
    if (options.retryAfterMs !== undefined) this.retryAfterMs = options.retryAfterMs;
  }

  /** The same failure, stamped with the number of attempts that were made. */
  afterAttempts(attempts: number): ModelError {
    if (attempts === this.attempts) return this;
    return new ModelError(this.kind, this.reason, {
      status: this.status,
      requestId: this.requestId,
      cause: this.cause,
      retryAfterMs: this.retryAfterMs,
      attempts,
    });
  }
}

export interface ModelErrorOptions {
  status?: number;
  requestId?: string;
  cause?: unknown;
  retryAfterMs?: number;
  attempts?: number;
}

export function missingApiKeyError(who = 'the analyst'): ModelError {
  return new ModelError(
    'missing_key',
    `No Anthropic API key is set, so ${who} cannot reach Claude. Add your key in Settings → API keys, ` +
      'or set the ANTHROPIC_API_KEY environment variable and restart Forge. The offline demo works without a key.',
  );
}

/**
 * A ScriptedModel's conversation went somewhere its scenario did not foresee. Loud on purpose: a
 * demo or test that silently carried on would prove nothing.
 */
export class ScriptDivergedError extends AppError {
  readonly scenario: string;
  /** 1-based turn of the script where the mismatch was found. */
  readonly turn: number;
  readonly mismatch: string;

  constructor(scenario: string, turn: number, mismatch: string) {
    super('conflict', `Scripted scenario "${scenario}" diverged at turn ${turn}: ${mismatch}`);
    this.name = 'ScriptDivergedError';
    this.scenario = scenario;
    this.turn = turn;
    this.mismatch = mismatch;
  }
}
