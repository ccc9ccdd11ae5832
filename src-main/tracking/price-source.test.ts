import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { CsvProvider, ProviderRegistry } from '../providers';
import { MarketProvider } from '../providers/market';
import { pipelineClose, type TrackingWorld, trackingWorld } from './__tests__/harness';
import { marketPortFromRegistry } from './market-port';
import { OutcomeTracker } from './outcome-tracker';
import { expressionPriceSources } from './price-source';

/**
 * The Expression page's "Prices from" section, over a real workspace (SQLite file) and the PM's
 * real files (Yahoo and Stooq exports in the datasets folder). If these fail, the page would name
 * a source the tracker does not use, or say nothing useful when a reference is wrong.
 */
let world: TrackingWorld;
afterEach(() => world?.dispose());

const fixture = (name: string) => readFileSync(join(__dirname, '..', 'providers', 'fixtures', name), 'utf8');
const pm = { actor: 'pm' as const };

const expression = (series: string, extra = '') =>
  `# E-004 — Long SPY\nstatus: active\nview_id: V-001\ninstrument: SPY\ndirection: long\nnotional: 5\nmax_loss_pct: 0.5\nprice_series: ${series}\nentry_date: 2024-03-25\ntarget: 523\nstop: 500\n${extra}---\n## SUMMARY\nLong SPY.\n`;

async function seed(series: string, extra = '') {
  world = trackingWorld({ datasets: { 'yahoo-spy': fixture('yahoo-spy.csv'), 'spy.us': fixture('spy.us.csv') } });
  world.setClock('2024-03-25T15:00:00.000Z');
  await world.fs.writeFile('/memory/expressions/E-004.md', expression(series, extra), pm);
}

describe('expressionPriceSources', () => {
  it('names the provider, file, as-of and last close of the entry the tracker follows, and why the others give nothing', async () => {
    await seed('[yahoo-spy.closing, yahoo-spy.adj_close, spy.us.close, JGB10Y]');
    const r = await expressionPriceSources(world.fs, world.market, 'E-004', { today: '2024-04-03' });
    expect(r).toMatchObject({ id: 'E-004', entryDate: '2024-03-25', from: '2024-03-15', to: '2024-04-03', recorded: null, note: null });
    const [missingColumn, adj, stooq, unknown] = r.series;
    expect(missingColumn).toMatchObject({ ref: 'yahoo-spy.closing', used: false, source: null, lastClose: null });
    expect(missingColumn!.problem).toContain('Unknown column(s) closing; "yahoo-spy" has Date, Open, High, Low, Close, Adj Close, Volume');
    // The first entry that resolves is the one followed; the Yahoo `null` row (03-29) is no close.
    expect(adj).toEqual({
      ref: 'yahoo-spy.adj_close',
      used: true,
      provider: 'datasets',
      source: 'csv datasets/yahoo-spy.csv',
      asOf: '2024-04-02',
      lastClose: { date: '2024-04-02', close: 513.29126 },
      closes: 6,
      kind: null,
      problem: null,
    });
    // Stooq's file holds no close in the window: it still says which file and where its data ends.
    expect(stooq).toMatchObject({
      ref: 'spy.us.close',
      used: false,
      source: 'csv datasets/spy.us.csv',
      closes: 0,
      lastClose: { date: '2024-02-05', close: 492.55 },
    });
    expect(stooq!.problem).toContain('csv datasets/spy.us.csv ends on 2024-02-05 (close 492.55)');
    expect(unknown).toMatchObject({ ref: 'JGB10Y', used: false, source: null });
    expect(unknown!.problem).toContain('No market data for JGB10Y');
  });

  it('follows the same entry the tracker closes on, and shows what the tracker recorded once closed', async () => {
    await seed('yahoo-spy.close');
    const page = await expressionPriceSources(world.fs, world.market, 'E-004', { today: '2024-04-03' });
    expect(page.series.filter((s) => s.used).map((s) => s.ref)).toEqual(['yahoo-spy.close']);
    // What the page says "Check exits now" would do, worked by the tracker's own evaluation.
    expect(page.tracker).toEqual({
      series: 'yahoo-spy.close',
      quote: 'price',
      gainsWhen: 'up',
      entryPrice: 519.77002,
      entryDate: '2024-03-25',
      target: 523,
      stop: 500,
      exitBy: null,
      lastClose: { date: '2024-04-02', close: 518.840027 },
      // Marked at the last close: (518.840027 − 519.77002) / 519.77002 = −0.1789% × notional 5 = −0.89 bp.
      atLastClose: { pnlPct: -0.1789, pnlBp: -0.89 },
      exit: { reason: 'target', date: '2024-03-27', price: 523.169983, pnlPct: 0.6541, pnlBp: 3.27 },
      waiting: null,
    });

    const tracker = new OutcomeTracker({ fs: world.fs, market: world.market, closeExpression: pipelineClose(world.fs) });
    const report = await tracker.runOnce({ now: new Date('2024-04-03T12:00:00Z') });
    // Target 523: the first close at or above it is 03-27's 523.169983 in the file.
    expect(report.closed).toMatchObject([
      { id: 'E-004', reason: 'target', exitDate: '2024-03-27', exitPrice: 523.169983, series: 'yahoo-spy.close (csv datasets/yahoo-spy.csv)' },
    ]);

    // The page and the run agree to the cent.
    expect(report.closed[0]).toMatchObject({ exitDate: page.tracker!.exit!.date, exitPrice: page.tracker!.exit!.price, pnlBp: page.tracker!.exit!.pnlBp });

    const after = await expressionPriceSources(world.fs, world.market, 'E-004', { today: '2024-04-03' });
    // Closed: no preview, the record says what happened.
    expect(after.tracker).toBeNull();
    expect(after.recorded).toEqual({ series: 'yahoo-spy.close', source: 'datasets: datasets/yahoo-spy.csv', asOf: '2024-04-02' });
    expect(after.series[0]).toMatchObject({ used: true, source: page.series[0]!.source, asOf: page.series[0]!.asOf });
  });

  it('says why when the datasets source is switched off, when no price_series is named, and refuses an unknown id', async () => {
    await seed('yahoo-spy.close');
    const off = new ProviderRegistry([new MarketProvider({ dir: join(world.dir, 'market') }), new CsvProvider({ dir: join(world.dir, 'datasets') })], {
      isEnabled: (name) => name !== 'datasets',
    });
    const r = await expressionPriceSources(world.fs, marketPortFromRegistry(off), 'E-004', { today: '2024-04-03' });
    expect(r.series[0]).toMatchObject({ used: false, source: null, problem: expect.stringContaining('switched off') });

    await world.fs.writeFile('/memory/expressions/E-004.md', expression('x').replace('price_series: x\n', ''), pm);
    const none = await expressionPriceSources(world.fs, world.market, 'E-004', { today: '2024-04-03' });
    expect(none.series).toEqual([]);
    expect(none.note).toContain('names no price series');

    await expect(expressionPriceSources(world.fs, world.market, 'E-099', { today: '2024-04-03' })).rejects.toMatchObject({ code: 'not_found' });
  });
});
