/**
 * Where a priced series can be checked: the provider that answered and the file or URL it read,
 * never a key. An Outcome or Counterfactual stores it as `series_source: "<provider>: <where>"`,
 * so a PM can open the same file (Data screen) or the same vendor address and check the figure.
 *
 * Providers describe their data in words (`csv datasets/spy.csv`, `Stooq daily spy.us (…)`,
 * `Alpha Vantage FX_DAILY EUR/USD`); this turns each description into something that can be
 * opened. A vendor description without a URL becomes the vendor's public request address for that
 * series (its default host, the request the provider sends, minus any key).
 */

export type SeriesWhereKind = 'data-file' | 'file' | 'url' | 'record' | 'text';

export interface SeriesLocation {
  /** `datasets`, `market/stooq`, `market/alpha_vantage`, `market/polygon`, `market/local`, `pm`. */
  provider: string;
  /** A data-folder path (`datasets/spy.csv`), a file name, an http(s) URL without secrets, or a record path. */
  where: string;
  kind: SeriesWhereKind;
}

/** Query parameters that carry credentials: never stored, never shown. */
const SECRET_PARAM = /key|token|secret|password|passwd|signature|sig|auth|credential/i;

/** An http(s) URL with every credential-looking query parameter and any user:password removed. */
export function withoutSecrets(raw: string): string {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return raw.replace(/([?&])[^=&\s]*(?:key|token|secret|password|sig)[^=&\s]*=[^&\s]*/gi, '$1').replace(/[?&]+$/, '');
  }
  url.username = '';
  url.password = '';
  for (const name of [...url.searchParams.keys()]) if (SECRET_PARAM.test(name)) url.searchParams.delete(name);
  return url.toString();
}

const URL_IN = /https?:\/\/[^\s)"'<>]+/i;

/** The provider and the file or URL behind a series, from the market port's `provider` and `source`. */
export function locateSeries(provider: string, source: string): SeriesLocation {
  const src = source.trim();
  const url = URL_IN.exec(src)?.[0];
  if (url) return { provider: marketBackend(provider, src), where: withoutSecrets(url), kind: 'url' };

  // The CSV/XLSX provider: `csv datasets/spy.csv`, `xlsx datasets/book.xlsx sheet "Prices"`.
  const file = /^(?:csv|xlsx)\s+(\S+?\.(?:csv|xlsx|xls|tsv|txt))(?:\s+sheet\s+"([^"]+)")?/i.exec(src);
  if (file) return { provider, where: file[2] ? `${file[1]} (sheet "${file[2]}")` : file[1]!, kind: 'data-file' };

  const stooq = /^Stooq daily (\S+)/i.exec(src);
  if (stooq) return { provider: 'market/stooq', where: `https://stooq.com/q/d/l/?s=${encodeURIComponent(stooq[1]!)}&i=d`, kind: 'url' };

  const polygon = /^Polygon aggs (\S+) 1\/day (\d{4}-\d{2}-\d{2})\.\.(\d{4}-\d{2}-\d{2})/i.exec(src);
  if (polygon) {
    const [, ticker, from, to] = polygon;
    return {
      provider: 'market/polygon',
      where: `https://api.massive.com/v2/aggs/ticker/${encodeURIComponent(ticker!)}/range/1/day/${from}/${to}`,
      kind: 'url',
    };
  }

  const av = /^Alpha Vantage (\w+) (\S+)/i.exec(src);
  if (av) return { provider: 'market/alpha_vantage', where: alphaVantageUrl(av[1]!, av[2]!), kind: 'url' };

  // The local market folder: `sample prices.csv (synthetic)`, `local yields.csv (desk export)`.
  const local = /^(sample|local)\s+(\S+\.csv)/i.exec(src);
  if (local) return { provider: 'market/local', where: local[1]!.toLowerCase() === 'sample' ? `resources/data/market/${local[2]}` : local[2]!, kind: 'file' };

  return { provider: marketBackend(provider, src), where: src, kind: 'text' };
}

/** The request Alpha Vantage's provider sends for this series (routeFor in providers/market), without `apikey`. */
function alphaVantageUrl(fn: string, what: string): string {
  const q = new URLSearchParams({ function: fn });
  if (fn === 'FX_DAILY' && /^[A-Z]{3}\/[A-Z]{3}$/.test(what)) {
    q.set('from_symbol', what.slice(0, 3));
    q.set('to_symbol', what.slice(4));
  } else if (fn === 'TREASURY_YIELD') {
    q.set('interval', 'daily');
    q.set('maturity', what);
  } else if (fn.startsWith('TIME_SERIES')) {
    q.set('symbol', what);
  } else q.set('interval', 'daily');
  return `https://www.alphavantage.co/query?${q.toString()}`;
}

function marketBackend(provider: string, source: string): string {
  if (provider !== 'market') return provider;
  if (/^Stooq/i.test(source)) return 'market/stooq';
  if (/^Polygon/i.test(source)) return 'market/polygon';
  if (/^Alpha Vantage/i.test(source)) return 'market/alpha_vantage';
  return provider;
}

/** `series_source` as stored: `<provider>: <where>`. */
export function seriesSourceText(loc: SeriesLocation): string {
  return `${loc.provider}: ${loc.where}`;
}

/** How the page links it: a data-folder file, an external URL, or plain text. */
export function whereKind(where: string): SeriesWhereKind {
  if (/^https?:\/\//i.test(where)) return 'url';
  if (where.startsWith('/memory/')) return 'record';
  if (/\.(csv|xlsx|xls|tsv|txt)\b/i.test(where)) return where.startsWith('resources/') ? 'file' : 'data-file';
  return 'text';
}
