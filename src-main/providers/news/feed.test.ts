import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ProviderError } from '../provider';
import { parseFeedDate } from './dates';
import { parseFeed } from './feed';
import { dedupe, normaliseLink, selectItems } from './select';

const fixture = (name: string) => readFileSync(join(__dirname, 'fixtures', name), 'utf8');

describe('feed dates', () => {
  it('reads RSS (RFC 822) dates with GMT, numeric offsets, US zone names, two-digit years and no seconds as ISO UTC', () => {
    expect(parseFeedDate('Thu, 13 Nov 2026 12:05:14 GMT')).toBe('2026-11-13T12:05:14.000Z');
    expect(parseFeedDate('Fri, 14 Nov 2026 07:00:02 +0000')).toBe('2026-11-14T07:00:02.000Z');
    expect(parseFeedDate('Mon, 10 Nov 2026 22:15:00 EST')).toBe('2026-11-11T03:15:00.000Z');
    expect(parseFeedDate('Mon, 10 Nov 2026 22:15:00 +0530')).toBe('2026-11-10T16:45:00.000Z');
    expect(parseFeedDate('4 Dec 24 9:05 PDT')).toBe('2024-12-04T16:05:00.000Z');
    expect(parseFeedDate('Wed,  4   Dec 2024 09:05:00 -0000')).toBe('2024-12-04T09:05:00.000Z');
  });

  it('reads Atom (RFC 3339) dates with Z, offsets and fractions as ISO UTC', () => {
    expect(parseFeedDate('2026-11-07T13:45:00-05:00')).toBe('2026-11-07T18:45:00.000Z');
    expect(parseFeedDate('2026-11-14T09:30:00.25+01:00')).toBe('2026-11-14T08:30:00.250Z');
    expect(parseFeedDate('2026-11-14T09:30:00Z')).toBe('2026-11-14T09:30:00.000Z');
    expect(parseFeedDate('2026-11-14')).toBe('2026-11-14T00:00:00.000Z');
  });

  it('refuses what it cannot read exactly rather than guessing a date the PM would trust', () => {
    for (const bad of [
      'yesterday',
      '31 Feb 2026 10:00:00 GMT',
      'Thu, 13 Nov 2026 25:05:14 GMT',
      '2026-13-01T00:00:00Z',
      'Thu, 13 Nov 2026 12:05:14 XYZ',
      '',
      'Thu, 13 Foo 2026 12:05:14 GMT',
    ]) {
      expect(parseFeedDate(bad), bad).toBeNull();
    }
  });
});

