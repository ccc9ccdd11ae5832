import { AppError } from '../common/errors';
import { ModelError } from '../llm/errors';
import type { Model, ModelCallRequest, ModelResult, ModelStreamEvent } from '../llm/types';

export interface RetryPolicy {
  /** Attempts in all, first one included (default 3). */
  attempts: number;
  /** First back-off; doubles each time, with ±20 % jitter (default 500 ms). */
  baseDelayMs: number;
}

export const DEFAULT_RETRY: RetryPolicy = { attempts: 3, baseDelayMs: 500 };

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

export interface TimedModelHooks {
  /** Called before a retry, with what failed, so the task's event trail records it. */
  onRetry?: (attempt: number, error: ModelError, delayMs: number) => void;
  /** Time spent inside model calls (ms), so executor overhead can be told apart from model time. */
  onModelTime?: (ms: number) => void;
}

/**
 * A Model that retries transient failures (rate limits, overload, 5xx, timeouts, broken streams)
 * with exponential back-off. Anything else, and the last transient failure, is thrown to the caller
 * who records it on the task. A retried stream tells its listener to discard what it showed.
 */
export class RetryingModel implements Model {
  readonly id: string;
  readonly isScripted: boolean;

  constructor(
    private readonly inner: Model,
    private readonly policy: RetryPolicy = DEFAULT_RETRY,
    private readonly hooks: TimedModelHooks = {},
  ) {
    this.id = inner.id;
    this.isScripted = inner.isScripted;
  }

  call(request: ModelCallRequest): Promise<ModelResult> {
    return this.withRetry(request, () => this.inner.call(request));
  }

  stream(request: ModelCallRequest, onEvent: (event: ModelStreamEvent) => void): Promise<ModelResult> {
    return this.withRetry(request, () => this.inner.stream(request, onEvent), (attempt, reason) =>
      onEvent({ type: 'restart', attempt, reason }),
    );
  }

  private async withRetry(
    request: ModelCallRequest,
    run: () => Promise<ModelResult>,
    onRestart?: (attempt: number, reason: string) => void,
  ): Promise<ModelResult> {
    for (let attempt = 1; ; attempt++) {
      const t0 = performance.now();
      try {
        return await run();
      } catch (e) {
        if (!(e instanceof ModelError) || !e.retryable || attempt >= this.policy.attempts || request.signal?.aborted) throw e;
        const delay = Math.round(this.policy.baseDelayMs * 2 ** (attempt - 1) * (0.8 + Math.random() * 0.4));
        this.hooks.onRetry?.(attempt, e, delay);
        onRestart?.(attempt + 1, e.message);
        await sleep(delay, request.signal);
      } finally {
        this.hooks.onModelTime?.(performance.now() - t0);
      }
    }
  }
}

/** Resolves with `p`, or rejects as soon as `signal` aborts. */
export function abortable<V>(p: Promise<V>, signal?: AbortSignal): Promise<V> {
  if (!signal) return p;
  if (signal.aborted) return Promise.reject(new AppError('cancelled', 'Stopped at your request.'));
  return new Promise<V>((resolve, reject) => {
    const onAbort = () => reject(new AppError('cancelled', 'Stopped at your request.'));
    signal.addEventListener('abort', onAbort, { once: true });
    p.then(
      (v) => {
        signal.removeEventListener('abort', onAbort);
        resolve(v);
      },
      (e) => {
        signal.removeEventListener('abort', onAbort);
        reject(e);
      },
    );
  });
}
