import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { movesSinceLastReview } from '../scheduler';
import { openTestWorkspace, type TestWorkspace } from '../tools/testing';
import { marketPortFromRegistry } from '../tracking';

const pm = { actor: 'pm' as const };

/**
 * The morning review's moves (src-main/scheduler/review-moves.ts) over the app's own providers:
 * here because the scheduler may not import the providers or the tools' seeded test workspace.
 */
describe('movesSinceLastReview over the real providers (demo datasets and the bundled market sample)', () => {
  let tw: TestWorkspace;
  beforeEach(async () => {
    tw = await openTestWorkspace();
    // V-003 (yen) gets a USD/JPY trade from the demo dataset; V-005 (watching) a proposed trade on the market sample's UST2Y and SPX.
    await tw.ws.fs.writeFile(
      '/memory/expressions/E-010.md',
      '# E-010 — Short USD/JPY\nstatus: active\nview_id: V-003\nnotional: 5\nprice_series: fx_spot.usdjpy\n---\n## EXIT RULES\n- Target: 140\n- Stop: 155\n',
      pm,
    );
    await tw.ws.fs.writeFile(
      '/memory/expressions/E-011.md',
      '# E-011 — Pay 2y, short SPX\nstatus: proposed\nview_id: V-005\nnotional: 3\nprice_series: UST2Y\n---\n## SUMMARY\nx\n',
      pm,
    );
    await tw.ws.fs.writeFile(
      '/memory/expressions/E-012.md',
      '# E-012 — Short SPX\nstatus: active\nview_id: V-005\nnotional: 3\nprice_series: SPX\n---\n## SUMMARY\nx\n',
      pm,
    );
  });
  afterEach(() => tw.close());

  it('measures each live View’s series from the last close before the previous review to the latest, against hand-computed figures', async () => {
    const moves = await movesSinceLastReview({
      fs: tw.ws.fs,
      market: marketPortFromRegistry(tw.providers),
      since: new Date('2026-11-19T12:00:00Z'),
      now: new Date('2026-11-20T12:00:00Z'),
    });
    // V-006 is invalidated: history, not part of the review.
    expect(moves.map((v) => [v.id, v.status])).toEqual([
      ['V-001', 'active'],
      ['V-002', 'active'],
      ['V-003', 'active'],
      ['V-004', 'active'],
      ['V-005', 'watching'],
    ]);
    const byId = new Map(moves.map((v) => [v.id, v]));
    // ust_yields.csv sofr_2y_swap: 3.379 (Nov 18) → 3.362 (Nov 20) = −1.7 bp; a yield, because E-001's rules are in %.
    expect(byId.get('V-001')!.moves).toEqual([
      {
        instrument: 'ust_yields.sofr_2y_swap',
        expressions: ['E-001'],
        kind: 'yield',
        from: { date: '2026-11-18', value: 3.379 },
        to: { date: '2026-11-20', value: 3.362 },
        change: -1.7,
        unit: 'bp',
        asOf: '2026-11-20',
        source: expect.stringContaining('ust_yields'),
      },
    ]);
    expect(byId.get('V-001')!.invalidation).toEqual([
      'Two consecutive payroll prints above 200k.',
      'Core PCE above 0.3% m/m for two months.',
      "ECB signals a further cut before the Fed's next meeting.",
    ]);
    // fx_spot.csv usdjpy: 149.44 → 149.90 = +0.308 % (149.90 / 149.44 − 1).
    expect(byId.get('V-003')!.moves[0]).toMatchObject({ instrument: 'fx_spot.usdjpy', kind: 'price', change: 0.308, unit: '%' });
    // Market sample: UST2Y 3.454 → 3.411 = −4.3 bp (the provider says it is a yield); SPX 5197.25 → 5196.65 = −0.012 %.
    expect(byId.get('V-005')!.moves.map((m) => [m.instrument, m.expressions, m.kind, m.from.value, m.to.value, m.change, m.unit])).toEqual([
      ['UST2Y', ['E-011'], 'yield', 3.454, 3.411, -4.3, 'bp'],
      ['SPX', ['E-012'], 'price', 5197.25, 5196.65, -0.012, '%'],
    ]);
    // Views with nothing readable say why.
    expect(byId.get('V-002')!.moves).toEqual([]);
    expect(byId.get('V-002')!.missing).toEqual([{ expression: 'E-002', why: expect.stringContaining('names no price series') }]);
    expect(byId.get('V-004')!.missing[0]).toMatchObject({ expression: 'E-003' });
  });

  it('says why when the data does not reach back to the previous review, and when a View has no trade', async () => {
    await tw.ws.fs.writeFile(
      '/memory/expressions/E-010.md',
      '# E-010 — Short USD/JPY\nstatus: closed\nview_id: V-003\nnotional: 5\nprice_series: fx_spot.usdjpy\n---\n## SUMMARY\nx\n',
      pm,
    );
    const moves = await movesSinceLastReview({
      fs: tw.ws.fs,
      market: marketPortFromRegistry(tw.providers),
      since: new Date('2026-09-28T12:00:00Z'), // the demo dataset starts on this day: nothing before it
      now: new Date('2026-11-20T12:00:00Z'),
    });
    const byId = new Map(moves.map((v) => [v.id, v]));
    expect(byId.get('V-001')!.missing).toEqual([
      { expression: 'E-001', why: 'ust_yields.sofr_2y_swap has no close before 2026-09-28 to measure from (its data starts 2026-09-28)' },
    ]);
    // A closed trade the View does not list is no longer linked.
    expect(byId.get('V-003')!.missing).toEqual([{ expression: null, why: 'no Expression is linked to it, so there is no price series to measure' }]);
  });
});
