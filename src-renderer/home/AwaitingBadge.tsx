import { useProcedure } from '../api/hooks';
import { badgeText } from '../proposals/live';
import { awaitingApprovalInput } from './model';
import '../proposals/badge.css';

/**
 * The count of Expressions awaiting approval beside "Expressions" in the sidebar. It shares its
 * query with Home's list (a key under 'memory/list'), so the refetch that follows `portfolio/changed`
 * (an Expression written, approved or rejected) and the analyst's memory writes moves it too.
 */
export function AwaitingBadge() {
  const listed = useProcedure('memory/list', awaitingApprovalInput, { staleTime: 60_000 });
  const count = listed.data ? listed.data.total : null;
  const text = badgeText(count);
  if (!text || count === null) return null;
  return (
    <strong className="nav-badge" data-testid="expressions-badge" title={`${count} ${count === 1 ? 'Expression' : 'Expressions'} awaiting approval`}>
      {text}
      {/* Read with the link: "Expressions 2 awaiting approval". */}
      <em className="visually-hidden"> awaiting approval</em>
    </strong>
  );
}
