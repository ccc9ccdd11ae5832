import type { PriceSourceEntry, PriceSourceView, TrackerPreview } from '../../src-main/api/price-source';

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

const signed = (n: number) => `${n > 0 ? '+' : n < 0 ? '−' : ''}${Math.abs(n)}`;
const exitWords: Record<string, string> = { target: 'at its target', stop: 'at its stop', time: 'at its time exit' };

/** What "Check exits now" would do with the trade now, in the PM's words (the tracker's own figures). */
export function trackerSentence(t: TrackerPreview): string {
  const levels = [t.target !== null ? `target ${t.target}` : '', t.stop !== null ? `stop ${t.stop}` : '', t.exitBy ? `out by ${t.exitBy}` : '']
    .filter(Boolean)
    .join(', ');
  const entry = `entered ${t.entryPrice} on ${t.entryDate}`;
  if (t.exit) {
    return `“Check exits now” would close it ${exitWords[t.exit.reason] ?? `(${t.exit.reason})`} on ${t.exit.date} at ${t.exit.price}: ${signed(t.exit.pnlBp)} bp of NAV (${signed(t.exit.pnlPct)}% of the position), ${entry}.`;
  }
  const mark =
    t.lastClose && t.atLastClose
      ? ` At the last close, ${t.lastClose.close} on ${t.lastClose.date}, it stands at ${signed(t.atLastClose.pnlBp)} bp of NAV (${signed(t.atLastClose.pnlPct)}% of the position).`
      : '';
  return `“Check exits now” would keep it open: ${entry}${levels ? `; ${levels}` : ''}.${mark}${t.waiting ? ` ${t.waiting}` : ''}`;
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
      {v.tracker && (
        <p data-testid="price-source-tracker" className={v.tracker.exit ? 'price-source-exit' : undefined}>
          {trackerSentence(v.tracker)}
        </p>
      )}
      {v.trackerNote && (
        <p className="muted" data-testid="price-source-tracker-note">
          {v.trackerNote}
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
