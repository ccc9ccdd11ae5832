import type { QueryClient } from '@tanstack/react-query';
import type { TaskView } from '../../src-main/api/tasks';
import { upsertTask } from './model';

/** The one listing the Tasks screen reads; pushed updates are merged into it. */
export const tasksListInput = { limit: 500 } as const;

/**
 * A `tasks/changed` event: the task is merged into every cached listing (so the screen moves at
 * once, without a refetch), and its detail, if open, reloads its output and event trail.
 */
export function handleTaskEvent(queryClient: QueryClient, task: TaskView): void {
  queryClient.setQueriesData<{ tasks: TaskView[] }>({ queryKey: ['tasks/list'] }, (old) => (old ? { tasks: upsertTask(old.tasks, task) } : old));
  void queryClient.invalidateQueries({ queryKey: ['tasks/get', { sessionId: task.sessionId, id: task.id }] });
  if (task.resultPath) void queryClient.invalidateQueries({ queryKey: ['memory/read', { path: task.resultPath, depth: 'full' }] });
}
