import { type RetryWait, retryDelayMs, retryWithBackoff, sleep } from '../common/retry';
import { ModelError } from './errors';
import type { Model, ModelCallRequest, ModelResult, ModelStreamEvent } from './types';

/**
 * The one retry policy for model calls, shared by the analyst's own calls (AnthropicModel) and
 * the sub-agents' (TaskExecutor). Which failures are worth retrying is `ModelError.retryable`.
 */
export interface RetryPolicy {
  /** Attempts in all, first one included (default 3). */
  attempts: number;
  /** First back-off; doubles each time, with ±20 % jitter (default 500 ms). */
  baseDelayMs: number;
}

export const DEFAULT_RETRY: RetryPolicy = { attempts: 3, baseDelayMs: 500 };

/**
 * A server's `retry-after` beyond this is not waited out; the policy's own back-off applies (the
 * analyst would rather see "retrying" than a minute of silence).
 */
const MAX_RETRY_AFTER_MS = 60_000;

/** What a caller hears before a failed attempt is tried again. */
export type RetryNotice = RetryWait<ModelError>;

/** How the policy maps onto the one retry loop (common/retry.ts): ±20 % jitter, retry-after up to a minute. */
const loopOptions = (policy: RetryPolicy) =>
  ({ attempts: policy.attempts, baseDelayMs: policy.baseDelayMs, jitter: 0.2, retryAfter: { maxMs: MAX_RETRY_AFTER_MS, beyond: 'backoff' } }) as const;

/** Wait before the attempt after `attempt`: the server's retry-after when it gave one, else exponential back-off. */
export function backoffMs(policy: RetryPolicy, attempt: number, error?: ModelError): number {
  const ms = retryDelayMs(loopOptions(policy), attempt, error?.retryAfterMs);
  // 'fail' is never the answer under 'backoff'; the fallback keeps the type honest.
  return ms === 'fail' ? policy.baseDelayMs : ms;
}

export { sleep };

/**
 * A Model that retries transient failures (rate limits, overload — also when it arrives inside a
 * stream that had already started — 5xx, timeouts, broken streams) under a RetryPolicy. Anything
 * else, and the last transient failure, is thrown, stamped with how many attempts were really made.
 * A retried stream first sends `restart`, so a listener drops the text it showed from the failed
 * attempt instead of showing it twice.
 */
export class RetryingModel implements Model {
  readonly id: string;
  readonly isScripted: boolean;

  constructor(
    private readonly inner: Model,
    readonly retryPolicy: RetryPolicy = DEFAULT_RETRY,
  ) {
    this.id = inner.id;
    this.isScripted = inner.isScripted;
  }

  call(request: ModelCallRequest): Promise<ModelResult> {
    return this.withRetry(request, () => this.inner.call(request));
  }

  stream(request: ModelCallRequest, onEvent: (event: ModelStreamEvent) => void): Promise<ModelResult> {
    return this.withRetry(
      request,
      () => this.inner.stream(request, onEvent),
      (attempt, reason) => onEvent({ type: 'restart', attempt, reason }),
    );
  }

  private withRetry(request: ModelCallRequest, run: () => Promise<ModelResult>, onRestart?: (attempt: number, reason: string) => void): Promise<ModelResult> {
    return retryWithBackoff(run, {
      ...loopOptions(this.retryPolicy),
      // A cancel is never retried; anything that is not a ModelError is a bug to show, not to repeat.
      classify: (e) => ({
        retry: e instanceof ModelError && e.kind !== 'cancelled' && e.retryable,
        retryAfterMs: e instanceof ModelError ? e.retryAfterMs : undefined,
      }),
      signal: request.signal,
      onRetry: (wait) => {
        const error = wait.error as ModelError;
        request.onRetry?.({ ...wait, error });
        onRestart?.(wait.attempt + 1, error.message);
      },
      // Stamped with the attempts really made, so "failed after 3 attempts" is true.
      giveUp: (e, attempts) => (e instanceof ModelError && e.kind !== 'cancelled' ? e.afterAttempts(attempts) : e),
      stopped: (e, attempts) => new ModelError('cancelled', 'The request to Claude was stopped.', { requestId: (e as ModelError).requestId, attempts }),
    });
  }
}

/** `model` itself when it already retries (AnthropicModel), else `model` wrapped to retry under `policy` — never both. */
export function withRetries(model: Model, policy: RetryPolicy = DEFAULT_RETRY): Model {
  return model.retryPolicy ? model : new RetryingModel(model, policy);
}
