import { describe, expect, it } from 'vitest';
import type { TaskView } from '../../src-main/api/tasks';
import { canRetry, formatCost, formatDuration, groupBySession, isLive, layoutSession, routeTask, statusLabel, upsertTask } from './model';

let n = 0;
function task(over: Partial<TaskView> & { id: string }): TaskView {
  n += 1;
  return {
    sessionId: 's1',
    skill: 'view-validation',
    objective: `objective ${over.id}`,
    context: [],
    notes: null,
    dependsOn: [],
    retryOf: null,
    validate: false,
    validateContrastive: false,
    status: 'queued',
    failure: null,
    error: null,
    summary: null,
    resultPath: null,
    validation: null,
    inputTokens: 0,
    outputTokens: 0,
    costUsd: 0,
    rounds: 0,
    createdAt: `2026-11-21T09:00:${String(n).padStart(2, '0')}.000Z`,
    startedAt: null,
    finishedAt: null,
    updatedAt: `2026-11-21T09:00:${String(n).padStart(2, '0')}.000Z`,
    durationMs: null,
    ...over,
  };
}

describe('task layout', () => {
  it('puts a diamond A → B, C → D in dependency order with D indented under both', () => {
    const rows = layoutSession([
      task({ id: 'D', dependsOn: ['B', 'C'] }),
      task({ id: 'A' }),
      task({ id: 'B', dependsOn: ['A'] }),
      task({ id: 'C', dependsOn: ['A'] }),
    ]);
    expect(rows.map((r) => [r.task.id, r.depth])).toEqual([
      ['A', 0],
      ['B', 1],
      ['C', 1],
      ['D', 2],
    ]);
  });

  it('still shows tasks whose dependency is missing from the page, or that form a cycle', () => {
    const rows = layoutSession([task({ id: 'X', dependsOn: ['elsewhere'] }), task({ id: 'P', dependsOn: ['Q'] }), task({ id: 'Q', dependsOn: ['P'] })]);
    expect(rows.map((r) => r.task.id).sort()).toEqual(['P', 'Q', 'X']);
    expect(rows.find((r) => r.task.id === 'X')!.depth).toBe(0);
  });

  it('groups by session, newest session first, with counts per status', () => {
    const old = task({ id: 'a', sessionId: 'morning', status: 'ok' });
    const g = groupBySession([old, task({ id: 'b', sessionId: 'noon', status: 'failed' }), task({ id: 'c', sessionId: 'noon', status: 'running' })]);
    expect(g.map((x) => x.sessionId)).toEqual(['noon', 'morning']);
    expect(g[0].counts).toEqual({ failed: 1, running: 1 });
  });
});

describe('live updates', () => {
  it('replaces a task with its newer copy and adds unseen tasks at the top', () => {
    const a = task({ id: 'a', status: 'running', updatedAt: '2026-11-21T10:00:00.000Z' });
    const list = [a, task({ id: 'b' })];
    const done = { ...a, status: 'ok' as const, updatedAt: '2026-11-21T10:00:05.000Z' };
    expect(upsertTask(list, done).map((t) => [t.id, t.status])).toEqual([
      ['a', 'ok'],
      ['b', 'queued'],
    ]);
    expect(upsertTask(list, task({ id: 'c' }))[0].id).toBe('c');
  });

  it('keeps the newer state when an older event arrives after a fresh list read', () => {
    const fresh = task({ id: 'a', status: 'ok', updatedAt: '2026-11-21T10:00:05.000Z' });
    const stale = { ...fresh, status: 'running' as const, updatedAt: '2026-11-21T10:00:01.000Z' };
    expect(upsertTask([fresh], stale)[0].status).toBe('ok');
  });

  it('does not confuse tasks with the same id in different sessions', () => {
    const out = upsertTask([task({ id: 'a', sessionId: 's1' })], task({ id: 'a', sessionId: 's2' }));
    expect(out.map((t) => t.sessionId)).toEqual(['s2', 's1']);
  });
});

describe('actions and words', () => {
  it('offers Cancel only while a task works and Retry only after it failed or was cancelled', () => {
    expect(
      (['queued', 'waiting', 'running', 'validating', 'ok', 'failed', 'cancelled'] as const).map((s) => [s, isLive({ status: s }), canRetry({ status: s })]),
    ).toEqual([
      ['queued', true, false],
      ['waiting', true, false],
      ['running', true, false],
      ['validating', true, false],
      ['ok', false, false],
      ['failed', false, true],
      ['cancelled', false, true],
    ]);
    expect(statusLabel.waiting).toBe('waiting on deps');
  });

  it('formats timing and cost the way a PM reads them', () => {
    expect([formatDuration(null), formatDuration(850), formatDuration(12_400), formatDuration(185_000)]).toEqual(['—', '850 ms', '12.4 s', '3 min 05 s']);
    expect([formatCost(null), formatCost(0), formatCost(0.0042), formatCost(1.234)]).toEqual(['cost n/a', '$0', '$0.0042', '$1.23']);
  });

  it('reads a task from its route and rejects half a route', () => {
    expect(routeTask(['sess_1', 'sa_growth'])).toEqual({ sessionId: 'sess_1', id: 'sa_growth' });
    expect(routeTask(['sess_1'])).toBeNull();
  });
});
