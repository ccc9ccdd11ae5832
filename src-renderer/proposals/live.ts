import type { QueryClient } from '@tanstack/react-query';
import { create } from 'zustand';
import type { EventName } from '../../src-main/api';

/**
 * The sidebar's pending-proposals count. It starts from proposals/list and then follows the
 * `proposals/changed` events. A listing that was asked for before the latest event may answer
 * after it with the older count; `seq` lets the reducer drop that stale answer instead of showing
 * a badge that disagrees with the screen.
 */
export interface PendingState {
  /** Null until the first listing or event arrives (no badge rather than a made-up 0). */
  count: number | null;
  /** How many events have been applied; a listing remembers the value when it was requested. */
  seq: number;
}

export type PendingAction = { type: 'listed'; count: number; requestedAtSeq: number } | { type: 'changed'; count: number };

export function pendingReducer(state: PendingState, action: PendingAction): PendingState {
  if (action.type === 'changed') return { count: action.count, seq: state.seq + 1 };
  // An event arrived while the listing was in flight: the event's count is newer.
  if (action.requestedAtSeq < state.seq) return state;
  return { count: action.count, seq: state.seq };
}

/** Badge text: nothing at 0 (a quiet sidebar), "99+" past two digits. */
export function badgeText(count: number | null): string | null {
  if (count === null || count <= 0) return null;
  return count > 99 ? '99+' : String(count);
}

export const usePendingProposals = create<PendingState & { dispatch: (a: PendingAction) => void }>((set) => ({
  count: null,
  seq: 0,
  dispatch: (a) => set((s) => pendingReducer(s, a)),
}));

/** The events this feature listens to, for the preload bridge (the WebSocket carries every event). */
export const proposalEventNames = ['proposals/changed'] as const satisfies readonly EventName[];

/**
 * A `proposals/changed` event: a proposal was written or decided (here, in another window, or by
 * the retrospective). The badge moves at once; the listings, the open proposal and the Skills
 * screen's versions are re-read.
 */
export function handleProposalsChanged(queryClient: QueryClient, payload: { pendingCount: number }): void {
  usePendingProposals.getState().dispatch({ type: 'changed', count: payload.pendingCount });
  for (const key of ['proposals/list', 'proposals/get', 'skills/versions']) void queryClient.invalidateQueries({ queryKey: [key] });
}
