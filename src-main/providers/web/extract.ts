import { Readability } from '@mozilla/readability';
import { articleHeading, cleanByline, pageByline } from './byline';
import { type HtmlDocument, parseDocument } from './dom';
import { domText, NON_TEXT } from './text';

export interface ReadablePage {
  title: string;
  byline: string | null;
  siteName: string | null;
  /** ISO UTC when the page states when it was published (meta tags, JSON-LD), else null. */
  published: string | null;
  text: string;
  /** 'article' when Readability found the story; 'body' when it did not and the whole body was used. */
  method: 'article' | 'body';
}

/** Below this many characters Readability's "article" is probably a cookie banner or a caption: use the body. */
const MIN_ARTICLE_CHARS = 200;

/**
 * The readable text of an HTML page: Readability's article when it finds one (navigation, ads and
 * footers dropped), else the plain text of <body> without its navigation chrome. Scripts and
 * styles never reach the text either way.
 */
export function extractReadable(html: string, url: string): ReadablePage {
  const doc = load(html);
  const docTitle = (doc.querySelector('title')?.textContent ?? '').replace(/\s+/g, ' ').trim();
  const metaPublished = statedPublished(doc);
  let article: ReturnType<Readability['parse']> = null;
  try {
    // Readability rewrites the document it reads, so it gets its own copy.
    article = new Readability(load(html) as unknown as ConstructorParameters<typeof Readability>[0], { charThreshold: MIN_ARTICLE_CHARS }).parse();
  } catch {
    // A page Readability cannot walk still has a body to read.
    article = null;
  }
  const articleText = article?.content ? domText(load(`<!doctype html><html><body>${article.content}</body></html>`).body!) : '';
  const published = toIso(article?.publishedTime) ?? metaPublished;
  if (articleText.length >= MIN_ARTICLE_CHARS) {
    return {
      // What the reader sees above the story, not the <title> ("Markets live: … — Site") or an SEO headline.
      title: articleHeading(doc) || clean(article?.title) || docTitle || url,
      byline: cleanByline(article?.byline) ?? pageByline(doc),
      siteName: clean(article?.siteName) || null,
      published,
      text: articleText,
      method: 'article',
    };
  }
  for (const el of doc.querySelectorAll('nav, header, footer, aside, form, [role="navigation"], [aria-hidden="true"]')) el.remove();
  const body = doc.body ? domText(doc.body) : '';
  return {
    title: docTitle || clean(article?.title) || url,
    byline: cleanByline(article?.byline),
    siteName: clean(article?.siteName) || null,
    published,
    text: body || articleText,
    method: 'body',
  };
}

function load(html: string): HtmlDocument {
  const document = parseDocument(html);
  for (const el of document.querySelectorAll(NON_TEXT)) {
    // JSON-LD carries the published date; keep it for the metadata pass, never for the text.
    if (el.getAttribute('type') !== 'application/ld+json') el.remove();
  }
  return document;
}

/** Published date from the usual meta tags, when Readability did not find one. */
function statedPublished(doc: HtmlDocument): string | null {
  const selectors = [
    'meta[property="article:published_time"]',
    'meta[name="article:published_time"]',
    'meta[itemprop="datePublished"]',
    'meta[name="date"]',
    'meta[name="dc.date"]',
    'meta[name="DC.date.issued"]',
    'time[itemprop="datePublished"]',
  ];
  for (const sel of selectors) {
    const el = doc.querySelector(sel);
    const iso = toIso(el?.getAttribute('content') ?? el?.getAttribute('datetime'));
    if (iso) return iso;
  }
  return null;
}

/** An ISO 8601 date-time or date, to ISO UTC; anything vaguer is not a date the as-of can rest on. */
function toIso(s: string | null | undefined): string | null {
  if (!s) return null;
  const t = s.trim();
  if (!/^\d{4}-\d{2}-\d{2}(?:[T ]\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:Z|[+-]\d{2}:?\d{2})?)?$/i.test(t)) return null;
  // No zone stated: read as UTC, never as this machine's local time.
  const zoned = t.length === 10 ? `${t}T00:00:00Z` : /(?:Z|[+-]\d{2}:?\d{2})$/i.test(t) ? t : `${t}Z`;
  const ms = Date.parse(zoned.replace(' ', 'T').replace(/([+-]\d{2})(\d{2})$/, '$1:$2'));
  return Number.isNaN(ms) ? null : new Date(ms).toISOString();
}

function clean(s: string | null | undefined): string {
  return (s ?? '').replace(/\s+/g, ' ').trim();
}
