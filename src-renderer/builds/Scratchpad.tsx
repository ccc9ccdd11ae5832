import type { BuildDetail } from '../../src-main/api/builds';

/** The builder's notes to itself (kept in the project folder, surviving compaction): read-only here. */
export function Scratchpad(props: { entries: BuildDetail['scratchpad'] }) {
  return (
    <section className="builds-section build-scratchpad" aria-labelledby="build-scratchpad-title" data-testid="build-scratchpad">
      <h2 id="build-scratchpad-title">Scratchpad</h2>
      {props.entries.length === 0 ? (
        <p className="muted small">Empty: the builder has noted nothing yet.</p>
      ) : (
        <dl className="scratchpad-list">
          {props.entries.map((e) => (
            <div key={e.key} data-testid="scratchpad-entry" data-key={e.key}>
              <dt>
                <code>{e.key}</code>
              </dt>
              <dd>{e.value}</dd>
            </div>
          ))}
        </dl>
      )}
    </section>
  );
}
