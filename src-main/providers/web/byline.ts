import type { HtmlDocument, HtmlNode } from './dom';

/**
 * The article's headline and byline as a reader sees them. Readability takes the title from
 * metadata or `<title>` ("Markets live: Fed decision — Example News") and the byline from the
 * first element that looks like one, page furniture included ("By Jane Doe · November 12, 2026 ·
 * Share"): the analyst quotes both, so they should be what is printed above the story.
 */

const MONTH = '(?:jan|feb|mar|apr|may|jun|jul|aug|sep|sept|oct|nov|dec)[a-z]*\\.?';
/** Segments of a byline that are not who wrote it: dates, times, "Updated", sharing and reading-time widgets. */
const FURNITURE = [
  new RegExp(`\\b${MONTH}\\s+\\d{1,2}\\b|\\b\\d{1,2}\\s+${MONTH}\\b`, 'i'),
  /\b\d{4}-\d{2}-\d{2}\b|\b\d{1,2}\/\d{1,2}\/\d{2,4}\b|\b\d{1,2}:\d{2}\b/,
  /^(?:updated|published|posted|last updated|modified)\b/i,
  /\b\d+\s*(?:min|mins|minutes?)\s+read\b/i,
  /^(?:share|follow|email|e-mail|print|save|comments?|subscribe|listen|gift)\b/i,
  /\b(?:hours?|minutes?|days?)\s+ago\b/i,
  /(?:^|\s)@\w+/,
];
const BYLINE_MAX = 200;

/** Who wrote the story, without "By", dates or widgets; null when nothing like a name is left. */
export function cleanByline(raw: string | null | undefined): string | null {
  const text = (raw ?? '').replace(/\s+/g, ' ').trim();
  if (!text) return null;
  const kept = text
    .split(/\s*(?:[·•|]|\s[—–-]\s)\s*/)
    .map((s) =>
      s
        .replace(/^by\s+/i, '')
        .replace(/[,;:]+$/, '')
        .trim(),
    )
    .filter((s) => s && !FURNITURE.some((re) => re.test(s)));
  const out = kept.join(', ');
  return out ? out.slice(0, BYLINE_MAX) : null;
}

/** The story's own byline element, read from the page when Readability gave none or a noisy one. */
export function pageByline(doc: HtmlDocument): string | null {
  const el = firstOutsideChrome(doc, '[itemprop="author"], .byline, .by-line, [class*="byline"], [rel="author"]');
  if (!el) return null;
  // Linked author names are the cleanest reading of a byline: "By <a>Jane Doe</a> and <a>Li Wei</a> · Share".
  const names = [...el.querySelectorAll('a[rel="author"], [itemprop="name"], a[href*="/author"], a[href*="/people/"], a[href*="/profile"]')]
    .map((n) => (n.textContent ?? '').replace(/\s+/g, ' ').trim())
    .filter((s, i, all) => s && all.indexOf(s) === i && !FURNITURE.some((re) => re.test(s)));
  if (names.length) return names.join(', ').slice(0, BYLINE_MAX);
  return cleanByline(el.getAttribute('content') ?? el.textContent);
}

/** The headline printed above the story: the article's `h1` (or the page's only `h1` outside its header). */
export function articleHeading(doc: HtmlDocument): string | null {
  const inArticle = firstOutsideChrome(doc, 'article h1, main h1, [role="main"] h1');
  const all = [...doc.querySelectorAll('h1')].filter((h) => !inChrome(h));
  const h = inArticle ?? (all.length === 1 ? all[0]! : null);
  const text = (h?.textContent ?? '').replace(/\s+/g, ' ').trim();
  return text.length >= 3 && text.length <= 300 ? text : null;
}

function firstOutsideChrome(doc: HtmlDocument, selector: string): HtmlNode | null {
  for (const el of doc.querySelectorAll(selector)) if (!inChrome(el)) return el;
  return null;
}

/** Site header, navigation, footer and sidebars: their h1 is the logo, their "author" links are someone else's. */
function inChrome(el: HtmlNode): boolean {
  if (el.closest('nav, footer, aside, [role="navigation"], [role="banner"]')) return true;
  // An <article>'s own <header> holds its headline and byline; the page's <header> holds the logo.
  return !!el.closest('header') && !el.closest('article');
}
