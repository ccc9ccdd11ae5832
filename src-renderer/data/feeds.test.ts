import { describe, expect, it } from 'vitest';
import { checkFeeds, cleanFeeds, feedErrorsFromServer, sameFeeds } from './feeds';

describe('the news feed list', () => {
  it('accepts named http(s) feeds', () => {
    expect(
      checkFeeds([
        { name: 'Fed', url: 'https://www.federalreserve.gov/feeds/press_all.xml' },
        { name: 'ECB', url: 'http://www.ecb.europa.eu/rss/press.html' },
      ]),
    ).toEqual({});
  });

  it('puts each mistake on its own row and column', () => {
    expect(
      checkFeeds([
        { name: '', url: 'ftp://example.com/feed' },
        { name: 'Fed', url: 'not a url' },
        { name: 'fed', url: '' },
      ]),
    ).toEqual({
      '0.name': 'needs a name',
      '0.url': 'must be an http(s) URL',
      '1.url': 'must be an http(s) URL',
      // Names are matched ignoring case, as the analyst passes them as `feed`.
      '2.name': 'same name as feed 2',
      '2.url': 'needs an address',
    });
  });

  it('refuses over-long names and more than fifty feeds', () => {
    expect(checkFeeds([{ name: 'x'.repeat(81), url: 'https://a.example/rss' }])).toEqual({ '0.name': 'must be at most 80 characters' });
    const many = Array.from({ length: 51 }, (_, i) => ({ name: `f${i}`, url: `https://a.example/${i}` }));
    expect(checkFeeds(many)).toEqual({ list: 'at most 50 feeds' });
  });

  it('sends trimmed rows', () => {
    expect(cleanFeeds([{ name: ' Fed ', url: ' https://a.example/rss ' }])).toEqual([{ name: 'Fed', url: 'https://a.example/rss' }]);
  });

  it("lands the server's field issues on the same rows, and a list issue on the list", () => {
    expect(feedErrorsFromServer({ 'feeds.1.url': 'must be an http(s) URL', feeds: 'feed names must be distinct', enabled: 'x' })).toEqual({
      '1.url': 'must be an http(s) URL',
      list: 'feed names must be distinct',
    });
  });

  it('knows when there is nothing to save', () => {
    const a = [{ name: 'Fed', url: 'https://a.example/rss' }];
    expect(sameFeeds(a, [{ ...a[0]! }])).toBe(true);
    expect(sameFeeds(a, [{ ...a[0]!, url: 'https://b.example/rss' }])).toBe(false);
    expect(sameFeeds(a, [])).toBe(false);
  });
});
