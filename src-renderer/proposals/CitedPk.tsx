import type { CitedPkView } from '../../src-main/api/proposals';
import { formatWeight, stanceLine } from './model';

/**
 * The Process Knowledge a proposal cites, each one click from its weight, stance, summary and the
 * Outcomes and Counterfactuals it rests on. Forge has no screen for single Outcomes yet, so the
 * evidence ids are shown as text to look up, not as links.
 */
export function CitedPk(props: { entries: CitedPkView[]; corroborating: string[] }) {
  const cited = new Set(props.entries.map((e) => e.id));
  const others = props.corroborating.filter((id) => !cited.has(id));
  return (
    <section className="proposal-pk" aria-labelledby="proposal-pk-title" data-testid="proposal-pk">
      <h2 id="proposal-pk-title">Cited Process Knowledge ({props.entries.length})</h2>
      {props.entries.length === 0 && <p className="muted">This proposal cites no Process Knowledge.</p>}
      <ul className="pk-list">
        {props.entries.map((pk) => (
          <li key={pk.id}>
            <details className={pk.missing ? 'pk-entry missing' : 'pk-entry'} data-testid="pk-entry" data-id={pk.id}>
              <summary>
                <code className="pk-id">{pk.id}</code> <span className="pk-title">{pk.missing ? 'deleted since the proposal cited it' : pk.title}</span>
                {pk.weight !== null && <span className="chip subtle">weight {formatWeight(pk.weight)}</span>}
                {pk.stance && <span className={`chip subtle stance-${pk.stance.direction}`}>{pk.stance.direction}</span>}
              </summary>
              <dl className="facts pk-facts">
                <dt>Weight</dt>
                <dd>{formatWeight(pk.weight)}</dd>
                <dt>Stance</dt>
                <dd>{stanceLine(pk.stance)}</dd>
                <dt>Category</dt>
                <dd>{pk.category ?? '—'}</dd>
                <dt>Evidence</dt>
                <dd data-testid="pk-evidence">
                  {pk.evidence.length === 0
                    ? 'none recorded'
                    : pk.evidence.map((id, i) => (
                        <span key={id}>
                          {i > 0 && ', '}
                          <code>{id}</code>
                        </span>
                      ))}
                </dd>
              </dl>
              {pk.summary && <p className="pk-summary">{pk.summary}</p>}
            </details>
          </li>
        ))}
      </ul>
      {others.length > 0 && <p className="muted pk-others">Also corroborating when it was proposed: {others.join(', ')}.</p>}
    </section>
  );
}
