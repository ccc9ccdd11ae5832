import { formatHash } from '../app/routes';

/**
 * "Priced from <series> — <provider>, <file|URL>, as of <date>" on an Outcome or Counterfactual:
 * read from the `series_used`, `series_source` (`<provider>: <where>`) and `series_as_of` the
 * tracker wrote (src-main/tracking/series-locator.ts), with where the file or URL opens.
 */
export interface SeriesProvenance {
  series: string;
  provider: string;
  where: string;
  asOf: string;
  /** `external`: an http(s) URL (opened outside the app); `app`: a screen of Forge; null: plain text. */
  link: { kind: 'external' | 'app'; href: string } | null;
  /** Nothing answered: the record says what was asked for, and when it was checked. */
  unpriced: boolean;
}

const text = (v: unknown): string | null => (typeof v === 'string' && v.trim() ? v.trim() : typeof v === 'number' ? String(v) : null);
const SECRET_PARAM = /key|token|secret|password|passwd|signature|sig|auth|credential/i;

/** An http(s) URL without user:password or any credential-looking query parameter; null for anything else. */
export function safeExternalUrl(raw: string): string | null {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return null;
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return null;
  url.username = '';
  url.password = '';
  for (const name of [...url.searchParams.keys()]) if (SECRET_PARAM.test(name)) url.searchParams.delete(name);
  return url.toString();
}

export function seriesProvenance(header: Record<string, unknown> | null | undefined): SeriesProvenance | null {
  const series = text(header?.series_used);
  const source = text(header?.series_source);
  const asOf = text(header?.series_as_of);
  if (!series || !source || !asOf) return null;
  const colon = source.indexOf(': ');
  const provider = colon > 0 ? source.slice(0, colon) : '';
  let where = colon > 0 ? source.slice(colon + 2) : source;
  let link: SeriesProvenance['link'] = null;
  if (/^https?:\/\//i.test(where)) {
    const safe = safeExternalUrl(where);
    where = safe ?? where.split('?')[0]!;
    link = safe ? { kind: 'external', href: safe } : null;
  } else if (/^\/memory\/expressions\/(E-\d+)\.md$/.test(where)) {
    link = { kind: 'app', href: formatHash({ screen: 'expressions', rest: [where.slice(20, -3)] }) };
  } else if (provider === 'datasets') {
    // A file in the PM's data folder: the Data screen lists it with its datasets and series.
    link = { kind: 'app', href: formatHash({ screen: 'data', rest: [where.replace(/ \(sheet "[^"]*"\)$/, '')] }) };
  }
  return { series, provider, where, asOf: asOf.slice(0, 10), link, unpriced: provider === 'none' };
}

/** The sentence, without the link (what a screen reader or a copy reads). */
export function provenanceSentence(p: SeriesProvenance): string {
  if (p.unpriced) return `Not priced: no source answered for ${p.series} (last checked ${p.asOf}).`;
  return `Priced from ${p.series} — ${p.provider || 'source'}, ${p.where}, as of ${p.asOf}`;
}
