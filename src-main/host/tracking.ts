import type { TrackingRunView } from '../api/calibration';
import type { ForgeFS } from '../fs';
import type { GuardrailLimits } from '../guardrails';
import type { ProviderRegistry } from '../providers';
import { closeOnExit } from '../tools';
import { CounterfactualDetector, marketPortFromRegistry, OutcomeTracker, regenerateCalibrationFiles } from '../tracking';

/**
 * The mechanical half of the learning loop (hourly monitoring and "Check exits now"): active
 * Expressions against their exit rules, tracked Counterfactuals against the market, then the
 * calibration files regenerated. A triggered exit closes the Expression through the same write
 * path a PM's close takes — guardrails, `closed_at` stamp, archive, audit, the book's event — and
 * only if it is still live when the transaction runs.
 */
export function trackingRunner(deps: { fs: ForgeFS; providers: ProviderRegistry; limits: () => GuardrailLimits }) {
  const market = marketPortFromRegistry(deps.providers);
  // Built from the record under the write lock, and only while it still says what the exit was
  // worked out on: a PM close or edit meanwhile wins (tools/close-on-exit.ts).
  const closeExpression = closeOnExit(deps.fs, deps.limits);
  let running: Promise<TrackingRunView> | null = null;

  async function once(signal?: AbortSignal): Promise<TrackingRunView> {
    const now = new Date();
    const outcomes = await new OutcomeTracker({ fs: deps.fs, market, closeExpression }).runOnce({ now, signal });
    const cfs = await new CounterfactualDetector({ fs: deps.fs, market }).runOnce({ now, signal });
    const files = await regenerateCalibrationFiles(deps.fs);
    const closed = outcomes.closed.map((c) => ({
      id: c.id,
      reason: `${c.reason} on ${c.exitDate} at ${c.exitPrice} (${c.pnlBp >= 0 ? '+' : ''}${c.pnlBp} bp, ${c.outcome}), read from ${c.series}`,
    }));
    const summary = [
      `${outcomes.checked.length} live Expression${outcomes.checked.length === 1 ? '' : 's'} checked`,
      closed.length ? `${closed.length} closed (${closed.map((c) => c.id).join(', ')})` : 'none closed',
      outcomes.skipped.length ? `${outcomes.skipped.length} not checkable` : '',
      cfs.completed.length ? `${cfs.completed.length} counterfactual${cfs.completed.length === 1 ? '' : 's'} completed` : '',
      files.written.length ? `calibration updated (${files.written.length} file${files.written.length === 1 ? '' : 's'})` : '',
    ]
      .filter(Boolean)
      .join('; ');
    return {
      checked: outcomes.checked.length,
      closed,
      open: outcomes.open.map((o) => ({ id: o.id, series: `${o.series}, as of ${o.asOf}${o.note ? `; ${o.note}` : ''}` })),
      skipped: outcomes.skipped.map((s) => ({ id: s.id, reason: s.why })),
      counterfactualsCompleted: cfs.completed.map((c) => c.id),
      counterfactualsExpired: cfs.expired.map((c) => c.id),
      calibrationFilesWritten: files.written,
      summary: `${summary}.`,
    };
  }

  /** One run at a time: a second caller (Run now during the hourly run) shares the first. */
  return (signal?: AbortSignal): Promise<TrackingRunView> => {
    running ??= once(signal).finally(() => {
      running = null;
    });
    return running;
  };
}
