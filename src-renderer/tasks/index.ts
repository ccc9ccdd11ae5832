export { TasksScreen } from './TasksScreen';
export { handleTaskEvent, tasksListInput } from './live';
export { groupBySession, layoutSession, upsertTask, routeTask, taskRoute, statusLabel, canRetry, isLive } from './model';
