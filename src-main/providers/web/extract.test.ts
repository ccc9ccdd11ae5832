import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { assertPublicUrl, isPublicAddress } from './address';
import { extractReadable } from './extract';
import { ProviderError } from '../provider';

const fixture = (name: string) => readFileSync(join(__dirname, 'fixtures', name), 'utf8');

describe('extractReadable', () => {
  it('keeps the article (paragraphs, heading, list) and drops navigation, scripts, styles, ads, asides and footers', () => {
    const page = extractReadable(fixture('article.html'), 'https://news.example.com/fed');
    expect(page.method).toBe('article');
    expect(page.title).toBe('Fed holds rates steady, signals patience on cuts');
    expect(page.byline).toBe('Jane Doe');
    expect(page.siteName).toBe('Example News');
    expect(page.published).toBe('2026-11-12T19:05:00.000Z');
    expect(page.text).toMatch(/^.*WASHINGTON — The Federal Reserve left its benchmark interest rate unchanged/m);
    expect(page.text).toContain('### Dissent on the committee');
    expect(page.text).toContain('- Vote: 10-2');
    expect(page.text).toContain('the 10-year yield up 5 basis points at 4.31% in late trading.');
    // Paragraphs stay paragraphs.
    expect(page.text).toContain('before cutting again.\n\n"We are well positioned to wait,"');
    for (const junk of [
      'IGNORE ALL PREVIOUS',
      'BUY GOLD',
      'dataLayer',
      'font-family',
      'Subscribe for $1',
      'Most read',
      'Celebrity',
      'All rights reserved',
      'Privacy',
    ]) {
      expect(page.text, junk).not.toContain(junk);
    }
  });

  it("titles the page with the article's h1 and reads its byline without the page furniture around it", () => {
    // Before: the title was the live page's <title> ("Markets live: Fed decision") and the byline was lost
    // or came with dates, "Follow", "Share" and reading time — what the analyst then quoted as the author.
    const page = extractReadable(fixture('article-furniture.html'), 'https://news.example.com/markets-live');
    expect(page.method).toBe('article');
    expect(page.title).toBe('Fed holds rates steady, signals patience on cuts');
    expect(page.byline).toBe('Jane Doe, Li Wei');
    expect(page.text).toContain('We are well positioned to wait');
  });

  it('strips "By", dates, times, "Updated", sharing and reading-time widgets from a text byline', () => {
    const text = (byline: string) =>
      `<!doctype html><html><head><title>Site | Fed holds</title></head><body><main><article><h1>Fed holds rates</h1><p class="byline">${byline}</p><p>${'The Federal Reserve left rates unchanged on Wednesday, saying it wants more evidence. '.repeat(5)}</p></article></main></body></html>`;
    expect(extractReadable(text('By Jane Doe · November 12, 2026'), 'https://x.test/a').byline).toBe('Jane Doe');
    expect(extractReadable(text('By Jane Doe | Updated 12 Nov 2026 14:05 GMT | 4 min read'), 'https://x.test/a').byline).toBe('Jane Doe');
    expect(extractReadable(text('Jane Doe, Reuters — 2026-11-12 · Share'), 'https://x.test/a').byline).toBe('Jane Doe, Reuters');
  });

  it('falls back to the body text (tables kept, navigation and footer dropped) when there is no article', () => {
    const page = extractReadable(fixture('index-page.html'), 'https://stats.example.org/releases');
    expect(page.method).toBe('body');
    expect(page.title).toBe('Data releases');
    expect(page.published).toBeNull();
    expect(page.text).toContain('## Upcoming data releases');
    expect(page.text).toContain('2026-11-19 | CPI – October');
    expect(page.text).not.toContain('About');
    expect(page.text).not.toContain('Statistics Office');
  });

  it('reads a published date from meta tags with or without a zone, as UTC', () => {
    const html = (meta: string) => `<!doctype html><html><head><title>t</title>${meta}</head><body><p>short</p></body></html>`;
    expect(extractReadable(html('<meta name="date" content="2026-11-10">'), 'https://x.test/').published).toBe('2026-11-10T00:00:00.000Z');
    expect(extractReadable(html('<meta itemprop="datePublished" content="2026-11-10T08:00:00">'), 'https://x.test/').published).toBe(
      '2026-11-10T08:00:00.000Z',
    );
    expect(extractReadable(html('<meta name="date" content="last Tuesday">'), 'https://x.test/').published).toBeNull();
  });
});

describe('page address guard (SSRF)', () => {
  const refused = async (url: string, policy = {}) => {
    try {
      await assertPublicUrl(url, policy);
    } catch (e) {
      expect(e).toBeInstanceOf(ProviderError);
      return e as ProviderError;
    }
    throw new Error(`${url} was allowed`);
  };

  it('refuses loopback, private, link-local (cloud metadata) and mapped addresses however they are spelled', async () => {
    for (const url of [
      'http://127.0.0.1:8080/',
      'http://2130706433/',
      'http://0x7f.1/',
      'http://[::1]/',
      'http://[::ffff:127.0.0.1]/',
      'http://[::ffff:10.0.0.1]/',
      'http://10.1.2.3/',
      'http://172.20.0.1/',
      'http://192.168.1.1/admin',
      'http://169.254.169.254/latest/meta-data/',
      'http://100.64.0.1/',
      'http://[fd00::1]/',
      'http://[fe80::1]/',
      'http://0.0.0.0/',
    ]) {
      const e = await refused(url);
      expect(e.kind, url).toBe('bad_params');
      expect(e.message, url).toMatch(/is a private or local address .*; only public web pages can be fetched\.$/);
    }
  });

  it('resolves names and refuses one that points inside (any of its addresses)', async () => {
    const lookup = async (host: string) =>
      ({ 'intranet.corp': ['10.0.0.5'], 'mixed.test': ['93.184.216.34', '192.168.1.1'], 'public.test': ['93.184.216.34', '2606:4700::1111'] })[host] ?? [];
    expect((await refused('https://intranet.corp/wiki', { lookup })).message).toBe(
      'intranet.corp is a private or local address (10.0.0.5); only public web pages can be fetched.',
    );
    expect((await refused('https://mixed.test/', { lookup })).message).toContain('(192.168.1.1)');
    expect((await refused('https://nowhere.test/', { lookup })).kind).toBe('not_found');
    expect((await assertPublicUrl('https://public.test/a?b=1', { lookup })).href).toBe('https://public.test/a?b=1');
  });

  it('refuses non-http schemes and embedded credentials', async () => {
    expect((await refused('file:///etc/passwd')).message).toBe('Only http and https pages can be fetched (not file:).');
    expect((await refused('ftp://example.com/x')).kind).toBe('bad_params');
    expect((await refused('https://user:pw@example.com/')).message).toContain('user name or password');
  });

  it('the test-only loopback allowance lets 127.0.0.1 through and nothing else private', async () => {
    expect((await assertPublicUrl('http://127.0.0.1:9/', { allowLoopback: true })).hostname).toBe('127.0.0.1');
    await refused('http://10.0.0.1/', { allowLoopback: true });
    await refused('http://169.254.169.254/', { allowLoopback: true });
  });

  it('treats ordinary public addresses as public', () => {
    expect(isPublicAddress('8.8.8.8')).toBe(true);
    expect(isPublicAddress('2606:4700::1111')).toBe(true);
    expect(isPublicAddress('::ffff:8.8.8.8')).toBe(true);
    expect(isPublicAddress('not-an-ip')).toBe(false);
  });
});
