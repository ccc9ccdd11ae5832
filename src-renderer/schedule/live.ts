import type { QueryClient } from '@tanstack/react-query';
import type { EventName, ProcedureOutput } from '../../src-main/api';
import type { ScheduleJobView } from '../../src-main/api/schedule';
import { upsertJob } from './model';

/** The events this feature listens to, for the preload bridge (the WebSocket carries every event). */
export const scheduleEventNames = ['schedule/changed'] as const satisfies readonly EventName[];

/**
 * A `schedule/changed` event: the job is merged into the cached listing at once (paused, running,
 * next run), and the history is re-read, since a run started or finished.
 */
export function handleScheduleChanged(queryClient: QueryClient, job: ScheduleJobView): void {
  queryClient.setQueriesData<ProcedureOutput<'schedule/list'>>({ queryKey: ['schedule/list'] }, (old) =>
    old ? { ...old, jobs: upsertJob(old.jobs, job) } : old,
  );
  void queryClient.invalidateQueries({ queryKey: ['schedule/history'] });
}
