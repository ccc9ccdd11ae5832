import { afterEach, describe, expect, it } from 'vitest';
import { parseRecord } from '../fs';
import { daily, type TrackingWorld, trackingWorld } from './__tests__/harness';
import { CounterfactualDetector, counterfactualFromRejection, recordCounterfactual } from './counterfactuals';
import { statedForecast } from './stated';

let world: TrackingWorld;
afterEach(() => world?.dispose());

const pm = { actor: 'pm' as const };

// The 2y yield falls 1 bp a day from 3.600% on 01-01 (day i: 3.60 − 0.01 i), through 05-10.
const Y2 = daily(
  '2026-01-01',
  Array.from({ length: 130 }, (_, i) => Number((3.6 - 0.01 * i).toFixed(3))),
);
const ustYields = `date,us2y\n${Y2.map(([d, v]) => `${d},${v.toFixed(3)}`).join('\n')}\n`;

const E005 = `# E-005 — Receive 2y
status: rejected
view_id: V-001
instrument: UST 2y (receive)
notional: 12
max_loss_pct: 1.2
duration_impact: 1.1
price_series: ust_yields.us2y
rejection_reason: too early
---
## SUMMARY
Receive 2y.

## ENTRY
Entered 2026-01-08 at 3.70%.

## EXIT RULES
- Target: 3.42%.
- Stop: 3.75%.
`;

async function declinedE005(confidence = 0.7): Promise<string> {
  world.setClock('2026-01-02T09:00:00.000Z');
  await world.fs.writeFile(
    '/memory/views/V-001.md',
    `# V-001 — Fed cuts\nstatus: active\nconfidence: ${confidence}\ncategory: macro_regime\n---\n## SUMMARY\nx\n`,
    pm,
  );
  world.setClock('2026-01-10T15:00:00.000Z');
  await world.fs.writeFile('/memory/expressions/E-005.md', E005, pm);
  const expression = parseRecord(world.fs.readFile('/memory/expressions/E-005.md'));
  const at = new Date('2026-01-10T15:00:00Z');
  // What the reject path does: the stated forecast now, then the pure record.
  const stated = statedForecast(world.fs, expression.header, expression.id, at.toISOString());
  const { content } = counterfactualFromRejection({ expression, reason: 'too early', at, stated });
  return (await world.fs.writeFile('/memory/counterfactuals/new.md', content, pm)).id!;
}

const cf = (id: string) => parseRecord(world.fs.readFile(`/memory/counterfactuals/${id}.md`));

