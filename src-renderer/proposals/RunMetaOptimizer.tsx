import { useQueryClient } from '@tanstack/react-query';
import { procedureKey, useProcedureMutation } from '../api/hooks';
import { ErrorPanel } from '../app/ErrorPanel';
import { claimWords, evidenceFigures, verdictLabel } from './evidence';

/**
 * "Run now" for the MetaOptimizer (otherwise it runs after the weekly retrospective): each lesson
 * it weighed, with its evidence bar — corroborating entries of those needed, contradictions, summed
 * weight — and what became of it. A press while a run is under way joins that run (the core runs
 * one at a time) and says so.
 */
export function RunMetaOptimizer() {
  const run = useProcedureMutation('proposals/run-meta-optimizer');
  const queryClient = useQueryClient();
  const start = () => run.mutate({}, { onSuccess: () => void queryClient.invalidateQueries({ queryKey: procedureKey('proposals/list', {}) }) });
  const r = run.data;
  return (
    <div className="meta-run" data-testid="meta-run">
      <div className="meta-run-bar">
        <button type="button" className="button" data-testid="meta-run-now" onClick={start} disabled={run.isPending}>
          {run.isPending ? 'Running…' : 'Run now'}
        </button>
        <span className="muted">Look for lessons that clear the evidence bar now, without waiting for the weekly retrospective.</span>
      </div>
      {run.isError && <ErrorPanel error={run.error} inline onRetry={start} />}
      {r && (
        <div aria-live="polite" data-testid="meta-run-result">
          <p className="meta-run-summary">
            {r.joined ? 'A run was already under way; this is its result. ' : ''}
            {r.proposals.length ? `New proposals: ${r.proposals.join(', ')}.` : 'No new proposals.'}{' '}
            {r.candidates.length === 0 && 'No Process Knowledge at or above the weight bar states a stance yet.'}
          </p>
          {r.candidates.length > 0 && (
            <ul className="meta-candidates" aria-label="Lessons weighed">
              {r.candidates.map((c) => {
                const f = evidenceFigures(c);
                return (
                  <li key={`${c.skill}/${c.direction}/${c.claim}`} className="meta-candidate" data-testid="meta-candidate" data-verdict={c.verdict}>
                    <div className="meta-candidate-head">
                      <strong>{c.skill}</strong> — {c.direction} {claimWords(c.claim)}
                      <span className={`chip verdict-${c.verdict}`}>{verdictLabel(c.verdict)}</span>
                    </div>
                    <div className={f.meets ? 'evidence-bar meets' : 'evidence-bar'} data-testid="evidence-bar">
                      <span data-testid="evidence-corroborating" title={c.corroborating.join(', ')}>
                        {f.corroborating}
                      </span>
                      <span data-testid="evidence-contradictions" title={c.contradictions.join(', ') || undefined}>
                        {f.contradictions}
                      </span>
                      <span data-testid="evidence-weight">{f.weight}</span>
                    </div>
                    <p className="muted meta-candidate-detail">{c.detail}</p>
                  </li>
                );
              })}
            </ul>
          )}
        </div>
      )}
    </div>
  );
}
