import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { CsvProvider, ProviderRegistry } from '../providers';
import { MarketProvider } from '../providers/market';
import { daily, type TrackingWorld, trackingWorld } from './__tests__/harness';
import { marketPortFromRegistry } from './market-port';

let world: TrackingWorld;
afterEach(() => world?.dispose());

const spx = daily(
  '2025-01-01',
  Array.from({ length: 700 }, (_, i) => 5000 + i),
);

describe('market port over the provider registry', () => {
  it('reads a long range in pages: 700 closes although each answer holds at most 500', async () => {
    world = trackingWorld({ prices: { SPX: spx } });
    const s = await world.market.prices('SPX', '2025-01-01', '2026-12-31');
    expect(s.points).toHaveLength(700);
    expect(s.points[0]).toEqual({ date: '2025-01-01', close: 5000 });
    expect(s.points[699]).toEqual({ date: spx[699]![0], close: 5699 });
    expect(s).toMatchObject({ kind: 'price', asOf: spx[699]![0], source: expect.stringContaining('prices.csv') });
  });

  it('finds a yield by symbol and says it is a yield', async () => {
    world = trackingWorld({ yields: { UST2Y: daily('2026-01-01', [4.01, 4.02, 4.03]) } });
    const s = await world.market.prices('UST2Y', '2026-01-02', '2026-01-03');
    expect(s.points).toEqual([
      { date: '2026-01-02', close: 4.02 },
      { date: '2026-01-03', close: 4.03 },
    ]);
    expect(s.kind).toBe('yield');
  });

  it('reads a dataset column, skipping blank cells', async () => {
    world = trackingWorld({ datasets: { curves: 'date,us5s30s,other\n2026-01-01,40,1\n2026-01-02,,1\n2026-01-05,42.5,1\n' } });
    const s = await world.market.prices('curves.us5s30s', '2026-01-01', '2026-01-31');
    expect(s.points).toEqual([
      { date: '2026-01-01', close: 40 },
      { date: '2026-01-05', close: 42.5 },
    ]);
    expect(s).toMatchObject({ kind: null, asOf: '2026-01-05' });
  });

  it('falls back from the market provider to a dataset of the same name', async () => {
    world = trackingWorld({ datasets: { gold: 'date,close\n2026-01-01,2050\n2026-01-02,2061\n' } });
    const s = await world.market.prices('GOLD', '2026-01-01', '2026-01-02');
    expect(s.points.map((p) => p.close)).toEqual([2050, 2061]);
    expect(s.source).toContain('gold.csv');
  });

  it('fails with a typed error naming the instrument when no source has it, or the source is switched off', async () => {
    world = trackingWorld({ prices: { SPX: spx } });
    await expect(world.market.prices('JGB10Y', '2026-01-01', '2026-02-01')).rejects.toMatchObject({
      code: 'unavailable',
      message: expect.stringContaining('No market data for JGB10Y'),
    });
    await expect(world.market.prices('SPX', '2030-01-01', '2030-02-01')).rejects.toMatchObject({ message: expect.stringContaining('observations') });
    await expect(world.market.prices('not a symbol!', '2026-01-01', '2026-02-01')).rejects.toMatchObject({ code: 'unavailable' });

    const off = new ProviderRegistry([new MarketProvider({ dir: `${world.dir}/market` }), new CsvProvider({ dir: `${world.dir}/datasets` })], {
      isEnabled: (name) => name !== 'market',
    });
    await expect(marketPortFromRegistry(off).prices('SPX', '2025-01-01', '2025-02-01')).rejects.toMatchObject({
      message: expect.stringContaining('switched off'),
    });
  });

  // The PM's own exports: Yahoo's download (with `Adj Close` and `null` rows) and Stooq's (a file
  // name with a dot, CRLF). Each reference below is one a PM would write in `price_series`.
  const fixture = (name: string) => readFileSync(join(__dirname, '..', 'providers', 'fixtures', name), 'utf8');

  it("reads Yahoo's `Adj Close` as adj_close, `Adj Close` or `adj close`, and the plain close beside it", async () => {
    // Failing this, an Expression on Yahoo's adjusted close could not be followed at all.
    world = trackingWorld({ datasets: { 'yahoo-spy': fixture('yahoo-spy.csv') } });
    const adj = await world.market.prices('yahoo-spy.adj_close', '2024-03-25', '2024-03-27');
    expect(adj.points).toEqual([
      { date: '2024-03-25', close: 514.211243 },
      { date: '2024-03-26', close: 513.261536 },
      { date: '2024-03-27', close: 517.57489 },
    ]);
    expect(adj).toMatchObject({ provider: 'datasets', source: expect.stringContaining('yahoo-spy.csv'), asOf: '2024-03-27' });
    expect((await world.market.prices('yahoo-spy.Adj Close', '2024-03-25', '2024-03-27')).points).toEqual(adj.points);
    expect((await world.market.prices('YAHOO-SPY.adj close', '2024-03-25', '2024-03-27')).points).toEqual(adj.points);
    expect((await world.market.prices('yahoo-spy.close', '2024-03-25', '2024-03-25')).points).toEqual([{ date: '2024-03-25', close: 519.77002 }]);
    await expect(world.market.prices('yahoo-spy.adjusted', '2024-03-25', '2024-03-27')).rejects.toMatchObject({
      code: 'unavailable',
      message: expect.stringContaining('Adj Close'),
    });
  });

  it('follows a Stooq file whose name has a dot (spy.us.csv → spy.us.close), and a file named in capitals by its lower-case name', async () => {
    // Failing this, `spy.us.close` would be read as dataset "spy", column "us.close": no data.
    world = trackingWorld({ datasets: { 'spy.us': fixture('spy.us.csv'), SPY: 'Date,Close\n2024-01-02,472.65\n' } });
    const s = await world.market.prices('spy.us.close', '2024-01-01', '2024-12-31');
    expect(s.points[0]).toEqual({ date: '2024-01-29', close: 494.9 });
    expect(s).toMatchObject({ provider: 'datasets', source: expect.stringContaining('spy.us.csv') });
    const upper = await world.market.prices('spy.close', '2024-01-01', '2024-01-31');
    expect(upper).toMatchObject({ points: [{ date: '2024-01-02', close: 472.65 }], source: expect.stringContaining('SPY.csv') });
    await expect(world.market.prices('qqq.us.close', '2024-01-01', '2024-12-31')).rejects.toMatchObject({
      message: expect.stringContaining('There is no dataset "qqq.us"'),
    });
  });

  it('reads `SPY.US` as a market symbol (Stooq-style suffix) unless the folder holds a dataset of that name, whose close it then reads', async () => {
    // Failing this, a PM's `price_series: SPY.US` would be looked for as a file "SPY" with a column "US".
    world = trackingWorld({ prices: { 'SPY.US': daily('2024-01-02', [472.65, 470.1]) } });
    const market = await world.market.prices('SPY.US', '2024-01-01', '2024-01-31');
    expect(market).toMatchObject({
      provider: 'market',
      kind: 'price',
      points: [
        { date: '2024-01-02', close: 472.65 },
        { date: '2024-01-03', close: 470.1 },
      ],
    });

    world.dispose();
    world = trackingWorld({ prices: { 'SPY.US': daily('2024-01-02', [1, 2]) }, datasets: { 'spy.us': fixture('spy.us.csv') } });
    const own = await world.market.prices('spy.us', '2024-01-01', '2024-12-31');
    expect(own).toMatchObject({
      provider: 'datasets',
      source: expect.stringContaining('spy.us.csv'),
      points: expect.arrayContaining([{ date: '2024-01-29', close: 494.9 }]),
    });
  });
});
