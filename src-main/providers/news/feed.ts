import { XMLParser, XMLValidator } from 'fast-xml-parser';
import { ProviderError } from '../provider';
import { parseFeedDate } from './dates';
import { cap, plainText, textOf } from './text';

/** One headline as a feed published it, normalised. */
export interface FeedItem {
  /** The configured feed's name (the PM's label, e.g. `BBC Business`). */
  feed: string;
  title: string;
  /** Absolute http(s) link, or '' when the feed gave none we can trust. */
  link: string;
  /** RSS guid / Atom id, as published. */
  guid: string;
  /** ISO UTC, or null when the feed gave no readable date (kept, but flagged). */
  published: string | null;
  /** Plain text, HTML stripped, capped. */
  summary: string;
}

export const TITLE_MAX = 300;
export const SUMMARY_MAX = 600;
/** A feed with more entries than this is trimmed (real feeds carry 10–100). */
const ITEMS_PER_FEED_MAX = 500;

/**
 * Outsiders' XML, so the parser is configured defensively: DOCTYPE entities are capped (count,
 * size, nesting, expansions, expanded length) so a "billion laughs" feed fails fast instead of
 * eating memory; values stay strings (a guid `0123` must not become 123); attributes are read
 * (Atom links live in them). The caps apply only to entities the document declares itself
 * (`appliesTo: 'external'`): the five XML escapes cannot expand, and a real feed's escaped HTML
 * holds thousands of `&lt;`/`&amp;` (a national newspaper's US feed has 1,852), so counting them
 * made whole feeds fail.
 */
// A variable, not an inline literal: fast-xml-parser 5.12's typings omit `appliesTo`, which its runtime reads.
const entityLimits = {
  enabled: true,
  maxEntityCount: 20,
  maxEntitySize: 1000,
  maxExpansionDepth: 2,
  maxTotalExpansions: 1000,
  maxExpandedLength: 100_000,
  appliesTo: 'external',
};
const parser = new XMLParser({
  ignoreAttributes: false,
  attributeNamePrefix: '@_',
  parseTagValue: false,
  parseAttributeValue: false,
  trimValues: true,
  processEntities: entityLimits,
  htmlEntities: false,
  isArray: (name) => name === 'item' || name === 'entry' || name === 'link',
});

type Node = Record<string, unknown>;

/** Parses an RSS 2.0 (or 0.9x / 1.0 RDF) or Atom 1.0 document; a document that is neither is a ProviderError('bad_response'). */
export function parseFeed(xml: string, feedName: string, baseUrl: string): { title: string; items: FeedItem[] } {
  const checked = XMLValidator.validate(xml);
  if (checked !== true) {
    const { msg, line } = checked.err;
    throw new ProviderError(`Feed "${feedName}" is not well-formed XML (line ${line}: ${cap(msg, 160)}).`, 'bad_response');
  }
  let doc: Node;
  try {
    doc = parser.parse(xml) as Node;
  } catch (e) {
    // The entity limits throw here: say so plainly rather than echo the parser's internals.
    throw new ProviderError(`Feed "${feedName}" could not be read (${cap(e instanceof Error ? e.message : String(e), 160)}).`, 'bad_response');
  }
  const rss = asNode(doc.rss);
  const rdf = asNode(doc['rdf:RDF']);
  const atom = asNode(doc.feed);
  if (rss || rdf) {
    const channel = asNode(rss?.channel) ?? asNode(rdf?.channel) ?? {};
    // RSS 2.0 nests items in <channel>; RSS 1.0 (RDF) puts them beside it.
    const rawItems = list(channel.item).concat(list(rdf?.item));
    return { title: plainText(channel.title, TITLE_MAX), items: rawItems.slice(0, ITEMS_PER_FEED_MAX).map((n) => rssItem(n, feedName, baseUrl)) };
  }
  if (atom) {
    return {
      title: plainText(atom.title, TITLE_MAX),
      items: list(atom.entry)
        .slice(0, ITEMS_PER_FEED_MAX)
        .map((n) => atomEntry(n, feedName, baseUrl)),
    };
  }
  const root = Object.keys(doc).find((k) => !k.startsWith('?')) ?? 'nothing';
  throw new ProviderError(`Feed "${feedName}" is neither RSS nor Atom (its root element is <${cap(root, 40)}>).`, 'bad_response');
}

function rssItem(n: Node, feed: string, base: string): FeedItem {
  const link = list(n.link).map(textOf).find(Boolean) ?? '';
  const date = n.pubDate ?? n['dc:date'] ?? n['a10:updated'];
  const body = n.description ?? n['content:encoded'];
  return {
    feed,
    title: plainText(n.title, TITLE_MAX),
    link: absoluteHttp(link, base),
    guid: textOf(n.guid).trim() || textOf(n['@_rdf:about']).trim(),
    published: parseFeedDate(textOf(date)),
    summary: plainText(deepText(body), SUMMARY_MAX),
  };
}

function atomEntry(n: Node, feed: string, base: string): FeedItem {
  // rel="alternate" (or no rel, which means alternate) is the story itself; "self"/"edit"/"enclosure" are not.
  const links = list(n.link)
    .map(asNode)
    .filter((l): l is Node => l !== null);
  const alt = links.find((l) => (textOf(l['@_rel']) || 'alternate') === 'alternate') ?? links[0];
  return {
    feed,
    title: plainText(deepText(n.title), TITLE_MAX),
    link: absoluteHttp(alt ? textOf(alt['@_href']) : '', base),
    guid: textOf(n.id).trim(),
    // <published> is when the story first appeared; <updated> is the fallback Atom requires.
    published: parseFeedDate(textOf(n.published)) ?? parseFeedDate(textOf(n.updated)),
    summary: plainText(deepText(n.summary ?? n.content), SUMMARY_MAX),
  };
}

/** Text of a value that may be an element tree (Atom type="xhtml" content): every text node, attributes skipped. */
function deepText(v: unknown): string {
  if (v === undefined || v === null) return '';
  if (typeof v !== 'object') return textOf(v);
  if (Array.isArray(v)) return v.map(deepText).join(' ');
  return Object.entries(v as Node)
    .filter(([k]) => !k.startsWith('@_'))
    .map(([, child]) => deepText(child))
    .join(' ');
}

/** Only http(s) links survive (a feed's `javascript:` link is not a story); relative links resolve against the feed's URL. */
function absoluteHttp(link: string, base: string): string {
  const s = link.trim();
  if (!s) return '';
  try {
    const u = new URL(s, base);
    return u.protocol === 'http:' || u.protocol === 'https:' ? u.href : '';
  } catch {
    return '';
  }
}

function asNode(v: unknown): Node | null {
  return v && typeof v === 'object' && !Array.isArray(v) ? (v as Node) : null;
}

function list(v: unknown): Node[] {
  if (v === undefined || v === null) return [];
  const arr = Array.isArray(v) ? v : [v];
  // An element with only text parses as a string: wrap it so callers see one shape.
  return arr.map((x) => (typeof x === 'object' && x !== null ? (x as Node) : { '#text': x }));
}
