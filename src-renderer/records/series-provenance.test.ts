import { describe, expect, it } from 'vitest';
import { provenanceSentence, seriesProvenance } from './series-provenance';

// If these fail, an Outcome's page does not say what it was priced from, links nowhere, or shows a vendor key.
describe('the Outcome / Counterfactual "Priced from" line', () => {
  it('links a data-folder file to the Data screen, the record a hand close was priced from, and an http(s) URL outside', () => {
    const file = seriesProvenance({ series_used: 'spy.close', series_source: 'datasets: datasets/spy.csv', series_as_of: '2024-04-02' })!;
    expect(provenanceSentence(file)).toBe('Priced from spy.close — datasets, datasets/spy.csv, as of 2024-04-02');
    expect(file.link).toEqual({ kind: 'app', href: '#/data/datasets%2Fspy.csv' });
    const byHand = seriesProvenance({ series_used: 'exit_price', series_source: 'pm: /memory/expressions/E-002.md', series_as_of: '2026-02-20' })!;
    expect(byHand.link).toEqual({ kind: 'app', href: '#/expressions/E-002' });
    const url = seriesProvenance({ series_used: 'SPY.US', series_source: 'market/stooq: https://stooq.com/q/d/l/?s=spy.us&i=d', series_as_of: '2026-03-05' })!;
    expect(url.link).toEqual({ kind: 'external', href: 'https://stooq.com/q/d/l/?s=spy.us&i=d' });
  });

  it('never shows or links a key, even one written into an older record', () => {
    const p = seriesProvenance({
      series_used: 'DGS2',
      series_source: 'economic: https://api.example.test/obs?series_id=DGS2&api_key=SECRET123&token=t',
      series_as_of: '2026-01-02',
    })!;
    expect(p.where).toBe('https://api.example.test/obs?series_id=DGS2');
    expect(JSON.stringify(p)).not.toContain('SECRET123');
    expect(seriesProvenance({ series_used: 'x', series_source: 'y: javascript:alert(1)', series_as_of: '2026-01-01' })!.link).toBeNull();
  });

  it('says plainly when nothing answered, and shows nothing on a record without the fields', () => {
    const none = seriesProvenance({ series_used: 'NOSUCH', series_source: 'none: no source answered', series_as_of: '2026-04-03' })!;
    expect(provenanceSentence(none)).toBe('Not priced: no source answered for NOSUCH (last checked 2026-04-03).');
    expect(seriesProvenance({ status: 'recorded' })).toBeNull();
  });
});
