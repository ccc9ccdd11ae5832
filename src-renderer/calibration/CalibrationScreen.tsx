import { useQueryClient } from '@tanstack/react-query';
import type { CalibrationView, TrackingRunView } from '../../src-main/api/calibration';
import { useProcedure, useProcedureMutation } from '../api/hooks';
import { ErrorPanel } from '../app/ErrorPanel';
import { screenInfo } from '../app/screens';
import { BrierChart } from './BrierChart';
import { bandBiasWords, categoryLabel, figureRows, intervalPts, largestBand, pct, sentence, trackingLines, worstLine } from './chart-data';
import { ReliabilityChart } from './ReliabilityChart';
import './calibration.css';

/**
 * Stated confidence against what happened, computed from resolved Outcomes and completed
 * Counterfactuals: what the numbers allow to be said (the same sentence the analyst, the reviewer
 * and the category files use), the Brier decomposition and calibration slope with 95% intervals,
 * by holding period, the Brier score over time, per category a ten-band reliability diagram and
 * its figures, and "Check exits now".
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
        <p className="calibration-verdict" data-testid="calibration-verdict" data-kind={v.overall.verdict.kind}>
          {sentence(v.overall.verdict.text)}
        </p>
        <dl className="facts">
          <dt>Resolved forecasts</dt>
          <dd>{v.n}</dd>
          <dt>Brier score</dt>
          <dd>{v.brier === null ? '—' : v.brier.toFixed(3)}</dd>
          <dt>Worst band</dt>
          <dd data-testid="calibration-worst">
            {worst ?? <span className="muted">no band with {v.minBandCount}+ forecasts is told apart from the diagonal by its 95% interval</span>}
          </dd>
        </dl>
        <FiguresTable decomposition={v.overall.decomposition} recalibration={v.overall.recalibration} testId="calibration-figures" />
        <p className="hint">
          Intervals: {v.bootstrap.resamples} bootstrap resamples (seeded, so the same record always reads the same); slope and intercept by logistic
          recalibration, Wald 95%. Band intervals are family-wise across the bands judged. A band is judged from {v.minBandCount} forecasts.
        </p>
        <p className="calibration-line" data-testid="calibration-line">
          <span className="muted">What the analyst and the reviewer read: </span>
          {v.summary}
        </p>
      </section>
      {v.horizons.length > 0 && <HorizonCard horizons={v.horizons} />}
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
        {/* No over/underconfident here: those words are the verdict's, and only where the intervals allow them. */}
        {c.bias >= 0 ? '+' : '−'}
        {Math.abs(Math.round(c.bias * 100))} pts stated − hit on average · Brier {c.brier.toFixed(3)}
        {c.asOf ? ` · as of ${c.asOf.slice(0, 10)}` : ''}
      </p>
      <p className="calibration-verdict" data-testid="category-verdict" data-kind={c.verdict.kind}>
        {sentence(c.verdict.text)}
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
              <th scope="col">95% interval</th>
              <th scope="col" className="num">
                Brier
              </th>
            </tr>
          </thead>
          <tbody>
            {c.bands
              .filter((b) => b.n > 0)
              .map((b) => (
                <tr
                  key={b.band}
                  className={[b.band === props.worstBand ? 'is-worst' : '', b.sparse ? 'is-sparse' : ''].join(' ').trim() || undefined}
                  data-band={b.band}
                >
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
                  <td className={bandBiasWords(b).includes('(') || b.sparse ? 'bias' : b.bias > 0 === b.stated >= 0.5 ? 'bias over' : 'bias under'}>
                    {bandBiasWords(b)}
                  </td>
                  <td>{intervalPts(b.biasInterval)}</td>
                  <td className="num">{b.brier.toFixed(3)}</td>
                </tr>
              ))}
          </tbody>
        </table>
      </div>
      <FiguresTable decomposition={c.decomposition} recalibration={c.recalibration} testId="category-figures" />
    </section>
  );
}

type Group = CalibrationView['overall'];

/** Brier decomposition and calibration slope, each with its 95% interval. */
function FiguresTable(props: { decomposition: Group['decomposition']; recalibration: Group['recalibration']; testId: string }) {
  const rows = figureRows(props.decomposition, props.recalibration);
  if (!rows.length) return null;
  return (
    <table className="calibration-table calibration-figures" data-testid={props.testId}>
      <caption className="visually-hidden">Brier decomposition and calibration slope with 95% intervals</caption>
      <thead>
        <tr>
          <th scope="col">Figure</th>
          <th scope="col" className="num">
            Value
          </th>
          <th scope="col" className="num">
            95% interval
          </th>
          <th scope="col">Reads as</th>
        </tr>
      </thead>
      <tbody>
        {rows.map((r) => (
          <tr key={r.name}>
            <th scope="row">{r.name}</th>
            <td className="num">{r.value}</td>
            <td className="num">{r.interval}</td>
            <td className="muted">{r.hint}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

/** Calibration by holding period (days from entry to exit). */
function HorizonCard(props: { horizons: CalibrationView['horizons'] }) {
  return (
    <section className="card" aria-labelledby="calibration-horizon-title" data-testid="calibration-horizons">
      <h2 id="calibration-horizon-title">By holding period</h2>
      <p className="hint">Days from entry (a declined idea's decision day) to exit.</p>
      <table className="calibration-table">
        <thead>
          <tr>
            <th scope="col">Held</th>
            <th scope="col" className="num">
              n
            </th>
            <th scope="col" className="num">
              Brier (95%)
            </th>
            <th scope="col" className="num">
              Slope (95%)
            </th>
            <th scope="col">What it says</th>
          </tr>
        </thead>
        <tbody>
          {props.horizons.map((h) => (
            <tr key={h.horizon} data-horizon={h.horizon}>
              <th scope="row">{h.horizon}</th>
              <td className="num">{h.n}</td>
              <td className="num">
                {h.brier.toFixed(3)}
                {h.decomposition && ` (${h.decomposition.intervals.brier.lo.toFixed(3)}–${h.decomposition.intervals.brier.hi.toFixed(3)})`}
              </td>
              <td className="num">
                {h.recalibration
                  ? `${h.recalibration.slope.toFixed(2)} (${h.recalibration.slopeInterval.lo.toFixed(2)} to ${h.recalibration.slopeInterval.hi.toFixed(2)})`
                  : '—'}
              </td>
              <td>{sentence(h.verdict.text)}</td>
            </tr>
          ))}
        </tbody>
      </table>
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
