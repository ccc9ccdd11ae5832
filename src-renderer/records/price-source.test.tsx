import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import type { PriceSourceView } from '../../src-main/api/price-source';
import { PriceSourceTable, sourceLabel } from './price-source';

const text = (html: string) => html.replace(/<[^>]+>/g, '|').replace(/\|+/g, '|');

const view: PriceSourceView = {
  id: 'E-004',
  entryDate: '2024-03-25',
  from: '2024-03-15',
  to: '2024-04-03',
  recorded: null,
  note: null,
  tracker: null,
  trackerNote: null,
  series: [
    {
      ref: 'yahoo-spy.closing',
      used: false,
      provider: null,
      source: null,
      asOf: null,
      lastClose: null,
      closes: 0,
      kind: null,
      problem: 'No market data for yahoo-spy.closing: Unknown column(s) closing; "yahoo-spy" has Date, Open, High, Low, Close, Adj Close, Volume.',
    },
    {
      ref: 'yahoo-spy.adj_close',
      used: true,
      provider: 'datasets',
      source: 'csv datasets/yahoo-spy.csv',
      asOf: '2024-04-02',
      lastClose: { date: '2024-04-02', close: 513.29126 },
      closes: 6,
      kind: null,
      problem: null,
    },
  ],
};

describe('the Expression page’s "Prices from" section', () => {
  it('names the file the tracker follows, its as-of and last close, and why another entry gives nothing', () => {
    // Failing this, a PM could not tell which of their files (if any) "Check exits now" reads.
    const t = text(renderToStaticMarkup(<PriceSourceTable view={view} />));
    expect(t).toContain(
      'Prices from |Your data folder: datasets/yahoo-spy.csv| (yahoo-spy.adj_close), as of |2024-04-02|: last close |513.29126| on |2024-04-02|.',
    );
    expect(t).toContain(
      '|yahoo-spy.adj_close|Your data folder: datasets/yahoo-spy.csv|2024-04-02|513.29126 (2024-04-02)|Followed by the tracker: 6 closes in the window.|',
    );
    expect(t).toContain('|yahoo-spy.closing|—|—|—|No market data for yahoo-spy.closing: Unknown column(s) closing;');
    expect(t).toContain('closes from 2024-03-15 to 2024-04-03 (10 days before the entry date 2024-03-25)');
  });

  it('says so when nothing resolves, and shows what a closed trade was priced from', () => {
    const none = text(renderToStaticMarkup(<PriceSourceTable view={{ ...view, series: [view.series[0]!] }} />));
    expect(none).toContain('cannot follow it');
    const closed = text(
      renderToStaticMarkup(
        <PriceSourceTable view={{ ...view, recorded: { series: 'yahoo-spy.close', source: 'datasets: csv datasets/yahoo-spy.csv', asOf: '2024-04-02' } }} />,
      ),
    );
    expect(closed).toContain('Closed by the tracker on |yahoo-spy.close| from datasets: csv datasets/yahoo-spy.csv, as of |2024-04-02|.');
  });

  it('says what Check exits now would do: the exit it would take, or the mark at the last close and the levels', () => {
    // Failing this, the PM would learn what the tracker does with the trade only after it did it.
    const tracker = {
      series: 'yahoo-spy.close',
      quote: 'price' as const,
      gainsWhen: 'up' as const,
      entryPrice: 519.77002,
      entryDate: '2024-03-25',
      target: 530,
      stop: 500,
      exitBy: null,
      lastClose: { date: '2024-04-02', close: 518.840027 },
      atLastClose: { pnlPct: -0.1789, pnlBp: -0.89 },
      exit: null,
      waiting: null,
    };
    const open = text(renderToStaticMarkup(<PriceSourceTable view={{ ...view, tracker }} />));
    expect(open).toContain(
      '“Check exits now” would keep it open: entered 519.77002 on 2024-03-25; target 530, stop 500. At the last close, 518.840027 on 2024-04-02, it stands at −0.89 bp of NAV (−0.1789% of the position).',
    );
    const closing = text(
      renderToStaticMarkup(
        <PriceSourceTable
          view={{ ...view, tracker: { ...tracker, exit: { reason: 'target', date: '2024-03-27', price: 523.169983, pnlPct: 0.6541, pnlBp: 3.27 } } }}
        />,
      ),
    );
    expect(closing).toContain(
      '“Check exits now” would close it at its target on 2024-03-27 at 523.169983: +3.27 bp of NAV (+0.6541% of the position), entered 519.77002 on 2024-03-25.',
    );
    const none = text(renderToStaticMarkup(<PriceSourceTable view={{ ...view, trackerNote: 'Its entry date 2030-01-01 is in the future.' }} />));
    expect(none).toContain('Its entry date 2030-01-01 is in the future.');
  });

  it('labels a vendor source with its provider', () => {
    expect(sourceLabel('market', 'local prices.csv (demo)')).toBe('market: local prices.csv (demo)');
    expect(sourceLabel(null, null)).toBe('—');
  });
});
