import type { PriceSourceEntry, PriceSourceView } from '../../src-main/api/price-source';

/**
 * The Expression page's "Prices from" section: for each `price_series` entry, where its closes
 * come from (provider, file or vendor, as-of, last close) or one sentence why none; the entry the
 * tracker follows is marked. Presentational: the page fetches `expressions/price-source`.
 */

/** What an entry's status cell says. */
export function priceEntryStatus(e: PriceSourceEntry): string {
  if (e.used) return `Followed by the tracker: ${e.closes} ${e.closes === 1 ? 'close' : 'closes'} in the window.`;
  if (e.problem) return e.problem;
  return 'Found, but not followed: the tracker follows the first entry that resolves.';
}

/** `csv datasets/spy.csv` from the `datasets` provider reads "Your data folder: datasets/spy.csv". */
export function sourceLabel(provider: string | null, source: string | null): string {
  if (!source) return '—';
  if (provider === 'datasets') {
    const file = source.replace(/^(csv|xlsx)\s+/, '');
    return `Your data folder: ${file}`;
  }
  return provider ? `${provider}: ${source}` : source;
}

export function PriceSourceTable(props: { view: PriceSourceView }) {
  const v = props.view;
  const followed = v.series.find((s) => s.used);
  return (
    <>
      {v.recorded && (
        <p data-testid="price-source-recorded">
          Closed by the tracker on <strong>{v.recorded.series}</strong> from {v.recorded.source}, as of <span className="num">{v.recorded.asOf}</span>.
        </p>
      )}
      {v.note && <p className="field-error">{v.note}</p>}
      {followed && (
        <p data-testid="price-source-followed">
          Prices from <strong>{sourceLabel(followed.provider, followed.source)}</strong> ({followed.ref}), as of <span className="num">{followed.asOf}</span>
          {followed.lastClose && (
            <>
              : last close <span className="num">{followed.lastClose.close}</span> on <span className="num">{followed.lastClose.date}</span>
            </>
          )}
          .
        </p>
      )}
      {!followed && v.series.length > 0 && (
        <p className="field-error" data-testid="price-source-none">
          No entry of its price_series has closes in the window, so “Check exits now” cannot follow it (see why below).
        </p>
      )}
      {v.series.length > 0 && (
        <table className="record-table" data-testid="price-sources">
          <thead>
            <tr>
              <th scope="col">Series</th>
              <th scope="col">Source</th>
              <th scope="col" className="num">
                As of
              </th>
              <th scope="col" className="num">
                Last close
              </th>
              <th scope="col">Status</th>
            </tr>
          </thead>
          <tbody>
            {v.series.map((e) => (
              <tr key={e.ref} data-testid="price-source" data-ref={e.ref} data-used={e.used}>
                <th scope="row">{e.ref}</th>
                <td>{sourceLabel(e.provider, e.source)}</td>
                <td className="num">{e.asOf ?? '—'}</td>
                <td className="num">{e.lastClose ? `${e.lastClose.close} (${e.lastClose.date})` : '—'}</td>
                <td className={e.used ? undefined : e.problem ? 'field-error' : 'muted'}>{priceEntryStatus(e)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      <p className="hint">
        Read as “Check exits now” reads it: closes from {v.from} to {v.to}
        {v.entryDate ? ` (10 days before the entry date ${v.entryDate})` : ' (no entry date yet: from the day it goes live)'}.
      </p>
    </>
  );
}
