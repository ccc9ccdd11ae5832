import type { ReactNode } from 'react';
import { ErrorPanel } from '../app/ErrorPanel';
import { formatHash, type Screen } from '../app/routes';

/**
 * One Home card: a heading that counts what it lists, a link to the screen that owns the items,
 * and the three states every read has (loading, failed with Try again, empty with what to do next).
 */
export function Panel(props: {
  id: string;
  title: string;
  screen: Screen;
  linkLabel: string;
  count?: number | null;
  query: { isPending: boolean; isError: boolean; error: unknown; refetch: () => unknown };
  isEmpty: boolean;
  empty: ReactNode;
  children: ReactNode;
}) {
  const headingId = `home-${props.id}-title`;
  const { query } = props;
  return (
    <article className="card home-card" data-testid={`home-${props.id}`} aria-labelledby={headingId}>
      <header className="home-card-head">
        <h2 id={headingId}>
          {props.title}
          {props.count !== undefined && props.count !== null && (
            <span className="home-count" data-testid={`home-${props.id}-count`}>
              {props.count}
            </span>
          )}
        </h2>
        <a className="home-open" href={formatHash({ screen: props.screen })} data-testid={`home-${props.id}-open`}>
          {props.linkLabel}
        </a>
      </header>
      {query.isPending && <p className="muted small">Loading…</p>}
      {query.isError && <ErrorPanel inline error={query.error} onRetry={() => void query.refetch()} testId={`home-${props.id}-error`} />}
      {!query.isPending && !query.isError && (props.isEmpty ? <p className="home-empty">{props.empty}</p> : props.children)}
    </article>
  );
}

/** A line of a Home list: the whole line is the link to the item on its screen. */
export function ItemLink(props: { screen: Screen; rest?: string[]; testId: string; dataId?: string; children: ReactNode }) {
  return (
    <li>
      <a className="home-item" href={formatHash({ screen: props.screen, rest: props.rest })} data-testid={props.testId} data-id={props.dataId}>
        {props.children}
      </a>
    </li>
  );
}
