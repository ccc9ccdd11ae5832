/**
 * The news provider's feed list as the PM edits it. Mirrors the contract's rules (a name of 1–80
 * characters, an http(s) URL, names distinct ignoring case) so a mistake is shown on its row
 * before saving; the server checks the same again and its messages land on the same rows.
 */

export interface FeedRow {
  name: string;
  url: string;
}

/** Errors keyed `<row>.name`, `<row>.url`, or `list` for the whole list. */
export type FeedErrors = Record<string, string>;

export const MAX_FEEDS = 50;

export function checkFeeds(rows: FeedRow[]): FeedErrors {
  const errors: FeedErrors = {};
  const seen = new Map<string, number>();
  rows.forEach((row, i) => {
    const name = row.name.trim();
    if (name === '') errors[`${i}.name`] = 'needs a name';
    else if (name.length > 80) errors[`${i}.name`] = 'must be at most 80 characters';
    else {
      const key = name.toLowerCase();
      const first = seen.get(key);
      if (first !== undefined) errors[`${i}.name`] = `same name as feed ${first + 1}`;
      else seen.set(key, i);
    }
    const url = row.url.trim();
    if (url === '') errors[`${i}.url`] = 'needs an address';
    else if (!isHttpUrl(url)) errors[`${i}.url`] = 'must be an http(s) URL';
    else if (url.length > 2048) errors[`${i}.url`] = 'is too long (2048 characters at most)';
  });
  if (rows.length > MAX_FEEDS) errors.list = `at most ${MAX_FEEDS} feeds`;
  return errors;
}

function isHttpUrl(text: string): boolean {
  try {
    const u = new URL(text);
    return (u.protocol === 'http:' || u.protocol === 'https:') && u.hostname.length > 0;
  } catch {
    return false;
  }
}

/** The rows as sent: trimmed. */
export function cleanFeeds(rows: FeedRow[]): FeedRow[] {
  return rows.map((r) => ({ name: r.name.trim(), url: r.url.trim() }));
}

/**
 * Server field issues (already keyed below `settings`, e.g. `feeds.1.url`) as row errors; an
 * issue on the list itself (`feeds`, e.g. duplicate names) becomes the list's error.
 */
export function feedErrorsFromServer(fields: Record<string, string>): FeedErrors {
  const out: FeedErrors = {};
  for (const [path, message] of Object.entries(fields)) {
    if (path === 'feeds') out.list = message;
    else if (path.startsWith('feeds.')) out[path.slice('feeds.'.length)] = message;
  }
  return out;
}

export function sameFeeds(a: FeedRow[], b: FeedRow[]): boolean {
  return a.length === b.length && a.every((r, i) => r.name === b[i]?.name && r.url === b[i]?.url);
}
