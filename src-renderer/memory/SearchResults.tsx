import type { SearchHitView } from './search';
import { relativeTime } from './format';

/** Ranked hits with their score, and what the score is made of on hover. A broker-note passage shows its citation. */
export function SearchResults(props: {
  hits: SearchHitView[];
  selectedPath: string | null;
  /** The broker-note passage open, if any (several passages share their note's path). */
  selectedPassage?: string | null;
  onSelect: (hit: SearchHitView) => void;
  showCategory: boolean;
}) {
  return (
    <ol className="search-results" data-testid="search-results" aria-label="Search results">
      {props.hits.map((h) => {
        const parts = [`meaning ${h.semantic.toFixed(2)}`, `keywords ${h.keyword.toFixed(2)}`, `recency ${h.recency.toFixed(2)}`];
        const selected = h.passage ? h.id === props.selectedPassage : h.path === props.selectedPath;
        return (
          <li key={`${h.path}#${h.id}`}>
            <button
              type="button"
              className={selected ? 'record-row search-hit selected' : 'record-row search-hit'}
              aria-current={selected ? 'true' : undefined}
              data-testid="search-result"
              data-id={h.id}
              onClick={() => props.onSelect(h)}
            >
              <span className="row-line">
                <span className="row-id">{h.passage ? h.passage.citation : h.id}</span>
                <span className="row-title">{h.title}</span>
                <span className="score" data-testid="search-score" title={parts.join(' · ')}>
                  <span className="score-bar" style={{ width: `${Math.round(Math.max(0, Math.min(1, h.score)) * 100)}%` }} />
                  <span className="score-num">{h.score.toFixed(2)}</span>
                </span>
              </span>
              <span className="row-meta">
                {props.showCategory && <span className="chip">{h.category}</span>}
                <span className="chip subtle">{parts.join(' · ')}</span>
                <span className="row-updated">{h.passage ? `dated ${h.passage.noteDate}` : relativeTime(h.updatedAt)}</span>
              </span>
            </button>
          </li>
        );
      })}
    </ol>
  );
}
