import { useProcedure } from '../api/hooks';

/** Whether this server is a desk (people sign in); false while unknown or on a PM's own workspace. */
export function useIsDesk(): boolean {
  const status = useProcedure('desk/status', {}, { staleTime: Number.POSITIVE_INFINITY, retry: false });
  return status.data?.desk === true;
}