describe('parseFeed', () => {
  it('reads a BBC-style RSS 2.0 feed: CDATA titles, HTML stripped from descriptions (scripts dropped), entities decoded, undated items kept and flagged', () => {
    const { title, items } = parseFeed(fixture('bbc-business.rss.xml'), 'BBC Business', 'https://feeds.bbci.co.uk/news/business/rss.xml');
    expect(title).toBe('BBC News - Business');
    expect(items).toHaveLength(4);
    expect(items[0]).toEqual({
      feed: 'BBC Business',
      title: 'Bank of England holds rates at 4% as inflation eases',
      link: 'https://www.bbc.com/news/articles/c0boe4rates?at_medium=RSS&at_campaign=rss',
      guid: 'https://www.bbc.com/news/articles/c0boe4rates#0',
      published: '2026-11-13T12:05:14.000Z',
      summary: "The Bank's Monetary Policy Committee voted 5-4 to keep rates on hold, signalling cuts next year.",
    });
    expect(items[1]!.summary).toBe('Growth slowed from 0.3% & the Treasury said “more work” is needed.');
    expect(items[2]!.published).toBe('2026-11-11T03:15:00.000Z');
    expect(items[3]!.published).toBeNull();
  });

  it('reads an Atom 1.0 feed: the alternate link resolved against the feed URL, <published> before <updated>, escaped-HTML and XHTML content as text', () => {
    const { title, items } = parseFeed(fixture('markets.atom.xml'), 'Wire Markets', 'https://www.example-wire.com/markets/feed.atom');
    expect(title).toBe('Example Wire — Markets');
    expect(items.map((i) => i.link)).toEqual([
      'https://www.example-wire.com/markets/payrolls-yields-2026-11-07',
      'https://www.example-wire.com/markets/opec-cut-2026-11-10',
      'https://www.example-wire.com/markets/ecb-lagarde-2026-11-14',
    ]);
    expect(items[0]!.title).toBe('Treasury yields climb as payrolls & wages beat forecasts');
    expect(items[0]!.published).toBe('2026-11-07T18:45:00.000Z');
    expect(items[0]!.summary).toBe('The 10-year yield rose 12bp to 4.61%. Futures now price one cut.');
    expect(items[1]!.published).toBe('2026-11-11T03:15:00.000Z');
    expect(items[2]!.summary).toBe('Speaking in Frankfurt, Lagarde said the council would decide meeting by meeting.');
    expect(items[2]!.guid).toBe('tag:example-wire.com,2026:markets/ecb-lagarde');
  });

  it('survives a "billion laughs" entity bomb without expanding it', () => {
    // Expanded, the title would run to gigabytes (the test would run out of memory); capped, it stays short.
    const { items } = parseFeed(fixture('billion-laughs.rss.xml'), 'Laughs', 'https://x.test/feed');
    expect(items).toHaveLength(1);
    expect(items[0]!.title.length).toBeLessThan(400);
    expect(items[0]!.title).not.toContain('lollollol');
  });

  it('reads a large real-shaped feed whose escaped HTML holds more than 2,000 escapes', () => {
    // Without this, a national newspaper's whole feed failed ("entity expansion count limit") and the
    // PM saw no headlines from it at all. The fixture is built in the shape of such a feed (see fixtures/README.md).
    const xml = fixture('national-us.rss.xml');
    expect(xml.match(/&(amp|lt|gt|quot|apos);/g)!.length).toBeGreaterThan(2000);
    const { title, items } = parseFeed(xml, 'National US', 'https://www.example-national.com/us/rss');
    expect(title).toBe('Example National | US');
    expect(items).toHaveLength(40);
    expect(items[0]!.link).toBe('https://www.example-national.com/business/2026/nov/06/treasury-yields-jobs-report-1');
    expect(items[0]!.summary).toMatch(/^Employers added more workers than expected – “the numbers speak for themselves”, one analyst said Bond traders /);
    expect(items[0]!.summary).toContain('Related coverage & analysis.');
    expect(items[0]!.summary).not.toMatch(/[<>]|&amp;/);
    expect(items[39]!.published).toBe('2026-11-02T11:15:00.000Z');
  });

  it('still decodes numeric character references and the five XML escapes in titles', () => {
    const xml =
      '<rss><channel><item><title>Q&amp;A: &lt;b&gt;yields&lt;/b&gt; &#8220;up&#8221; &apos;12bp&apos; &quot;ok&quot; caf&#xE9;</title></item></channel></rss>';
    expect(parseFeed(xml, 'Esc', 'https://x.test/').items[0]!.title).toBe('Q&A: yields “up” \'12bp\' "ok" café');
  });

  it('refuses an entity that expands past the cap with a clear error instead of eating memory', () => {
    const xml = `<?xml version="1.0"?><!DOCTYPE x [ <!ENTITY a "${'A'.repeat(900)}"> ]><rss><channel><item><title>${'&a;'.repeat(500)}</title></item></channel></rss>`;
    expect(() => parseFeed(xml, 'Bomb', 'https://x.test/')).toThrowError(/Feed "Bomb" could not be read/);
  });

  it('names the feed and the line of malformed XML', () => {
    const xml = '<?xml version="1.0"?>\n<rss version="2.0"><channel>\n<item><title>Broken</item></channel></rss>';
    const err = catchError(() => parseFeed(xml, 'Broken Wire', 'https://x.test/'));
    expect(err).toBeInstanceOf(ProviderError);
    expect(err.kind).toBe('bad_response');
    expect(err.message).toMatch(/^Feed "Broken Wire" is not well-formed XML \(line 3: /);
  });

  it('refuses XML that is neither RSS nor Atom (an HTML page or an API error served as XML)', () => {
    expect(() => parseFeed('<error><code>403</code></error>', 'Odd', 'https://x.test/')).toThrowError(
      'Feed "Odd" is neither RSS nor Atom (its root element is <error>).',
    );
  });

  it('drops javascript: links from outsiders', () => {
    const xml = '<rss><channel><item><title>x</title><link>javascript:alert(1)</link></item></channel></rss>';
    expect(parseFeed(xml, 'F', 'https://x.test/').items[0]!.link).toBe('');
  });
});

describe('dedupe and select', () => {
  const base = { summary: '', guid: '', link: '', published: null as string | null };

  it('keeps one story per guid, per link (tracking params and fragments ignored) and per title+date when neither exists, listing the other feeds', () => {
    const items = dedupe([
      { ...base, feed: 'A', title: 'Fed holds', guid: 'g1', published: '2026-11-10T10:00:00.000Z' },
      { ...base, feed: 'B', title: 'Fed holds rates', guid: 'g1' },
      { ...base, feed: 'A', title: 'Oil jumps', link: 'https://w.test/oil?utm_source=rss#top' },
      { ...base, feed: 'B', title: 'Oil prices jump', guid: 'other', link: 'http://W.test/oil/' },
      { ...base, feed: 'A', title: 'Gilts  rally!', published: '2026-11-12T08:00:00.000Z' },
      { ...base, feed: 'C', title: 'gilts rally', published: '2026-11-12T08:00:00.000Z' },
      { ...base, feed: 'C', title: 'Gilts rally', published: '2026-11-13T08:00:00.000Z' },
    ]);
    expect(items.map((i) => [i.feed, i.title, i.alsoIn])).toEqual([
      ['A', 'Fed holds', ['B']],
      ['A', 'Oil jumps', ['B']],
      ['A', 'Gilts  rally!', ['C']],
      ['C', 'Gilts rally', []],
    ]);
  });

  it('normalises links so the same article is recognised', () => {
    expect(normaliseLink('http://WWW.Bbc.com/news/a/?at_medium=RSS&at_campaign=rss#x')).toBe(normaliseLink('https://www.bbc.com/news/a'));
    expect(normaliseLink('https://x.test/a?id=1')).not.toBe(normaliseLink('https://x.test/a?id=2'));
  });

  it('matches every keyword at a word start, case-insensitively, and sorts newest first with undated last', () => {
    const items = dedupe([
      { ...base, feed: 'A', guid: '1', title: 'ECB holds rates', published: '2026-11-10T10:00:00.000Z' },
      { ...base, feed: 'A', guid: '2', title: 'Corporate bonds', summary: 'ECB speakers', published: '2026-11-12T10:00:00.000Z' },
      { ...base, feed: 'A', guid: '3', title: 'ECB rate path', summary: 'undated' },
      { ...base, feed: 'A', guid: '4', title: 'BoE rates', published: '2026-11-13T10:00:00.000Z' },
    ]);
    expect(selectItems(items, { query: 'ecb RATE' }).map((i) => i.guid)).toEqual(['1', '3']);
    expect(selectItems(items, { query: '"holds rates"' }).map((i) => i.guid)).toEqual(['1']);
    expect(selectItems(items, {}).map((i) => i.guid)).toEqual(['4', '2', '1', '3']);
  });

  it('applies since/until and the session as-of inclusively by UTC day, leaving out undated stories it cannot vouch for', () => {
    const items = dedupe([
      { ...base, feed: 'A', guid: '1', title: 'a', published: '2026-11-10T23:59:00.000Z' },
      { ...base, feed: 'A', guid: '2', title: 'b', published: '2026-11-12T00:00:00.000Z' },
      { ...base, feed: 'A', guid: '3', title: 'c', published: '2026-11-14T10:00:00.000Z' },
      { ...base, feed: 'A', guid: '4', title: 'd' },
    ]);
    expect(selectItems(items, { asOf: '2026-11-12' }).map((i) => i.guid)).toEqual(['2', '1']);
    expect(selectItems(items, { since: '2026-11-11', until: '2026-11-20', asOf: '2026-11-13' }).map((i) => i.guid)).toEqual(['2']);
    expect(selectItems(items, { since: '2026-11-11' }).map((i) => i.guid)).toEqual(['3', '2']);
  });
});

function catchError(fn: () => unknown): ProviderError {
  try {
    fn();
  } catch (e) {
    return e as ProviderError;
  }
  throw new Error('expected an error');
}
