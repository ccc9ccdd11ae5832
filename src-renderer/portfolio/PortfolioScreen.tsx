import { useMemo } from 'react';
import { useProcedure } from '../api/hooks';
import { isApiError } from '../api/errors';
import { screenInfo } from '../app/screens';
import { Markdown } from '../markdown';
import { ErrorPanel } from '../app/ErrorPanel';
import { field, figure, limitRows, splitDoc, usedShare, type LimitRow, type PortfolioDoc } from './doc';
import { ImportPositions } from './ImportPositions';
import { BookTables } from './BookTables';
import './portfolio.css';

const STATE = '/portfolio/state.md';
const CONSTRAINTS = '/portfolio/constraints.md';

/**
 * The book and its hard limits. Every figure comes from `portfolio/book`: the positions snapshot
 * plus the Expressions activated since, minus those closed since — what the guardrails check.
 * It follows approvals, closes and imports live (the `portfolio/changed` event refreshes it).
 */
export function PortfolioScreen() {
  const info = screenInfo.portfolio;
  const book = useProcedure('portfolio/book', {}, { retry: false });
  const state = useProcedure('memory/read', { path: STATE, depth: 'full' }, { retry: false });
  const constraints = useProcedure('memory/read', { path: CONSTRAINTS, depth: 'full' }, { retry: false });
  const stateDoc = useMemo(() => (state.data ? splitDoc(state.data.content) : null), [state.data]);
  const constraintsDoc = useMemo(() => (constraints.data ? splitDoc(constraints.data.content) : null), [constraints.data]);
  const limits = useProcedure('guardrails/limits', {});
  const rows = limits.data ? limitRows(limits.data) : [];
  const b = book.data;

  return (
    <section className="screen" data-testid="screen-portfolio" aria-labelledby="title-portfolio">
      <div className="screen-scroll portfolio-scroll">
        <header className="screen-header">
          <h1 id="title-portfolio">{info.label}</h1>
          <p className="screen-purpose">{info.purpose}</p>
        </header>

        <article className="card" data-testid="portfolio-state" aria-labelledby="state-title">
          <DocHead id="state-title" fallback="Book now" path="computed" doc={stateDoc} title="Book now" />
          {book.isPending && <p className="muted">Loading…</p>}
          {book.isError && <ErrorPanel error={book.error} />}
          {b && (
            <>
              <dl className="key-figures" data-testid="portfolio-figures">
                <Figure k="gross" label="gross (% NAV)" value={figure(b.gross)} />
                <Figure k="net" label="net (% NAV)" value={figure(b.net)} />
                <Figure k="duration" label="duration (yrs)" value={figure(b.duration, 2)} />
                <Figure k="nav_musd" label="NAV ($m)" value={b.navMusd === null ? '—' : String(b.navMusd)} />
                <Figure k="open" label="open Expressions" value={String(b.open.length)} />
                <Figure k="as_of" label="snapshot as of" value={b.asOf.replace(/T.*$/, '')} />
              </dl>
              <p className="muted small" data-testid="book-explained">
                Computed: the positions snapshot of {b.asOf.replace(/T.*$/, '')}
                {` + ${b.open.filter((o) => !o.inSnapshot).length} Expression(s) approved since`}
                {` − ${b.closedSinceSnapshot.length} closed since.`}
              </p>
              {b.unmeasured.length > 0 && (
                <p className="error-text" role="alert" data-testid="book-unmeasured">
                  {b.unmeasured.join(', ')} {b.unmeasured.length > 1 ? 'have' : 'has'} no readable notional: no new trade can pass the guardrails until
                  {b.unmeasured.length > 1 ? ' they are' : ' it is'} fixed.
                </p>
              )}
            </>
          )}
        </article>

        <article className="card" data-testid="guardrail-limits" aria-labelledby="limits-title">
          <h2 id="limits-title">Guardrail limits</h2>
          <p className="muted">
            Hard limits, checked against this computed book: an Expression that breaks one is not written, and the check runs again when you approve.
          </p>
          {limits.isError && <ErrorPanel error={limits.error} />}
          {limits.data && <LimitsTable rows={rows} />}
        </article>

        {b && <BookTables book={b} />}

        <article className="card" data-testid="portfolio-snapshot" aria-labelledby="snapshot-title">
          <DocHead id="snapshot-title" fallback="Positions snapshot" path={STATE} doc={stateDoc} />
          {state.isError && <Missing error={state.error} path={STATE} what="the positions snapshot the book is computed from" />}
          {stateDoc && <Markdown source={stateDoc.body} />}
          <ImportPositions currentNav={b?.navMusd ?? null} />
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

function Figure(props: { k: string; label: string; value: string }) {
  return (
    <div className="key-figure" data-key={props.k}>
      <dt>{props.label}</dt>
      <dd>{props.value}</dd>
    </div>
  );
}

function DocHead(props: { id: string; fallback: string; path: string; doc: PortfolioDoc | null; title?: string }) {
  const demo = (field(props.doc, 'source') ?? '').toLowerCase() === 'demo';
  return (
    <header className="portfolio-doc-head">
      <h2 id={props.id}>{props.title ?? (props.doc?.title || props.fallback)}</h2>
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
        There is no <code>{props.path}</code> in this workspace yet. It holds {props.what}; import a positions CSV below to create it.
      </p>
    );
  }
  return <ErrorPanel error={props.error} />;
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
                  <span className="muted">no open trade</span>
                ) : (
                  <>
                    {Number(r.now.toFixed(2))} {r.unit}
                    {r.detail && <span className="muted small"> ({r.detail})</span>}
                    <div
                      className={share >= 1 ? 'limit-bar over' : share >= 0.85 ? 'limit-bar near' : 'limit-bar'}
                      role="img"
                      aria-label={`${Math.round(share * 100)}% of the limit in use`}
                    >
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
