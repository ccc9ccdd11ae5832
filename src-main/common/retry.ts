import { AppError } from './errors';

/**
 * The one retry-with-backoff loop: data providers' HTTP client, the model client and the HTTP
 * embedders all run their attempts through `retryWithBackoff`. What stays with each caller is its
 * policy — what counts as transient, how many attempts, how long a server may ask us to wait, and the
 * error a user reads — so moving them here changed no message and no attempt count.
 * The server's own wait comes from `retryAfterMs` (./retry-after.ts); this file only decides what to
 * do with it.
 */

/** How one failure is judged: worth another attempt, and the wait the server asked for, if any. */
export interface RetryDecision {
  retry: boolean;
  /** The server's Retry-After (already read from its headers), in ms. */
  retryAfterMs?: number;
}

/** Told before each wait, so a caller can show "retrying in 2 s" or drop a half-shown answer. */
export interface RetryWait<E = unknown> {
  /** The attempt that failed (1 = the first). */
  attempt: number;
  error: E;
  delayMs: number;
}

export type Sleep = (ms: number, signal?: AbortSignal) => Promise<void>;

export interface RetryOptions {
  /** Attempts in all, the first included (at least 1). */
  attempts: number;
  /** Wait after the first failure; doubled after each further one. */
  baseDelayMs: number;
  /** The doubled back-off never exceeds this (default: no cap). */
  maxDelayMs?: number;
  /** Spread of the back-off, so many clients do not retry in step: 0.2 = ±20 % (default 0). */
  jitter?: number;
  /**
   * A server's Retry-After is honoured up to `maxMs`. Beyond it callers differ, and each keeps its
   * way: 'fail' gives up at once (a data fetch should not hang for minutes), 'backoff' ignores the
   * ask and uses the own back-off (the model client), 'cap' waits `maxMs` (the embedders).
   */
  retryAfter?: { maxMs: number; beyond: 'fail' | 'backoff' | 'cap' };
  /** What is retried. Anything thrown that this says not to retry is given up on at once. */
  classify(error: unknown): RetryDecision;
  /** Cancels the wait at once (never held up by a back-off); no further attempt starts. */
  signal?: AbortSignal;
  onRetry?(wait: RetryWait): void;
  /** The error thrown when giving up (not retryable, or the last attempt). Default: the failure itself. */
  giveUp?(error: unknown, attempts: number): unknown;
  /** The error thrown when `signal` stops a retry. Default: AppError('cancelled'). */
  stopped?(error: unknown, attempts: number): unknown;
  /** For tests: a sleep that returns at once, or records the waits. */
  sleep?: Sleep;
  /** For tests: the jitter's source (default Math.random). */
  random?: () => number;
}

/** Resolves after `ms`, or rejects at once when `signal` aborts (so cancel is never held up by a back-off). */
export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(stoppedError());
    const onAbort = () => {
      clearTimeout(timer);
      reject(stoppedError());
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

const stoppedError = () => new AppError('cancelled', 'Stopped at your request.');

/**
 * The wait before the attempt after `attempt` (1-based): the server's ask when it gave one within
 * the cap, else base × 2^(attempt−1), capped and jittered. 'fail' means: do not retry at all.
 */
export function retryDelayMs(
  options: Pick<RetryOptions, 'baseDelayMs' | 'maxDelayMs' | 'jitter' | 'retryAfter' | 'random'>,
  attempt: number,
  retryAfterMs?: number,
): number | 'fail' {
  if (retryAfterMs !== undefined && retryAfterMs >= 0) {
    const cap = options.retryAfter;
    if (!cap || retryAfterMs <= cap.maxMs) return retryAfterMs;
    if (cap.beyond === 'fail') return 'fail';
    if (cap.beyond === 'cap') return cap.maxMs;
  }
  const doubled = Math.min(options.baseDelayMs * 2 ** (attempt - 1), options.maxDelayMs ?? Number.POSITIVE_INFINITY);
  const jitter = options.jitter ?? 0;
  if (!jitter) return doubled;
  return Math.round(doubled * (1 - jitter + (options.random ?? Math.random)() * 2 * jitter));
}

/** Runs `run` until it succeeds, a failure is not worth retrying, the attempts run out or `signal` stops it. */
export async function retryWithBackoff<T>(run: (attempt: number) => Promise<T>, options: RetryOptions): Promise<T> {
  const attempts = Math.max(1, Math.floor(options.attempts));
  const giveUp = options.giveUp ?? ((e: unknown) => e);
  const stopped = options.stopped ?? (() => stoppedError());
  const wait = options.sleep ?? sleep;
  for (let attempt = 1; ; attempt++) {
    try {
      return await run(attempt);
    } catch (e) {
      const decision = options.classify(e);
      if (!decision.retry || attempt >= attempts) throw giveUp(e, attempt);
      const delayMs = retryDelayMs(options, attempt, decision.retryAfterMs);
      if (delayMs === 'fail') throw giveUp(e, attempt);
      if (options.signal?.aborted) throw stopped(e, attempt);
      options.onRetry?.({ attempt, error: e, delayMs });
      try {
        await wait(delayMs, options.signal);
      } catch {
        throw stopped(e, attempt);
      }
    }
  }
}
