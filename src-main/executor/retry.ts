import { AppError } from '../common/errors';

// The retry policy and RetryingModel live in src-main/llm/retry.ts: the analyst's calls and the
// sub-agents' share one policy.

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
