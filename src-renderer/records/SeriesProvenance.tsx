import './records.css';
import { provenanceSentence, seriesProvenance } from './series-provenance';

/** The Outcome/Counterfactual evidence line: the series, its provider, the file or URL (a link) and the data's as-of date. */
export function SeriesProvenanceLine(props: { header: Record<string, unknown> | null | undefined }) {
  const p = seriesProvenance(props.header);
  if (!p) return null;
  if (p.unpriced) {
    return (
      <p className="series-provenance" data-testid="series-provenance">
        {provenanceSentence(p)}
      </p>
    );
  }
  const where = !p.link ? (
    <code>{p.where}</code>
  ) : p.link.kind === 'external' ? (
    <a href={p.link.href} target="_blank" rel="noopener noreferrer" data-testid="series-provenance-link">
      {p.where}
    </a>
  ) : (
    <a href={p.link.href} data-testid="series-provenance-link">
      {p.where}
    </a>
  );
  return (
    <p className="series-provenance" data-testid="series-provenance">
      Priced from <strong>{p.series}</strong> — {p.provider || 'source'}, {where}, as of <span className="num">{p.asOf}</span>
    </p>
  );
}
