import { createHash } from 'node:crypto';
import type { FeedItem } from './feed';

/** A story kept after deduplication, with the other feeds that carried it. */
export interface NewsItem extends FeedItem {
  alsoIn: string[];
}

/**
 * One story per identity, across feeds: the guid/id when the feed gives one, else the link, else a
 * hash of the normalised title and date. The first feed (in the PM's order) keeps the story; the
 * others are listed so the analyst sees it was widely carried.
 */
export function dedupe(items: FeedItem[]): NewsItem[] {
  const byKey = new Map<string, NewsItem>();
  const kept: NewsItem[] = [];
  for (const item of items) {
    const keys = identityKeys(item);
    const seen = keys.map((k) => byKey.get(k)).find(Boolean);
    if (seen) {
      if (seen.feed !== item.feed && !seen.alsoIn.includes(item.feed)) seen.alsoIn.push(item.feed);
      // A copy may know what the first did not (a date, a link): fill the gaps, never overwrite.
      if (!seen.published && item.published) seen.published = item.published;
      if (!seen.link && item.link) seen.link = item.link;
      for (const k of keys) if (!byKey.has(k)) byKey.set(k, seen);
      continue;
    }
    const kept1: NewsItem = { ...item, alsoIn: [] };
    kept.push(kept1);
    for (const k of keys) byKey.set(k, kept1);
  }
  return kept;
}

/** guid and link both identify a story (syndicated copies often share one but not the other); title+date only when neither exists. */
function identityKeys(item: FeedItem): string[] {
  const keys: string[] = [];
  if (item.guid) keys.push(`id:${item.guid}`);
  if (item.link) keys.push(`link:${normaliseLink(item.link)}`);
  if (!keys.length) {
    const title = item.title
      .toLowerCase()
      .replace(/[^\p{L}\p{N}]+/gu, ' ')
      .trim();
    keys.push(
      `title:${createHash('sha256')
        .update(`${title}|${item.published ?? ''}`)
        .digest('hex')}`,
    );
  }
  return keys;
}

/** The same article reached by a slightly different URL: no fragment, no tracking params, no trailing slash, host in lower case. */
export function normaliseLink(link: string): string {
  try {
    const u = new URL(link);
    u.hash = '';
    for (const k of [...u.searchParams.keys()]) if (/^(utm_|at_medium$|at_campaign$|ocid$|cmpid$)/i.test(k)) u.searchParams.delete(k);
    const s = `${u.protocol}//${u.host.toLowerCase()}${u.pathname.replace(/\/+$/, '')}${u.search}`;
    return s.replace(/^http:/, 'https:');
  } catch {
    return link;
  }
}

export interface NewsFilter {
  /** Keywords; every one must appear (case-insensitive, at a word start). Quoted phrases count as one. */
  query?: string;
  /** Inclusive YYYY-MM-DD bounds on the published date (UTC). */
  since?: string;
  until?: string;
  /** The session's as-of date: nothing published after it, and nothing whose date is unknown. */
  asOf?: string;
}

export function keywordTerms(query: string | undefined): string[] {
  if (!query) return [];
  const terms: string[] = [];
  for (const m of query.matchAll(/"([^"]+)"|(\S+)/g)) {
    const t = (m[1] ?? m[2] ?? '').toLowerCase().trim();
    if (t) terms.push(t);
  }
  return terms;
}

/** Filters by keywords and dates; newest first, undated stories last (in feed order). */
export function selectItems(items: NewsItem[], f: NewsFilter): NewsItem[] {
  const terms = keywordTerms(f.query).map((t) => new RegExp(`(?<![\\p{L}\\p{N}])${escapeRegExp(t)}`, 'iu'));
  const dated = f.since !== undefined || f.until !== undefined || f.asOf !== undefined;
  const until = [f.until, f.asOf].filter((d): d is string => d !== undefined).sort()[0];
  const out = items.filter((it) => {
    if (terms.length) {
      const hay = `${it.title} ${it.summary}`;
      if (!terms.every((re) => re.test(hay))) return false;
    }
    // A date filter cannot vouch for an undated story, so it leaves it out.
    if (dated && !it.published) return false;
    const day = it.published?.slice(0, 10);
    if (day && f.since && day < f.since) return false;
    if (day && until && day > until) return false;
    return true;
  });
  const withDate = out.filter((i) => i.published).sort((a, b) => (a.published! < b.published! ? 1 : a.published! > b.published! ? -1 : 0));
  return withDate.concat(out.filter((i) => !i.published));
}

function escapeRegExp(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
