import { useState } from 'react';
import { useProcedure } from '../api/hooks';
import { formatHash } from '../app/routes';
import { screenInfo } from '../app/screens';
import { relativeTime } from '../memory/format';
import { awaitingApprovalInput, awaitingOrder, figure, limitFigure, reasonText, shareText, staleCutoff, usageBars, viewsNeedingAttention } from './model';
import { ItemLink, Panel } from './Panel';
import { MorningReviewPanel, ProposalsPanel, ScheduledPanel, TasksPanel } from './ActivityPanels';
import { FirstRunCard } from './FirstRun';
import { SampleWorkspaceCard } from './SampleCard';
import './home.css';

const VIEWS = '/memory/views/';
/** Enough to fill the card; the Views screen holds the rest. */
const LIST_LIMIT = 50;

/**
 * Today at a glance: the book against its limits, what awaits the PM's decision, which Views
 * need a second look, and what the analyst and the schedule are doing. Every line opens its screen.
 */
export function HomeScreen() {
  const info = screenInfo.home;
  return (
    <section className="screen screen-scroll home-screen" data-testid="screen-home" aria-labelledby="title-home">
      <header className="screen-header">
        <h1 id="title-home">{info.label}</h1>
        <p className="screen-purpose">{info.purpose}</p>
      </header>
      <div className="home-grid">
        <FirstRunCard />
        <SampleWorkspaceCard />
        <BookPanel />
        <AwaitingPanel />
        <ViewsPanel />
        <TasksPanel />
        <ProposalsPanel />
        <ScheduledPanel />
        <MorningReviewPanel />
      </div>
    </section>
  );
}

function BookPanel() {
  const book = useProcedure('portfolio/book', {});
  const bars = book.data ? usageBars(book.data.usage) : [];
  return (
    <Panel
      id="book"
      title="Book against limits"
      screen="portfolio"
      linkLabel="Portfolio →"
      query={book}
      isEmpty={bars.length === 0}
      empty="No limits to measure against yet. Set them in constraints on the Portfolio screen."
    >
      <ul className="home-list usage-list" aria-label="Limit usage">
        {bars.map((b) => (
          <li key={b.rule}>
            <a className={`usage-row tone-${b.tone}`} href={formatHash({ screen: 'portfolio' })} data-testid="usage-bar" data-rule={b.rule}>
              <span className="usage-label">{b.label}</span>
              <span className="usage-figures num">
                <span data-testid="usage-value">{figure(b.value)}</span> of <span data-testid="usage-limit">{limitFigure(b.limit)}</span>
                <span className="usage-unit"> {b.unit}</span>
              </span>
              {/* The figures above carry the meaning; the bar only shows it at a glance. */}
              <span className="usage-track" aria-hidden="true">
                <span className="usage-fill" style={{ width: `${b.fillPct}%` }} />
              </span>
              <span className="usage-share num">{shareText(b)}</span>
            </a>
          </li>
        ))}
      </ul>
      {book.data && (
        <p className="muted small home-foot">
          Computed from the positions snapshot of {book.data.asOf.replace(/T.*$/, '')} and the Expressions approved since.
        </p>
      )}
    </Panel>
  );
}

function AwaitingPanel() {
  const listed = useProcedure('memory/list', awaitingApprovalInput, { staleTime: 60_000 });
  const entries = listed.data ? awaitingOrder(listed.data.entries) : [];
  return (
    <Panel
      id="awaiting"
      title="Expressions awaiting approval"
      screen="expressions"
      linkLabel="Expressions →"
      count={listed.data?.total ?? null}
      query={listed}
      isEmpty={entries.length === 0}
      empty="Nothing awaits your approval. Ask the analyst in Chat for a trade idea; a proposed Expression appears here to approve or reject."
    >
      <ul className="home-list">
        {entries.map((e) => (
          <ItemLink key={e.path} screen="expressions" rest={[e.name]} testId="home-awaiting-item" dataId={e.id ?? undefined}>
            <span className="home-id">{e.id}</span>
            <span className="home-title">{e.title}</span>
            <span className="home-when num">{relativeTime(e.updatedAt)}</span>
          </ItemLink>
        ))}
      </ul>
    </Panel>
  );
}

function ViewsPanel() {
  // Taken once: a cutoff that moved on every render would be a new query each time.
  const [now] = useState(() => Date.now());
  const invalidated = useProcedure('memory/list', { path: VIEWS, query: 'status:invalidated', limit: LIST_LIMIT });
  const review = useProcedure('memory/list', { path: VIEWS, query: 'status:review_required', limit: LIST_LIMIT });
  const stale = useProcedure('memory/list', { path: VIEWS, query: `updated<${staleCutoff(now)}`, limit: LIST_LIMIT });
  // The most recently edited live Views, each with the confidence its previous version had.
  const recent = useProcedure('memory/table', { category: 'views', query: 'status:active', sort: 'updated', dir: 'desc', offset: 0, limit: 200 });
  const queries = [invalidated, review, stale, recent];
  const failed = queries.find((q) => q.isError);
  const state = {
    isPending: queries.some((q) => q.isPending),
    isError: failed !== undefined,
    error: failed?.error,
    refetch: () => Promise.all(queries.map((q) => q.refetch())),
  };
  const views = viewsNeedingAttention(
    [invalidated, review, stale].flatMap((q) => q.data?.entries ?? []),
    now,
    undefined,
    recent.data?.rows ?? [],
  );
  return (
    <Panel
      id="views"
      title="Views needing attention"
      screen="views"
      linkLabel="Views →"
      count={state.isPending || state.isError ? null : views.length}
      query={state}
      isEmpty={views.length === 0}
      empty="Every View is current. A View shows here when one of its invalidation conditions fires, it is flagged for review, its confidence falls, or it goes 14 days without an update."
    >
      <ul className="home-list">
        {views.map((v) => (
          <ItemLink key={v.id} screen="views" rest={[`${v.id}.md`]} testId="home-view-item" dataId={v.id}>
            <span className="home-id">{v.id}</span>
            <span className="home-title">{v.title}</span>
            {v.reasons.map((r) => (
              <span key={r} className={`badge home-reason reason-${r}`}>
                {reasonText(r, v.ageDays, v.fell)}
              </span>
            ))}
          </ItemLink>
        ))}
      </ul>
    </Panel>
  );
}
