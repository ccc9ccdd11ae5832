import { describe, expect, it } from 'vitest';
import type { BuildStatus, BuildSummary } from '../../src-main/api/builds';
import { controlsFor, folderName, phaseProgress, sortNewestFirst, statusLabel, upsertBuild } from './model';

function summary(over: Partial<BuildSummary> & { id: string }): BuildSummary {
  return {
    workDir: '/home/ana/todo-app',
    projectName: 'Todo app',
    mode: 'mcp',
    mini: false,
    model: 'claude-opus-5-5',
    status: 'running',
    currentPhase: 0,
    totalPhases: 2,
    createdAt: '2026-11-21T09:00:00.000Z',
    updatedAt: '2026-11-21T09:00:00.000Z',
    inputTokens: 0,
    outputTokens: 0,
    costUsd: null,
    error: null,
    ...over,
  };
}

describe('controls by status', () => {
  it('offers Pause only while working, Resume after a pause, failure or restart, the answer form only on a STOP code, and nothing once final', () => {
    const all: BuildStatus[] = ['running', 'paused', 'waiting_answer', 'completed', 'stopped', 'failed', 'interrupted'];
    const table = all.map((s) => {
      const c = controlsFor(s);
      return [s, c.pause, c.resume, c.stop, c.answer];
    });
    expect(table).toEqual([
      ['running', true, false, true, false],
      ['paused', false, true, true, false],
      ['waiting_answer', false, false, true, true],
      ['completed', false, false, false, false],
      ['stopped', false, false, false, false],
      ['failed', false, true, true, false],
      ['interrupted', false, true, true, false],
    ]);
    expect(statusLabel.waiting_answer).toBe('waiting for your answer');
  });
});

describe('phase progress', () => {
  it('counts phases signed off and finds the current one by position, whether plans number phases from 0 or from 1', () => {
    const fromZero = [
      { number: 0, status: 'signed_off' as const },
      { number: 1, status: 'in_progress' as const },
      { number: 2, status: 'pending' as const },
    ];
    expect(phaseProgress({ currentPhase: 1, totalPhases: 3, status: 'running' }, fromZero)).toEqual({ signedOff: 1, total: 3, current: 2 });
    const fromOne = fromZero.map((p) => ({ ...p, number: p.number + 1 }));
    expect(phaseProgress({ currentPhase: 2, totalPhases: 3, status: 'running' }, fromOne)).toEqual({ signedOff: 1, total: 3, current: 2 });
  });

  it('reads a completed build as all phases done, and falls back to the summary before the phases load', () => {
    const done = [
      { number: 0, status: 'signed_off' as const },
      { number: 1, status: 'signed_off' as const },
    ];
    expect(phaseProgress({ currentPhase: 1, totalPhases: 2, status: 'completed' }, done)).toEqual({ signedOff: 2, total: 2, current: 2 });
    expect(phaseProgress({ currentPhase: 7, totalPhases: 4, status: 'running' }, [])).toEqual({ signedOff: 0, total: 4, current: 1 });
  });
});

describe('the builds listing', () => {
  it('puts a newly started build at the top and replaces a known one with its newer copy', () => {
    const old = summary({ id: 'b1', createdAt: '2026-11-20T09:00:00.000Z' });
    const list = [old];
    const started = summary({ id: 'b2', createdAt: '2026-11-21T10:00:00.000Z' });
    expect(upsertBuild(list, started).map((b) => b.id)).toEqual(['b2', 'b1']);
    const moved = { ...old, status: 'paused' as const, updatedAt: '2026-11-21T11:00:00.000Z' };
    expect(upsertBuild(list, moved).map((b) => [b.id, b.status])).toEqual([['b1', 'paused']]);
  });

  it('keeps the newer state when an older event arrives after a fresh list read', () => {
    const fresh = summary({ id: 'b1', status: 'completed', updatedAt: '2026-11-21T10:00:05.000Z' });
    const stale = { ...fresh, status: 'running' as const, updatedAt: '2026-11-21T10:00:01.000Z' };
    expect(upsertBuild([fresh], stale)[0]!.status).toBe('completed');
  });

  it('orders builds newest first and names a project by its folder when it has no name', () => {
    const a = summary({ id: 'a', createdAt: '2026-11-19T00:00:00.000Z' });
    const b = summary({ id: 'b', createdAt: '2026-11-21T00:00:00.000Z' });
    expect(sortNewestFirst([a, b]).map((x) => x.id)).toEqual(['b', 'a']);
    expect([folderName('/home/ana/todo-app/'), folderName('C:\\work\\shop')]).toEqual(['todo-app', 'shop']);
  });
});
