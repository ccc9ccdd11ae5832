import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useProcedure, useProcedureMutation } from '../api/hooks';

/** Remembered per browser profile: "Keep it" means the PM chose the sample; do not ask again. */
const SAMPLE_KEPT = 'forge.home.sampleKept';

function keptBefore(): boolean {
  try {
    return localStorage.getItem(SAMPLE_KEPT) === '1';
  } catch {
    return false;
  }
}

/**
 * The sample workspace is offered, not forced (issue #31 §6): while the workspace still holds only
 * the untouched sample, Home says so and offers to start empty. Start empty asks once more, inline,
 * because it removes records (they stay in the archive); Keep it hides the card for good. Renders
 * nothing once the PM has written or edited anything: the server then refuses to clear anyway.
 */
export function SampleWorkspaceCard() {
  const queryClient = useQueryClient();
  const sample = useProcedure('workspace/sample', {});
  const clear = useProcedureMutation('workspace/clear-sample');
  const [kept, setKept] = useState(keptBefore);
  const [confirming, setConfirming] = useState(false);
  const [done, setDone] = useState<string | null>(null);
  if (done) {
    return (
      <article className="card home-card home-sample" data-testid="home-sample-cleared" aria-live="polite">
        <p className="first-run-text">{done}</p>
        <button type="button" className="button small" onClick={() => setDone(null)} data-testid="home-sample-cleared-close">
          OK
        </button>
      </article>
    );
  }
  if (kept || sample.data?.state !== 'untouched') return null;
  const keep = () => {
    try {
      localStorage.setItem(SAMPLE_KEPT, '1');
    } catch {
      // Private mode: the card just hides for this session.
    }
    setKept(true);
  };
  const startEmpty = () =>
    clear.mutate(
      {},
      {
        onSuccess: (r) => {
          setDone(r.message);
          // Every screen (Views, Expressions, Calibration, the book) read the sample: refetch all.
          void queryClient.invalidateQueries();
        },
      },
    );
  return (
    <article className="card home-card home-sample" data-testid="home-sample" aria-labelledby="home-sample-title">
      <header className="home-card-head">
        <h2 id="home-sample-title">This is a sample workspace</h2>
      </header>
      <p className="first-run-text">
        Forge started you with example Views, Expressions and principles so every screen has something to show. Keep them to explore, or start empty with your
        own.
      </p>
      {clear.error && (
        <p className="field-error" role="alert" data-testid="home-sample-error">
          {clear.error.message}
        </p>
      )}
      {confirming ? (
        <div className="first-run-item" data-testid="home-sample-confirm">
          <span className="first-run-text">
            Remove the {sample.data.sampleRecords} sample records? They stay in the archive. The sample positions and limits stay until you import your own or
            edit them.
          </span>
          <button type="button" className="button primary" disabled={clear.isPending} onClick={startEmpty} data-testid="home-sample-confirm-yes">
            {clear.isPending ? 'Removing…' : 'Remove the sample'}
          </button>
          <button type="button" className="button small" disabled={clear.isPending} onClick={() => setConfirming(false)} data-testid="home-sample-confirm-no">
            Cancel
          </button>
        </div>
      ) : (
        <div className="first-run-item">
          <button type="button" className="button" onClick={keep} data-testid="home-sample-keep">
            Keep it
          </button>
          <button type="button" className="button" onClick={() => setConfirming(true)} data-testid="home-sample-start-empty">
            Start empty
          </button>
        </div>
      )}
    </article>
  );
}
