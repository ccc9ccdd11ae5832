import { afterEach, describe, expect, it } from 'vitest';
import { parseRecord } from '../fs';
import { daily, pipelineClose, type TrackingWorld, trackingWorld } from './__tests__/harness';
import { CounterfactualDetector, recordCounterfactual } from './counterfactuals';
import { OutcomeTracker } from './outcome-tracker';
import { locateSeries, withoutSecrets } from './series-locator';

/**
 * Issue #29 §2, "the ledger cites its evidence": every Outcome and every resolved Counterfactual
 * names the series, its provider, the file or URL it was read from, and the data's as-of date — on
 * each path that writes one. If these fail, a PM opening OUT-001 or CF-001 cannot check the figure
 * against the data it came from (or sees a vendor key on the page).
 */
let world: TrackingWorld;
afterEach(() => world?.dispose());
const pm = { actor: 'pm' as const };
const view = (conf = 0.7) => `# V-001 — Rates\nstatus: active\nconfidence: ${conf}\ncategory: macro_regime\n---\n## SUMMARY\nA view.\n`;
const header = (folder: string, id: string) => parseRecord(world.fs.readFile(`/memory/${folder}/${id}.md`)).header;
/** Every key/token-looking query parameter, anywhere in a stored record. */
const SECRET = /[?&][^=&\s]*(key|token|secret)[^=&\s]*=/i;

describe('Outcomes cite the series they were priced from', () => {
  it('tracker close (the hourly run and Check exits now): provider, file and as-of on the Outcome', async () => {
    world = trackingWorld({ prices: { SPX: daily('2026-03-02', [5000, 4990, 5200, 5300]) } });
    world.setClock('2026-03-01T09:00:00.000Z');
    await world.fs.writeFile('/memory/views/V-001.md', view(), pm);
    await world.fs.writeFile(
      '/memory/expressions/E-009.md',
      `# E-009 — Short SPX\nstatus: active\nview_id: V-001\ndirection: short\nprice_series: SPX\nnotional: 4\nmax_loss_pct: 0.1\nstop: 5100\nactivated_at: 2026-03-02T15:00:00.000Z\n---\n## SUMMARY\nShort.\n`,
      pm,
    );
    await new OutcomeTracker({ fs: world.fs, market: world.market, closeExpression: pipelineClose(world.fs) }).runOnce({
      now: new Date('2026-03-10T12:00:00Z'),
    });
    expect(header('outcomes', 'OUT-001')).toMatchObject({
      status: 'resolved',
      series_used: 'SPX',
      series_source: 'market/local: prices.csv',
      series_as_of: '2026-03-05',
    });
  });

  it('an Expression closed by hand with its exit price: the Outcome cites the record the price was written on', async () => {
    world = trackingWorld();
    world.setClock('2026-03-01T09:00:00.000Z');
    await world.fs.writeFile('/memory/views/V-001.md', view(), pm);
    await world.fs.writeFile(
      '/memory/expressions/E-002.md',
      `# E-002 — Long SPX\nstatus: closed\nview_id: V-001\ndirection: long\nprice_series: SPX\nnotional: 4\nmax_loss_pct: 0.5\nentry_price: 5000\nentry_date: 2026-02-02\nexit_price: 5100\nexit_date: 2026-02-20\n---\n## SUMMARY\nClosed by the PM.\n`,
      pm,
    );
    const report = await new OutcomeTracker({ fs: world.fs, market: world.market, closeExpression: pipelineClose(world.fs) }).runOnce({
      now: new Date('2026-03-10T12:00:00Z'),
    });
    expect(report.recorded).toHaveLength(1);
    expect(header('outcomes', report.recorded[0]!.outcome)).toMatchObject({
      series_used: 'exit_price',
      series_source: 'pm: /memory/expressions/E-002.md',
      series_as_of: '2026-02-20',
    });
  });
});

