import { useQueryClient } from '@tanstack/react-query';
import type { CalibrationView, TrackingRunView } from '../../src-main/api/calibration';
import { useProcedure, useProcedureMutation } from '../api/hooks';
import { ErrorPanel } from '../app/ErrorPanel';
import { screenInfo } from '../app/screens';
import { BrierChart } from './BrierChart';
import { biasWords, categoryLabel, largestBand, pct, trackingLines, worstLine } from './chart-data';
import { ReliabilityChart } from './ReliabilityChart';
import './calibration.css';

/**
 * Stated confidence against what happened, computed from resolved Outcomes and completed
 * Counterfactuals: per category a reliability diagram and its figures, the Brier score over time,
 * the worst band (the line the analyst and the reviewer read), and "Check exits now".
 */
export function CalibrationScreen() {
  const info = screenInfo.calibration;
  const view = useProcedure('calibration/get', {}, { staleTime: 30_000 });
  return (
    <section className="screen screen-scroll calibration-screen" data-testid="screen-calibration" aria-labelledby="title-calibration">
      <header className="screen-header">
        <h1 id="title-calibration">{info.label}</h1>
        <p className="screen-purpose">{info.purpose}</p>
      </header>
      <TrackingCard />
      {view.isPending && <p className="muted">Computing calibration…</p>}
      {view.isError && <ErrorPanel error={view.error} onRetry={() => void view.refetch()} />}
      {view.data && <CalibrationBody view={view.data} />}
    </section>
  );
}

function CalibrationBody(props: { view: CalibrationView }) {
  const v = props.view;
  if (v.n === 0) {
    return (
      <div className="empty-state" data-testid="calibration-empty">
        <h2>Nothing resolved yet</h2>
        <p>
          Calibration is computed from closed Expressions (their Outcomes) and from declined ideas once their Counterfactuals resolve. None has, so there is
          nothing to measure — and nothing is made up to fill the space.
        </p>
        <p className="muted">{v.summary}</p>
      </div>
    );
  }
  const worst = worstLine(v.worst);
  const maxN = largestBand(v.categories);
  return (
    <>
      <section className="card calibration-summary" aria-labelledby="calibration-summary-title" data-testid="calibration-summary">
        <h2 id="calibration-summary-title">Overall</h2>
        <dl className="facts">
          <dt>Resolved forecasts</dt>
          <dd>{v.n}</dd>
          <dt>Brier score</dt>
          <dd>{v.brier === null ? '—' : v.brier.toFixed(3)}</dd>
          <dt>Worst band</dt>
          <dd data-testid="calibration-worst">{worst ?? <span className="muted">no band has the {v.minBandCount} forecasts needed to be quoted yet</span>}</dd>
        </dl>
        <p className="calibration-line" data-testid="calibration-line">
          <span className="muted">What the analyst and the reviewer read: </span>
          {v.summary}
        </p>
      </section>
      {v.history.length > 0 && (
        <section className="card" aria-labelledby="calibration-brier-title">
          <h2 id="calibration-brier-title">Brier score over time</h2>
          <p className="hint">By month of exit. 0 is perfect; 0.25 is what always saying 50% would score.</p>
          <BrierChart history={v.history} />
        </section>
      )}
      <div className="calibration-categories">
        {v.categories.map((c) => (
          <CategoryCard
            key={c.category}
            category={c}
            maxN={maxN}
            minBandCount={v.minBandCount}
            worstBand={v.worst?.category === c.category ? v.worst.band : null}
          />
        ))}
      </div>
    </>
  );
}

function CategoryCard(props: { category: CalibrationView['categories'][number]; maxN: number; minBandCount: number; worstBand: string | null }) {
  const c = props.category;
  const id = `calibration-${c.category}`;
  return (
    <section className="card calibration-category" aria-labelledby={id} data-testid="calibration-category" data-category={c.category}>
      <h2 id={id}>{categoryLabel(c.category)}</h2>
      <p className="hint">
        {c.n} resolved ({c.counterfactuals} counterfactual{c.counterfactuals === 1 ? '' : 's'}) · stated {pct(c.stated)}, hit {pct(c.realised)} ·{' '}
        {biasWords(c.bias)} · Brier {c.brier.toFixed(3)}
        {c.asOf ? ` · as of ${c.asOf.slice(0, 10)}` : ''}
      </p>
      <div className="calibration-pair">
        <ReliabilityChart category={c} maxN={props.maxN} />
        <table className="calibration-table" data-testid="calibration-table">
          <caption className="visually-hidden">{categoryLabel(c.category)} by confidence band</caption>
          <thead>
            <tr>
              <th scope="col">Band</th>
              <th scope="col" className="num">
                n
              </th>
              <th scope="col" className="num">
                Stated
              </th>
              <th scope="col" className="num">
                Came true
              </th>
              <th scope="col">Bias</th>
              <th scope="col" className="num">
                Brier
              </th>
            </tr>
          </thead>
          <tbody>
            {c.bands
              .filter((b) => b.n > 0)
              .map((b) => (
                <tr key={b.band} className={b.band === props.worstBand ? 'is-worst' : undefined} data-band={b.band}>
                  <th scope="row">{b.band}</th>
                  <td className="num" title={b.counterfactuals ? `${b.counterfactuals} of them counterfactuals` : undefined}>
                    {b.n}
                    {b.n < props.minBandCount && (
                      <span className="few" title={`Fewer than ${props.minBandCount}: too few to quote`}>
                        *
                      </span>
                    )}
                  </td>
                  <td className="num">{pct(b.stated)}</td>
                  <td className="num">{pct(b.realised)}</td>
                  <td className={b.bias > 0.05 ? 'bias over' : b.bias < -0.05 ? 'bias under' : 'bias'}>{biasWords(b.bias)}</td>
                  <td className="num">{b.brier.toFixed(3)}</td>
                </tr>
              ))}
          </tbody>
        </table>
      </div>
    </section>
  );
}

/** "Check exits now": tracking/run, then the figures are re-read, and what it did is listed. */
function TrackingCard() {
  const queryClient = useQueryClient();
  const run = useProcedureMutation('tracking/run');
  return (
    <section className="card calibration-tracking" aria-labelledby="calibration-tracking-title">
      <div className="calibration-tracking-head">
        <div>
          <h2 id="calibration-tracking-title">Exits and counterfactuals</h2>
          <p className="hint">
            The hourly monitoring checks active Expressions against their stops, targets and time limits, and resolves counterfactuals that are due.
          </p>
        </div>
        <button
          type="button"
          className="button"
          data-testid="tracking-run"
          disabled={run.isPending}
          onClick={() =>
            run.mutate(
              {},
              {
                onSuccess: () => {
                  for (const key of ['calibration/get', 'memory/list', 'memory/read', 'portfolio/book'])
                    void queryClient.invalidateQueries({ queryKey: [key] });
                },
              },
            )
          }
        >
          {run.isPending ? 'Checking…' : 'Check exits now'}
        </button>
      </div>
      {run.data && <TrackingResult result={run.data} />}
      {run.isError && <ErrorPanel error={run.error} inline />}
    </section>
  );
}

function TrackingResult(props: { result: TrackingRunView }) {
  return (
    <div className="tracking-result" role="status" data-testid="tracking-result">
      <strong>{props.result.summary}</strong>
      <ul>
        {trackingLines(props.result).map((l) => (
          <li key={l}>{l}</li>
        ))}
      </ul>
    </div>
  );
}
