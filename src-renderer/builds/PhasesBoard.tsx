import type { PhaseView } from '../../src-main/api/builds';
import { clock, phaseStatusLabel } from './model';

const severityLabel: Record<PhaseView['findings'][number]['severity'], string> = { info: 'info', warning: 'warning', severe: 'severe' };
const sourceLabel: Record<PhaseView['findings'][number]['source'], string> = {
  tests: 'tests',
  boundaries: 'layer rules',
  contract_text: 'contract text',
  auditor: 'auditor',
};

/** One card per phase, in order: its status, plan with marks, test runs, audit findings and sign-off. */
export function PhasesBoard(props: { phases: PhaseView[]; currentPhase: number }) {
  return (
    <section className="builds-section" aria-labelledby="build-phases-title">
      <h2 id="build-phases-title">Phases</h2>
      {props.phases.length === 0 ? (
        <p className="muted">No phases recorded yet.</p>
      ) : (
        <ol className="phases-board" data-testid="phases-board">
          {props.phases.map((p) => (
            <PhaseCard key={p.number} phase={p} current={p.number === props.currentPhase} />
          ))}
        </ol>
      )}
    </section>
  );
}

function PhaseCard({ phase: p, current }: { phase: PhaseView; current: boolean }) {
  const severe = p.findings.filter((f) => f.severity === 'severe').length;
  const done = p.plan.filter((t) => t.done).length;
  return (
    <li
      className={`phase-card is-${p.status}${current ? ' is-current' : ''}`}
      data-testid="phase-card"
      data-phase={p.number}
      data-status={p.status}
      aria-label={`Phase ${p.id ?? p.number}${p.name ? ` — ${p.name}` : ''}: ${phaseStatusLabel[p.status]}`}
    >
      <header className="phase-head">
        <span className="phase-number">Phase {p.id ?? p.number}</span>
        <span className={`phase-status is-${p.status}`} data-testid="phase-status">
          {phaseStatusLabel[p.status]}
        </span>
      </header>
      <h3 className="phase-name">{p.name}</h3>

      <div className="phase-block">
        <h4>Plan {p.plan.length > 0 && <span className="muted">{`${done}/${p.plan.length} done`}</span>}</h4>
        {p.plan.length === 0 ? (
          <p className="muted small">{p.status === 'pending' ? 'Not planned yet.' : 'No plan written yet.'}</p>
        ) : (
          <ol className="phase-plan" data-testid="phase-plan">
            {p.plan.map((t) => (
              <li key={t.number} className={t.done ? 'is-done' : undefined} data-testid="phase-task" data-done={t.done}>
                <span className="phase-mark" role="img" aria-label={t.done ? 'done' : 'not done'}>
                  {t.done ? '✓' : '○'}
                </span>
                <span className="phase-task-text">
                  {t.number}. {t.text}
                </span>
                {t.done && t.doneAt && (
                  <time className="phase-time" dateTime={t.doneAt}>
                    {clock(t.doneAt)}
                  </time>
                )}
              </li>
            ))}
          </ol>
        )}
      </div>

      {p.tests.length > 0 && (
        <div className="phase-block">
          <h4>Test runs</h4>
          <ul className="phase-tests" data-testid="phase-tests">
            {p.tests.map((t, i) => (
              // biome-ignore lint/suspicious/noArrayIndexKey: test runs are append-only and never reordered.
              <li key={i} data-testid="phase-test" data-passed={t.passed} data-by={t.by}>
                <details>
                  <summary>
                    <span className={t.passed ? 'test-result is-pass' : 'test-result is-fail'}>{t.passed ? 'passed' : 'failed'}</span>
                    <span className="chip subtle">{t.by === 'forge' ? 'run by Forge' : 'run by the builder'}</span>
                    <code className="phase-test-command">{t.command}</code>
                    <time className="phase-time" dateTime={t.at}>
                      {clock(t.at)}
                    </time>
                  </summary>
                  <pre className="phase-test-output">{t.output || `(no output; exit ${t.exitCode ?? 'none'})`}</pre>
                </details>
              </li>
            ))}
          </ul>
        </div>
      )}

      {p.findings.length > 0 && (
        <div className="phase-block">
          <h4>Audit findings</h4>
          {severe > 0 && p.status !== 'signed_off' && (
            <p className="phase-blocked" data-testid="phase-blocked">
              {severe === 1 ? 'A severe finding blocks' : `${severe} severe findings block`} advancing to the next phase until the builder fixes{' '}
              {severe === 1 ? 'it' : 'them'}.
            </p>
          )}
          <ul className="phase-findings" data-testid="phase-findings">
            {p.findings.map((f, i) => (
              // biome-ignore lint/suspicious/noArrayIndexKey: findings are append-only and never reordered.
              <li key={i} className={`finding is-${f.severity}`} data-testid="phase-finding" data-severity={f.severity}>
                <span className={`finding-severity is-${f.severity}`}>{severityLabel[f.severity]}</span>
                <span className="chip subtle">{sourceLabel[f.source]}</span>
                {f.file && <code className="finding-file">{f.file}</code>}
                <span className="finding-message">{f.message}</span>
              </li>
            ))}
          </ul>
        </div>
      )}

      {p.signOff && (
        <div
          className={`phase-block phase-signoff ${p.signOff.accepted ? 'is-accepted' : 'is-rejected'}`}
          data-testid="phase-signoff"
          data-accepted={p.signOff.accepted}
        >
          <h4>
            Sign-off <span className={p.signOff.accepted ? 'test-result is-pass' : 'test-result is-fail'}>{p.signOff.accepted ? 'accepted' : 'rejected'}</span>
            <time className="phase-time" dateTime={p.signOff.at}>
              {clock(p.signOff.at)}
            </time>
          </h4>
          {p.signOff.deliverables.length > 0 && (
            <ul className="phase-deliverables">
              {p.signOff.deliverables.map((d, i) => (
                // biome-ignore lint/suspicious/noArrayIndexKey: two deliverables may read the same; the list is fixed once signed.
                <li key={i}>{d}</li>
              ))}
            </ul>
          )}
          {p.signOff.tests && <p className="small muted">Tests: {p.signOff.tests}</p>}
        </div>
      )}
    </li>
  );
}
