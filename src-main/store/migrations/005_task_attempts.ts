import type { Migration } from './types';

/**
 * Task attempts are found by SQL: "the newest attempt of task X" is `WHERE session_id = ? AND
 * retry_of = ?` (TaskExecutor.latestAttempt, when a retry re-points its dependencies), not a scan of
 * the session's tasks. Only retries carry retry_of, so the index holds just those.
 */
export const taskAttempts: Migration = {
  version: 5,
  name: '005_task_attempts',
  up(db) {
    db.exec(`CREATE INDEX tasks_by_retry_of ON tasks (session_id, retry_of, created_at DESC) WHERE retry_of IS NOT NULL;`);
  },
};
