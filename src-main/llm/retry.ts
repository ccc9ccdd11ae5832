import { AppError } from '../common/errors';
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

/** A server's `retry-after` beyond this is not waited out; the policy's own back-off applies. */
const MAX_RETRY_AFTER_MS = 60_000;

/** What a caller hears before a failed attempt is tried again. */
export interface RetryNotice {
  /** The attempt that failed (1 = the first). */
  attempt: number;
  error: ModelError;
  delayMs: number;
}

/** Wait before the attempt after `attempt`: the server's retry-after when it gave one, else exponential back-off. */
export function backoffMs(policy: RetryPolicy, attempt: number, error?: ModelError): number {
  const asked = error?.retryAfterMs;
  if (asked !== undefined && asked >= 0 && asked <= MAX_RETRY_AFTER_MS) return asked;
  return Math.round(policy.baseDelayMs * 2 ** (attempt - 1) * (0.8 + Math.random() * 0.4));
}

/** Resolves after `ms`, or rejects at once when `signal` aborts (so cancel is never held up by a back-off). */
export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(new AppError('cancelled', 'Stopped at your request.'));
    const onAbort = () => {
      clearTimeout(timer);
      reject(new AppError('cancelled', 'Stopped at your request.'));
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

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

  private async withRetry(
    request: ModelCallRequest,
    run: () => Promise<ModelResult>,
    onRestart?: (attempt: number, reason: string) => void,
  ): Promise<ModelResult> {
    const attempts = Math.max(1, Math.floor(this.retryPolicy.attempts));
    for (let attempt = 1; ; attempt++) {
      try {
        return await run();
      } catch (e) {
        if (!(e instanceof ModelError) || e.kind === 'cancelled') throw e;
        if (!e.retryable || attempt >= attempts || request.signal?.aborted) throw e.afterAttempts(attempt);
        const delayMs = backoffMs(this.retryPolicy, attempt, e);
        request.onRetry?.({ attempt, error: e, delayMs });
        onRestart?.(attempt + 1, e.message);
        try {
          await sleep(delayMs, request.signal);
        } catch {
          throw new ModelError('cancelled', 'The request to Claude was stopped.', { requestId: e.requestId, attempts: attempt });
        }
      }
    }
  }
}

/** `model` itself when it already retries (AnthropicModel), else `model` wrapped to retry under `policy` — never both. */
export function withRetries(model: Model, policy: RetryPolicy = DEFAULT_RETRY): Model {
  return model.retryPolicy ? model : new RetryingModel(model, policy);
}
