import { QueryClient } from '@tanstack/react-query';
import { beforeEach, describe, expect, it } from 'vitest';
import { badgeText, handleProposalsChanged, pendingReducer, usePendingProposals } from './live';

describe('the pending-proposals badge count', () => {
  it('starts from the listing and follows each proposals/changed event', () => {
    let s = pendingReducer({ count: null, seq: 0 }, { type: 'listed', count: 2, requestedAtSeq: 0 });
    expect(s.count).toBe(2);
    s = pendingReducer(s, { type: 'changed', count: 1 });
    expect(s).toEqual({ count: 1, seq: 1 });
  });

  it('ignores a listing that was asked for before the latest event (it carries the older count)', () => {
    // The PM approves: the event says 0 pending while a listing sent earlier still answers 1.
    const afterEvent = pendingReducer({ count: 1, seq: 0 }, { type: 'changed', count: 0 });
    const stale = pendingReducer(afterEvent, { type: 'listed', count: 1, requestedAtSeq: 0 });
    expect(stale.count).toBe(0);
    const fresh = pendingReducer(afterEvent, { type: 'listed', count: 3, requestedAtSeq: 1 });
    expect(fresh.count).toBe(3);
  });

  it('shows nothing at zero or before anything is known, and caps at 99+', () => {
    expect(badgeText(null)).toBeNull();
    expect(badgeText(0)).toBeNull();
    expect(badgeText(4)).toBe('4');
    expect(badgeText(120)).toBe('99+');
  });
});

describe('a proposals/changed event', () => {
  beforeEach(() => usePendingProposals.setState({ count: null, seq: 0 }));

  it('moves the badge at once and marks the listings, the open proposal and skill versions stale', async () => {
    const qc = new QueryClient();
    qc.setQueryData(['proposals/list', {}], { proposals: [], pendingCount: 2 });
    qc.setQueryData(['proposals/get', { id: 'SEP-001' }], { id: 'SEP-001' });
    qc.setQueryData(['skills/versions', { skill: 'expression-design' }], { versions: [] });
    qc.setQueryData(['memory/list', {}], { rows: [] });
    handleProposalsChanged(qc, { pendingCount: 1 });
    expect(usePendingProposals.getState().count).toBe(1);
    expect(qc.getQueryState(['proposals/list', {}])?.isInvalidated).toBe(true);
    expect(qc.getQueryState(['proposals/get', { id: 'SEP-001' }])?.isInvalidated).toBe(true);
    expect(qc.getQueryState(['skills/versions', { skill: 'expression-design' }])?.isInvalidated).toBe(true);
    // Unrelated screens are left alone.
    expect(qc.getQueryState(['memory/list', {}])?.isInvalidated).toBe(false);
  });
});