describe('Counterfactuals cite the series they were resolved or expired on', () => {
  const Y2 = daily(
    '2026-01-01',
    Array.from({ length: 130 }, (_, i) => Number((3.6 - 0.01 * i).toFixed(3))),
  );
  const ust = `date,us2y\n${Y2.map(([d, v]) => `${d},${v.toFixed(3)}`).join('\n')}\n`;

  it('resolution: the data-folder file and its as-of', async () => {
    world = trackingWorld({ datasets: { ust_yields: ust } });
    const { id } = await recordCounterfactual(
      world.fs,
      {
        decisionType: 'alternative',
        title: 'Receive 2y instead',
        reason: 'chose 5y',
        referenceDate: '2026-01-10',
        priceSeries: ['ust_yields.us2y'],
        notional: 10,
        durationImpact: 1,
        quote: 'yield',
        direction: 'down',
        target: 3.42,
        stop: 3.75,
      },
      pm,
    );
    await new CounterfactualDetector({ fs: world.fs, market: world.market }).runOnce({ now: new Date('2026-01-30T12:00:00Z') });
    expect(header('counterfactuals', id)).toMatchObject({
      status: 'completed',
      series_used: 'ust_yields.us2y',
      series_source: 'datasets: datasets/ust_yields.csv',
      series_as_of: '2026-01-30',
    });
  });

  it('expiry with data but no exit: the series read; expiry with no data: what was asked for and that nothing answered', async () => {
    // The file stops on 02-15: the window (to 04-02) is never reached, so nothing resolves it.
    const short = ust
      .split('\n')
      .filter((l) => !/^2026-0[2-9]-(1[6-9]|2\d|3\d)|^2026-0[3-9]/.test(l))
      .join('\n');
    world = trackingWorld({ datasets: { ust_yields: short } });
    const flat = {
      decisionType: 'size_not_taken' as const,
      title: 'Half size',
      reason: 'risk',
      referenceDate: '2026-01-02',
      notional: 5,
      durationImpact: 1,
      quote: 'yield' as const,
      direction: 'down',
      target: 1.0,
      stop: 9.0,
    };
    const seen = await recordCounterfactual(world.fs, { ...flat, priceSeries: ['ust_yields.us2y'] }, pm);
    const none = await recordCounterfactual(world.fs, { ...flat, priceSeries: ['NOSUCH'] }, pm);
    // The 90-day window ended 2026-04-02.
    const r = await new CounterfactualDetector({ fs: world.fs, market: world.market, settings: { counterfactualTrackingDays: 90 } }).runOnce({
      now: new Date('2026-04-03T12:00:00Z'),
    });
    expect(r.expired.map((e) => e.id).sort()).toEqual([seen.id, none.id].sort());
    expect(header('counterfactuals', none.id)).toMatchObject({
      status: 'expired',
      series_used: 'NOSUCH',
      series_source: 'none: no source answered',
      series_as_of: '2026-04-03',
    });
    const h = header('counterfactuals', seen.id);
    expect(h).toMatchObject({
      status: 'expired',
      series_used: 'ust_yields.us2y',
      series_source: 'datasets: datasets/ust_yields.csv',
      series_as_of: '2026-02-15',
    });
  });
});

describe('locateSeries: a specific, key-free source for every provider', () => {
  it('turns each provider’s description into its file or URL, and never keeps a key or token', () => {
    expect(locateSeries('datasets', 'csv datasets/spy.csv')).toEqual({ provider: 'datasets', where: 'datasets/spy.csv', kind: 'data-file' });
    expect(locateSeries('datasets', 'xlsx data/book.xlsx sheet "Prices"')).toEqual({
      provider: 'datasets',
      where: 'data/book.xlsx (sheet "Prices")',
      kind: 'data-file',
    });
    expect(locateSeries('market', 'sample prices.csv (synthetic)')).toMatchObject({ provider: 'market/local', where: 'resources/data/market/prices.csv' });
    expect(locateSeries('market', 'Stooq daily spy.us (prices as Stooq publishes them)')).toEqual({
      provider: 'market/stooq',
      where: 'https://stooq.com/q/d/l/?s=spy.us&i=d',
      kind: 'url',
    });
    expect(locateSeries('market', 'Alpha Vantage FX_DAILY EUR/USD').where).toBe(
      'https://www.alphavantage.co/query?function=FX_DAILY&from_symbol=EUR&to_symbol=USD',
    );
    expect(locateSeries('market', 'Alpha Vantage TREASURY_YIELD 2year').where).toBe(
      'https://www.alphavantage.co/query?function=TREASURY_YIELD&interval=daily&maturity=2year',
    );
    expect(locateSeries('market', 'Polygon aggs SPY 1/day 2026-01-01..2026-02-01 (adjusted=true)').where).toBe(
      'https://api.massive.com/v2/aggs/ticker/SPY/range/1/day/2026-01-01/2026-02-01',
    );
    const keyed = locateSeries('economic', 'FRED https://api.stlouisfed.org/fred/series/observations?series_id=DGS2&api_key=abc123&file_type=json');
    expect(keyed).toEqual({ provider: 'economic', where: 'https://api.stlouisfed.org/fred/series/observations?series_id=DGS2&file_type=json', kind: 'url' });
    expect(withoutSecrets('https://u:p@x.test/a?token=t&apikey=k&access_token=z&q=1')).toBe('https://x.test/a?q=1');
    for (const s of ['https://x.test/a?apikey=k', 'https://x.test/a?X-Amz-Signature=s&b=1', 'https://x.test/?auth=1'])
      expect(withoutSecrets(s)).not.toMatch(SECRET);
  });
});
