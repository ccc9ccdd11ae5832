import { afterEach, describe, expect, it } from 'vitest';
import { parseRecord } from '../fs';
import { daily, pipelineClose, type TrackingWorld, trackingWorld } from './__tests__/harness';
import type { ExpressionExit } from './outcome-record';
import { OutcomeTracker } from './outcome-tracker';

let world: TrackingWorld;
afterEach(() => world?.dispose());

const pm = { actor: 'pm' as const };

const view = (id: string, confidence: number, category = 'macro_regime') =>
  `# ${id} — Fed cuts twice more\nstatus: active\nconfidence: ${confidence}\nscope: US rates\ncategory: ${category}\n---\n## SUMMARY\nA view.\n`;

/** E-001 exactly as the demo seed writes it, plus where its prices come from. */
const E001 = `# E-001 — Receive 2y SOFR swaps
status: active
view_id: V-001
instrument: USD 2y SOFR swap (receive fixed)
notional: 12.0
max_loss_pct: 1.2
factor: us_rates
duration_impact: 1.1
price_series: ust_yields.sofr_2y_swap
source: demo
---
## SUMMARY
Receive 2y fixed to express two more Fed cuts; stop 25bp against, target 45bp.

## ENTRY
Entered 2026-10-15 at 3.62%.

## EXIT RULES
- Target: 3.17%.
- Stop: 3.87%.
- Time: close by 2027-03-31 if neither is hit.
`;

// 10-12 … 10-24: the swap rate falls through the 3.17% target on 10-19 (3.15).
const SOFR = daily('2026-10-12', [3.64, 3.63, 3.62, 3.62, 3.55, 3.4, 3.2, 3.15, 3.3, 3.35, 3.36, 3.37, 3.38]);
const ustYields = `date,us2y,sofr_2y_swap\n${SOFR.map(([d, v]) => `${d},${(v + 0.03).toFixed(3)},${v}`).join('\n')}\n`;

function outcomes() {
  return world.fs.listDir('/memory/outcomes/').entries.map((e) => parseRecord(world.fs.readFile(e.path)));
}

async function seedE001(): Promise<void> {
  world.setClock('2026-10-01T09:00:00.000Z');
  await world.fs.writeFile('/memory/views/V-001.md', view('V-001', 0.7), pm);
  world.setClock('2026-10-15T14:00:00.000Z');
  await world.fs.writeFile('/memory/expressions/E-001.md', E001, pm);
  // The View is raised to 0.9 after the trade went on: the Outcome must keep the 0.7 stated at entry.
  world.setClock('2026-10-20T09:00:00.000Z');
  await world.fs.writeFile('/memory/views/V-001.md', view('V-001', 0.9), pm);
}

