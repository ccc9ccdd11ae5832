import { useMemo } from 'react';
import { useProcedure } from '../api/hooks';
import { isApiError } from '../api/errors';
import { screenInfo } from '../app/screens';
import { Markdown } from '../markdown';
import { field, fieldLabel, fieldValue, limitRows, splitDoc, usedShare, type LimitRow, type PortfolioDoc } from './doc';
import './portfolio.css';
import { ErrorPanel } from '../app/ErrorPanel';

const STATE = '/portfolio/state.md';
const CONSTRAINTS = '/portfolio/constraints.md';

/** The book and its hard limits: /portfolio/state.md, /portfolio/constraints.md and the guardrail table. */
export function PortfolioScreen() {
  const info = screenInfo.portfolio;
  const state = useProcedure('memory/read', { path: STATE, depth: 'full' }, { retry: false });
  const constraints = useProcedure('memory/read', { path: CONSTRAINTS, depth: 'full' }, { retry: false });
  const stateDoc = useMemo(() => (state.data ? splitDoc(state.data.content) : null), [state.data]);
  const constraintsDoc = useMemo(() => (constraints.data ? splitDoc(constraints.data.content) : null), [constraints.data]);
  const limits = useProcedure('guardrails/limits', {});
  const settled = !state.isPending && !limits.isPending;
  const rows = settled ? limitRows(limits.data ?? null, stateDoc) : [];

  return (
    <section className="screen" data-testid="screen-portfolio" aria-labelledby="title-portfolio">
      <div className="screen-scroll portfolio-scroll">
        <header className="screen-header">
          <h1 id="title-portfolio">{info.label}</h1>
          <p className="screen-purpose">{info.purpose}</p>
        </header>

        <article className="card" data-testid="portfolio-state" aria-labelledby="state-title">
          <DocHead id="state-title" fallback="Portfolio state" path={STATE} doc={stateDoc} />
          {state.isPending && <p className="muted">Loading…</p>}
          {state.isError && <Missing error={state.error} path={STATE} what="the book's state (NAV, gross, net, duration, exposures)" />}
          {stateDoc && (
            <>
              <KeyFigures doc={stateDoc} />
              <Markdown source={stateDoc.body} />
            </>
          )}
        </article>

        <article className="card" data-testid="guardrail-limits" aria-labelledby="limits-title">
          <h2 id="limits-title">Guardrail limits</h2>
          <p className="muted">
            Hard limits: an Expression that breaks one is not written, and the check runs again when you approve a proposal.
          </p>
          {settled && <LimitsTable rows={rows} />}
        </article>

        <article className="card" data-testid="portfolio-constraints" aria-labelledby="constraints-title">
          <DocHead id="constraints-title" fallback="Constraints" path={CONSTRAINTS} doc={constraintsDoc} />
          {constraints.isPending && <p className="muted">Loading…</p>}
          {constraints.isError && <Missing error={constraints.error} path={CONSTRAINTS} what="your risk limits; until then Forge's defaults apply" />}
          {constraintsDoc && <Markdown source={constraintsDoc.body} />}
        </article>
      </div>
    </section>
  );
}

function DocHead(props: { id: string; fallback: string; path: string; doc: PortfolioDoc | null }) {
  const demo = (field(props.doc, 'source') ?? '').toLowerCase() === 'demo';
  return (
    <header className="portfolio-doc-head">
      <h2 id={props.id}>{props.doc?.title || props.fallback}</h2>
      {demo && (
        <span className="demo-label" data-testid="demo-label" title="Sample data shipped with Forge — not a real portfolio">
          DEMO
        </span>
      )}
      <code className="portfolio-path">{props.path}</code>
    </header>
  );
}

function Missing(props: { error: unknown; path: string; what: string }) {
  if (isApiError(props.error) && props.error.code === 'not_found') {
    return (
      <p className="muted" data-testid="portfolio-missing">
        There is no <code>{props.path}</code> in this workspace yet. It holds {props.what}; the analyst reads it before proposing any trade.
      </p>
    );
  }
  return (
    <ErrorPanel error={props.error} />
  );
}

/** The header's figures (NAV, gross, net, duration, risk budget), large, before the prose. */
function KeyFigures({ doc }: { doc: PortfolioDoc }) {
  const shown = doc.fields.filter(([k]) => k !== 'source');
  if (shown.length === 0) return null;
  return (
    <dl className="key-figures" data-testid="portfolio-figures">
      {shown.map(([k, v]) => (
        <div key={k} className="key-figure" data-key={k}>
          <dt>{fieldLabel(k)}</dt>
          <dd>{fieldValue(k, v)}</dd>
        </div>
      ))}
    </dl>
  );
}

function LimitsTable({ rows }: { rows: LimitRow[] }) {
  return (
    <table className="limits-table">
      <thead>
        <tr>
          <th scope="col">Limit</th>
          <th scope="col">Applies to</th>
          <th scope="col" className="num">
            Max
          </th>
          <th scope="col" className="num">
            Book now
          </th>
        </tr>
      </thead>
      <tbody>
        {rows.map((r) => {
          const share = usedShare(r);
          return (
            <tr key={r.key} data-testid="limit-row" data-key={r.key}>
              <th scope="row">
                {r.label}
                <div className="rule-code">{r.key}</div>
              </th>
              <td>{r.scope}</td>
              <td className="num">
                {r.limit} {r.unit}
                {!r.fromFile && <div className="muted small">Forge default</div>}
              </td>
              <td className="num">
                {r.now === null || share === null ? (
                  <span className="muted">checked per trade</span>
                ) : (
                  <>
                    {r.now} {r.unit}
                    <div className={share >= 1 ? 'limit-bar over' : share >= 0.85 ? 'limit-bar near' : 'limit-bar'} role="img" aria-label={`${Math.round(share * 100)}% of the limit in use`}>
                      <span style={{ width: `${Math.min(100, share * 100)}%` }} />
                    </div>
                    <div className="muted small">{Math.round(share * 100)}% of the limit</div>
                  </>
                )}
              </td>
            </tr>
          );
        })}
      </tbody>
    </table>
  );
}