describe('CounterfactualDetector', () => {
  it('does not judge a declined trade before 14 days, even if its target was already hit', async () => {
    world = trackingWorld({ datasets: { ust_yields: ustYields } });
    const id = await declinedE005();
    const detector = new CounterfactualDetector({ fs: world.fs, market: world.market });
    const report = await detector.runOnce({ now: new Date('2026-01-20T12:00:00Z') });
    expect(report.pending).toEqual([{ id, why: 'judged from 2026-01-24 (14 days after 2026-01-10)' }]);
    expect(report.completed).toEqual([]);
    expect(cf(id).header.status).toBe('tracking');
  });

  it('at day 20 completes with what the declined trade would have made, once', async () => {
    world = trackingWorld({ datasets: { ust_yields: ustYields } });
    const id = await declinedE005();
    const detector = new CounterfactualDetector({ fs: world.fs, market: world.market });
    const report = await detector.runOnce({ now: new Date('2026-01-30T12:00:00Z') });

    // Entered at the close of the day it was declined (01-10: 3.510%), not the 3.70% it proposed.
    // Receive: the first close ≤ 3.42% is 01-19. Move = −1 × (3.42 − 3.51) × 100 = +9 bp;
    // × duration_impact 1.1 = +9.9 bp of NAV; / notional 12 = +0.825% of the position.
    expect(report.completed).toEqual([{ id, exitReason: 'target', exitDate: '2026-01-19', pnlBp: 9.9, hit: true }]);
    expect(cf(id).header).toMatchObject({
      status: 'completed',
      decision_type: 'rejected_expression',
      expression: 'E-005',
      category: 'macro_regime',
      confidence: 0.7,
      entry_price: 3.51,
      entry_date: '2026-01-10',
      exit_price: 3.42,
      pnl_bp: 9.9,
      pnl_pct: 0.825,
      hit: 'true',
      // Which series, from which file, as of when: without these a PM cannot check the figure against their own data.
      series_used: 'ust_yields.us2y',
      series_source: 'datasets: datasets/ust_yields.csv',
      series_as_of: '2026-01-30',
    });
    expect(cf(id).body).toContain('declining it cost 9.9bp of NAV');
    expect(cf(id).body).toContain('read from ust_yields.us2y (datasets, datasets/ust_yields.csv, as of 2026-01-30)');
    const again = await detector.runOnce({ now: new Date('2026-01-31T12:00:00Z') });
    expect(again.checked).toEqual([]);
  });

  it("resolves the write pipeline's bare Counterfactual from its Expression, scoring the View's confidence on the day it was declined", async () => {
    world = trackingWorld({ datasets: { ust_yields: ustYields } });
    await declinedE005(0.7);
    // Raised after the rejection: the forecast that was declined was the 0.7.
    world.setClock('2026-01-12T09:00:00.000Z');
    await world.fs.writeFile('/memory/views/V-001.md', '# V-001 — Fed cuts\nstatus: active\nconfidence: 0.8\ncategory: macro_regime\n---\n## SUMMARY\nx\n', pm);
    // What tools/write-pipeline.ts writes today on a rejection: no terms, no confidence.
    const bare = `# CF-009 — Declined: Receive 2y\ndecision_type: rejected_expression\nexpression: E-005\nview_id: V-001\nreason: too early\nreference_date: 2026-01-10\nstatus: tracking\n---\n## SUMMARY\nDeclined.\n`;
    await world.fs.writeFile('/memory/counterfactuals/CF-009.md', bare, pm);
    const report = await new CounterfactualDetector({ fs: world.fs, market: world.market }).runOnce({ now: new Date('2026-01-30T12:00:00Z') });
    expect(report.completed).toContainEqual({ id: 'CF-009', exitReason: 'target', exitDate: '2026-01-19', pnlBp: 9.9, hit: true });
    expect(cf('CF-009').header).toMatchObject({ confidence: 0.7, category: 'macro_regime', confidence_source: 'V-001 as of 2026-01-10T23:59:59.999Z' });
  });

  it('expires after the 90-day window when no figure could be computed, with why', async () => {
    world = trackingWorld({ datasets: { ust_yields: ustYields } });
    const { id } = await recordCounterfactual(
      world.fs,
      {
        decisionType: 'alternative',
        title: 'JGB 10y payer instead',
        reason: 'chose the UST trade',
        referenceDate: '2026-01-10',
        priceSeries: ['JGB10Y'],
        notional: 5,
        durationImpact: 0.5,
        quote: 'yield',
        direction: 'pay',
        confidence: 0.65,
        category: 'macro_regime',
      },
      pm,
    );
    const detector = new CounterfactualDetector({ fs: world.fs, market: world.market });
    const inWindow = await detector.runOnce({ now: new Date('2026-02-01T12:00:00Z') });
    expect(inWindow.pending).toEqual([{ id, why: expect.stringContaining('No market data for JGB10Y') }]);

    const late = await detector.runOnce({ now: new Date('2026-04-20T12:00:00Z') });
    expect(late.expired).toEqual([{ id, why: expect.stringMatching(/^not resolved within the 90-day window ending 2026-04-10: No market data for JGB10Y/) }]);
    expect(cf(id).header).toMatchObject({ status: 'expired', expired_reason: expect.stringContaining('2026-04-10') });
  });

  it('holds a trade without exit rules to the end of the window and scores it there', async () => {
    world = trackingWorld({ datasets: { ust_yields: ustYields } });
    const { id } = await recordCounterfactual(
      world.fs,
      {
        decisionType: 'alternative',
        title: 'Pay 2y instead',
        reason: 'considered',
        referenceDate: '2026-01-10',
        priceSeries: ['ust_yields.us2y'],
        notional: 4,
        durationImpact: 1.1,
        quote: 'yield',
        direction: 'pay',
        confidence: 0.6,
        category: 'macro_regime',
      },
      pm,
    );
    const report = await new CounterfactualDetector({ fs: world.fs, market: world.market }).runOnce({ now: new Date('2026-04-15T12:00:00Z') });
    // Window end 04-10 (day 99: 3.60 − 0.99 = 2.61%). Pay gains as yields rise:
    // move = +1 × (2.61 − 3.51) × 100 = −90 bp; × 1.1 = −99 bp of NAV; / 4 = −24.75%.
    expect(report.completed).toEqual([{ id, exitReason: 'window_end', exitDate: '2026-04-10', pnlBp: -99, hit: false }]);
    expect(cf(id).header).toMatchObject({ pnl_pct: -24.75, confidence: 0.6, hit: 'false' });
  });

  it('does not track a declined idea stated below the 0.6 minimum', async () => {
    world = trackingWorld({ datasets: { ust_yields: ustYields } });
    const id = await declinedE005(0.5);
    expect(cf(id).header).toMatchObject({ status: 'untracked', untracked_reason: expect.stringContaining('below the 0.6 minimum') });
    const report = await new CounterfactualDetector({ fs: world.fs, market: world.market }).runOnce({ now: new Date('2026-01-30T12:00:00Z') });
    expect(report.checked).toEqual([]);
  });

  it('refuses a counterfactual that could never be followed, naming what to add', async () => {
    world = trackingWorld();
    const base = { decisionType: 'alternative' as const, title: 'x', reason: 'y', referenceDate: '2026-01-10' };
    await expect(recordCounterfactual(world.fs, base, pm)).rejects.toMatchObject({ code: 'invalid_input', message: expect.stringContaining('priceSeries') });
    await expect(recordCounterfactual(world.fs, { ...base, referenceDate: '2026-02-30', priceSeries: ['UST2Y'], notional: 1 }, pm)).rejects.toMatchObject({
      code: 'invalid_input',
    });
    await expect(recordCounterfactual(world.fs, { ...base, expression: 'E-404' }, pm)).rejects.toMatchObject({
      message: expect.stringContaining('no Expression E-404'),
    });
    expect(world.fs.listDir('/memory/counterfactuals/').total).toBe(0);
  });
});
