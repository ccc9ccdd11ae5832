/**
 * A worker thread for the analytics bench's two-thread figure: builds the same seeded cases, then on
 * each message { from, to } solves that slice with impliedVol and posts back its wall-clock span (as
 * absolute times, so the parent measures from the first start to the last end) and its failures.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { impliedVol } from '../src-main/providers/analytics';
import { ivCases, roundTrips } from './_iv-cases';

const cases = ivCases((workerData as { count: number }).count);
const solve = (q: Parameters<typeof impliedVol>[0]) => impliedVol(q);
// Warm up like the single-thread rounds do.
roundTrips(cases, solve);
parentPort!.postMessage({ ready: true });
parentPort!.on('message', (m: { from: number; to: number } | 'stop') => {
  if (m === 'stop') {
    parentPort!.close();
    return;
  }
  const start = performance.timeOrigin + performance.now();
  const r = roundTrips(cases, solve, m.from, m.to);
  parentPort!.postMessage({ start, end: start + r.ms, failures: r.failures });
});
