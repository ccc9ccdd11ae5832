import { Icon } from '../app/Icon';
import type { SearchHitView } from './search';
import './passage.css';

/**
 * A broker-note passage found by search (scope Research). Broker text is outside content: it is
 * shown as plain text (React escapes it; never Markdown or HTML), with its citation and date, and
 * how to read more of the note.
 */
export function PassageView(props: { hit: SearchHitView; onClose: () => void }) {
  const p = props.hit.passage;
  if (!p) return null;
  return (
    <article className="record-view" data-testid="passage-view" aria-label={`Passage ${p.citation}`}>
      <div className="record-toolbar">
        <code className="record-path">{props.hit.path}</code>
        <button type="button" className="icon-button" aria-label="Close passage" onClick={props.onClose}>
          <Icon name="close" size={16} />
        </button>
      </div>
      <div className="record-scroll">
        <div className="pad">
          <header className="record-head">
            <div className="record-id" data-testid="passage-citation">
              {p.citation}
            </div>
            <h1 className="record-title">{props.hit.title}</h1>
            <div className="record-chips">
              <span className="chip">broker research</span>
              <span className="chip subtle">dated {p.noteDate}</span>
            </div>
          </header>
          <p className="muted">Outside content, shown as plain text. To read more of this note, ask the analyst to fetch research with note “{p.note}”.</p>
          <p className="passage-text" data-testid="passage-text">
            {p.text}
          </p>
        </div>
      </div>
    </article>
  );
}