describe('OutcomeTracker', () => {
  it('closes the seed E-001 at its target through the close port and records the Outcome with the P&L worked by hand', async () => {
    world = trackingWorld({ datasets: { ust_yields: ustYields } });
    await seedE001();
    const calls: { id: string; exit: ExpressionExit }[] = [];
    const tracker = new OutcomeTracker({ fs: world.fs, market: world.market, closeExpression: pipelineClose(world.fs, calls) });

    const report = await tracker.runOnce({ now: new Date('2026-10-25T15:00:00Z') });

    // Receive at 3.62%, first close at or below 3.17% is 3.15% on 10-19.
    // Move = −1 × (3.15 − 3.62) × 100 = +47 bp; × duration_impact 1.1 = +51.7 bp of NAV; / 12 = +4.3083%.
    expect(report.checked).toEqual(['E-001']);
    expect(report.skipped).toEqual([]);
    expect(report.closed).toEqual([
      {
        id: 'E-001',
        reason: 'target',
        exitDate: '2026-10-19',
        exitPrice: 3.15,
        pnlBp: 51.7,
        outcome: 'OUT-001',
        series: 'ust_yields.sofr_2y_swap (csv datasets/ust_yields.csv)',
      },
    ]);
    expect(calls).toHaveLength(1);

    const expr = parseRecord(world.fs.readFile('/memory/expressions/E-001.md'));
    expect(expr.header).toMatchObject({
      status: 'closed',
      exit_reason: 'target',
      exit_price: 3.15,
      exit_date: '2026-10-19',
      entry_price: 3.62,
      quote: 'yield',
      // The PM can check the exit against the file it was read from.
      series_used: 'ust_yields.sofr_2y_swap',
      series_source: 'datasets: datasets/ust_yields.csv',
      series_as_of: '2026-10-24',
    });
    expect(expr.header.exit_details).toContain('from ust_yields.sofr_2y_swap (datasets, datasets/ust_yields.csv, as of 2026-10-24)');
    expect(typeof expr.header.closed_at).toBe('string');
    expect(world.fs.history('/memory/expressions/E-001.md').versions).toHaveLength(1);

    const [out, ...more] = outcomes();
    expect(more).toHaveLength(0);
    expect(out!.id).toBe('OUT-001');
    expect(out!.header).toMatchObject({
      expression: 'E-001',
      view_id: 'V-001',
      status: 'resolved',
      category: 'macro_regime',
      confidence: 0.7,
      entry_price: 3.62,
      entry_date: '2026-10-15',
      exit_price: 3.15,
      exit_date: '2026-10-19',
      exit_reason: 'target',
      pnl_pct: 4.3083,
      pnl_bp: 51.7,
      hit: 'true',
      series_used: 'ust_yields.sofr_2y_swap',
      series_source: 'datasets: datasets/ust_yields.csv',
      series_as_of: '2026-10-24',
    });
    expect(out!.body).toContain('+51.7bp of NAV');
    expect(out!.body).toContain('3.15 on 2026-10-19 (target) from ust_yields.sofr_2y_swap (datasets, datasets/ust_yields.csv, as of 2026-10-24).');
  });

  it('never makes two Outcomes for one Expression: a second run, and a run after a close whose Outcome was not completed', async () => {
    world = trackingWorld({ datasets: { ust_yields: ustYields } });
    await seedE001();
    const tracker = new OutcomeTracker({ fs: world.fs, market: world.market, closeExpression: pipelineClose(world.fs) });
    await tracker.runOnce({ now: new Date('2026-10-25T15:00:00Z') });
    const again = await tracker.runOnce({ now: new Date('2026-10-25T16:00:00Z') });
    expect(again).toMatchObject({ checked: [], closed: [], recorded: [], skipped: [] });
    expect(outcomes().map((o) => o.id)).toEqual(['OUT-001']);

    // A crash between the close and the Outcome: the pipeline's stub OUT-002 is left `recorded`.
    await world.fs.writeFile('/memory/expressions/E-002.md', E001.replace('E-001', 'E-002'), pm);
    const exit: ExpressionExit = {
      reason: 'stop',
      exitPrice: 3.88,
      exitDate: '2026-10-20',
      entryPrice: 3.62,
      entryDate: '2026-10-15',
      quote: 'yield',
      gainsWhen: 'down',
      pnlPct: -2.3833,
      pnlBp: -28.6,
    };
    await pipelineClose(world.fs)('E-002', exit);
    expect(outcomes().find((o) => o.header.expression === 'E-002')!.header.status).toBe('recorded');

    const repaired = await tracker.runOnce({ now: new Date('2026-10-25T17:00:00Z') });
    expect(repaired.recorded).toEqual([{ id: 'E-002', outcome: 'OUT-002' }]);
    const stub = outcomes().find((o) => o.id === 'OUT-002')!;
    // Completed in place: −1 × (3.88 − 3.62) × 100 = −26 bp × 1.1 = −28.6 bp of NAV; a miss.
    expect(stub.header).toMatchObject({ status: 'resolved', exit_reason: 'stop', pnl_bp: -28.6, hit: 'false' });
    const last = await tracker.runOnce({ now: new Date('2026-10-25T18:00:00Z') });
    expect(last.recorded).toEqual([]);
    expect(
      outcomes()
        .map((o) => o.id)
        .sort(),
    ).toEqual(['OUT-001', 'OUT-002']);
  });

  it('skips an Expression whose instrument has no market data, says why, and closes nothing', async () => {
    world = trackingWorld({ datasets: { ust_yields: ustYields } });
    await seedE001();
    await world.fs.writeFile('/memory/expressions/E-001.md', E001.replace('price_series: ust_yields.sofr_2y_swap', 'price_series: JGB10Y'), pm);
    const calls: { id: string; exit: ExpressionExit }[] = [];
    const tracker = new OutcomeTracker({ fs: world.fs, market: world.market, closeExpression: pipelineClose(world.fs, calls) });

    const report = await tracker.runOnce({ now: new Date('2026-10-25T15:00:00Z') });

    expect(report.closed).toEqual([]);
    expect(report.skipped).toEqual([{ id: 'E-001', why: expect.stringContaining('No market data for JGB10Y') }]);
    expect(calls).toEqual([]);
    expect(world.fs.recordInfo('/memory/expressions/E-001.md')!.status).toBe('active');
    expect(outcomes()).toEqual([]);
  });

  it('says what to add when an Expression names no price series', async () => {
    world = trackingWorld();
    await seedE001();
    await world.fs.writeFile('/memory/expressions/E-001.md', E001.replace('price_series: ust_yields.sofr_2y_swap\n', ''), pm);
    const tracker = new OutcomeTracker({ fs: world.fs, market: world.market, closeExpression: pipelineClose(world.fs) });
    const report = await tracker.runOnce({ now: new Date('2026-10-25T15:00:00Z') });
    expect(report.skipped).toEqual([{ id: 'E-001', why: expect.stringContaining('add `price_series:`') }]);
  });

  it('reads header-field rules on a market price series: a short entered at the activation close, stopped on a gap', async () => {
    // SPX closes: 5000 on 03-02 (activated that day), 4990, then gaps up to 5200 through the 5100 stop.
    world = trackingWorld({ prices: { SPX: daily('2026-03-02', [5000, 4990, 5200, 5300]) } });
    world.setClock('2026-03-01T09:00:00.000Z');
    await world.fs.writeFile('/memory/views/V-009.md', view('V-009', 0.65, 'thematic'), pm);
    await world.fs.writeFile(
      '/memory/expressions/E-009.md',
      `# E-009 — Short SPX\nstatus: active\nview_id: V-009\ndirection: short\nprice_series: SPX\nnotional: 4\nmax_loss_pct: 0.1\ntarget: -5%\nstop: 5100\nactivated_at: 2026-03-02T15:00:00.000Z\n---\n## SUMMARY\nShort the index.\n`,
      pm,
    );
    const tracker = new OutcomeTracker({ fs: world.fs, market: world.market, closeExpression: pipelineClose(world.fs) });
    const report = await tracker.runOnce({ now: new Date('2026-03-10T12:00:00Z') });

    // Short at 5000, out at 5200: −1 × (5200 − 5000) / 5000 = −4% of the position; × 4% NAV = −16 bp.
    expect(report.closed).toEqual([
      { id: 'E-009', reason: 'stop', exitDate: '2026-03-04', exitPrice: 5200, pnlBp: -16, outcome: 'OUT-001', series: 'SPX (local prices.csv (test))' },
    ]);
    expect(outcomes()[0]!.header).toMatchObject({ category: 'thematic', confidence: 0.65, pnl_pct: -4, hit: 'false', quote: 'price' });
  });

  it('exits a relative-rules steepener on time, and leaves an untriggered trade open with its data date', async () => {
    // 5s30s in bp: entered 40 on 02-02 (activation); target +25bp (65), stop −12bp (28); close by 02-10.
    const curves = `date,us5s30s\n${daily('2026-02-01', [41, 40, 44, 47, 50, 52, 49, 51, 53, 55, 70])
      .map(([d, v]) => `${d},${v}`)
      .join('\n')}\n`;
    world = trackingWorld({ datasets: { curves } });
    world.setClock('2026-02-01T09:00:00.000Z');
    await world.fs.writeFile('/memory/views/V-004.md', view('V-004', 0.65, 'relative_value'), pm);
    const e = (id: string, timeRule: string) =>
      `# ${id} — US 5s30s steepener\nstatus: active\nview_id: V-004\nnotional: 10.0\nmax_loss_pct: 1.0\nduration_impact: 0.6\nprice_series: curves.us5s30s\nactivated_at: 2026-02-02T16:00:00.000Z\n---\n## SUMMARY\nSteepener.\n\n## EXIT RULES\n- Target: +25bp.\n- Stop: -12bp.\n${timeRule}`;
    await world.fs.writeFile('/memory/expressions/E-003.md', e('E-003', '- Time: close by 2026-02-10.\n'), pm);
    await world.fs.writeFile('/memory/expressions/E-004.md', e('E-004', ''), pm);
    const tracker = new OutcomeTracker({ fs: world.fs, market: world.market, closeExpression: pipelineClose(world.fs) });

    const report = await tracker.runOnce({ now: new Date('2026-02-10T23:00:00Z') });

    // E-003: the close of 02-10 (55) is its time exit. Move = +1 × (55 − 40) = +15 bp; × 0.6 = +9 bp of NAV.
    expect(report.closed).toEqual([
      { id: 'E-003', reason: 'time', exitDate: '2026-02-10', exitPrice: 55, pnlBp: 9, outcome: 'OUT-001', series: 'curves.us5s30s (csv datasets/curves.csv)' },
    ]);
    // E-004 has no time exit and nothing reached 65 or 28 by 02-10 (the 70 of 02-11 is tomorrow).
    expect(report.open).toEqual([{ id: 'E-004', asOf: '2026-02-10', series: 'curves.us5s30s (csv datasets/curves.csv)' }]);
    expect(outcomes()[0]!.header).toMatchObject({ pnl_pct: 0.9, quote: 'spread', gains_when: 'up', category: 'relative_value' });
  });

  it('reports a refused close and records no Outcome', async () => {
    world = trackingWorld({ datasets: { ust_yields: ustYields } });
    await seedE001();
    const tracker = new OutcomeTracker({
      fs: world.fs,
      market: world.market,
      closeExpression: async () => ({ ok: false, message: 'E-001 was changed by the PM meanwhile' }),
    });
    const report = await tracker.runOnce({ now: new Date('2026-10-25T15:00:00Z') });
    expect(report.skipped).toEqual([
      { id: 'E-001', why: expect.stringMatching(/target triggered on 2026-10-19 but closing it was refused: E-001 was changed/) },
    ]);
    expect(outcomes()).toEqual([]);
  });
});
