import type { QueryClient } from '@tanstack/react-query';
import type { EventName } from '../../src-main/api';

/** The events this feature listens to, for the preload bridge (the WebSocket carries every event). */
export const deskEventNames = ['desk/changed'] as const satisfies readonly EventName[];

/**
 * Any server on the desk committed something (an approval, limits, a halt): the books and the
 * proposals waiting for a decision are read again, so an open Desk screen follows without a reload.
 */
export function handleDeskChanged(queryClient: QueryClient): void {
  // memory/access: a note's owner on another page or server changed who reads it (record.visibility).
  for (const key of ['desk/books', 'desk/proposals', 'memory/access']) void queryClient.invalidateQueries({ queryKey: [key] });
}
