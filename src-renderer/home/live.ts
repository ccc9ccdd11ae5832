import type { QueryClient } from '@tanstack/react-query';

/**
 * `portfolio/changed`: an Expression was written, approved, rejected or closed. What awaits the
 * PM's approval may have changed with it, so the memory listings (the sidebar badge and Home's
 * list among them) are read again.
 */
export function refreshAwaitingApproval(queryClient: QueryClient): void {
  void queryClient.invalidateQueries({ queryKey: ['memory/list'] });
}
