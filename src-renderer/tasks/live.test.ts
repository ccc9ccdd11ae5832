import { describe, expect, it } from 'vitest';
import { QueryClient } from '@tanstack/react-query';
import type { TaskView } from '../../src-main/api/tasks';
import { procedureKey } from '../api/hooks';
import { handleTaskEvent, tasksListInput } from './live';

const base: TaskView = {
  sessionId: 's1',
  id: 'sa_rates',
  skill: 'view-validation',
  objective: 'Check V-001',
  context: [],
  notes: null,
  dependsOn: [],
  retryOf: null,
  validate: true,
  validateContrastive: false,
  status: 'running',
  failure: null,
  error: null,
  summary: null,
  resultPath: null,
  validation: null,
  inputTokens: 100,
  outputTokens: 10,
  costUsd: 0.001,
  rounds: 1,
  createdAt: '2026-11-21T09:00:00.000Z',
  startedAt: '2026-11-21T09:00:00.000Z',
  finishedAt: null,
  updatedAt: '2026-11-21T09:00:01.000Z',
  durationMs: 1000,
};

describe('tasks/changed', () => {
  it('moves the cached Tasks listing to the pushed state without a refetch', () => {
    const qc = new QueryClient();
    const key = procedureKey('tasks/list', tasksListInput);
    qc.setQueryData(key, { tasks: [base] });
    handleTaskEvent(qc, { ...base, status: 'ok', summary: 'Holds.', updatedAt: '2026-11-21T09:00:09.000Z' });
    expect(qc.getQueryData<{ tasks: TaskView[] }>(key)!.tasks.map((t) => [t.id, t.status, t.summary])).toEqual([['sa_rates', 'ok', 'Holds.']]);
  });

  it('marks the open task detail stale so its output and events reload', () => {
    const qc = new QueryClient();
    const detail = procedureKey('tasks/get', { sessionId: 's1', id: 'sa_rates' });
    qc.setQueryData(detail, { task: base, output: null, events: [] });
    handleTaskEvent(qc, { ...base, status: 'ok' });
    expect(qc.getQueryState(detail)!.isInvalidated).toBe(true);
    const other = procedureKey('tasks/get', { sessionId: 's1', id: 'other' });
    qc.setQueryData(other, { task: { ...base, id: 'other' }, output: null, events: [] });
    handleTaskEvent(qc, { ...base, status: 'failed' });
    expect(qc.getQueryState(other)!.isInvalidated).toBe(false);
  });
});
