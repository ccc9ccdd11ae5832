import { useQuery } from '@tanstack/react-query';
import { useEffect } from 'react';
import { useClient } from '../api/hooks';
import { badgeText, usePendingProposals } from './live';
import './badge.css';

/**
 * The count of pending proposals beside "Proposals" in the sidebar: read once from
 * proposals/list, then kept live by `proposals/changed` (see live.ts).
 */
export function PendingBadge() {
  const client = useClient();
  const dispatch = usePendingProposals((s) => s.dispatch);
  const count = usePendingProposals((s) => s.count);
  // Its own key under 'proposals/list', so every invalidation of the listings re-reads it too.
  const listed = useQuery({
    queryKey: ['proposals/list', { status: 'pending' }, 'badge'],
    queryFn: async () => {
      const requestedAtSeq = usePendingProposals.getState().seq;
      const r = await client.call('proposals/list', { status: 'pending' });
      return { count: r.pendingCount, requestedAtSeq };
    },
    staleTime: 60_000,
  });
  useEffect(() => {
    if (listed.data) dispatch({ type: 'listed', count: listed.data.count, requestedAtSeq: listed.data.requestedAtSeq });
  }, [listed.data, dispatch]);

  const text = badgeText(count);
  if (!text) return null;
  return (
    <strong className="nav-badge" data-testid="proposals-badge" title={`${count} pending ${count === 1 ? 'proposal' : 'proposals'}`}>
      {text}
      {/* Read with the link: "Proposals 3 pending". */}
      <em className="visually-hidden"> pending</em>
    </strong>
  );
}
