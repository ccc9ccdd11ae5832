import { describe, expect, it } from 'vitest';
import { QueryClient } from '@tanstack/react-query';
import type { BuildDetail, BuildLogEntry, BuildSummary } from '../../src-main/api/builds';
import { procedureKey } from '../api/hooks';
import { buildsListInput, detailKey, handleBuildChanged, handleBuildLog, handleCommandConsent, mergeDetail } from './live';

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

function detail(build: BuildSummary, log: BuildLogEntry[] = []): BuildDetail {
  return {
    build,
    commands: { allowNetwork: false, approvedClasses: [], consent: null },
    phases: [],
    stop: null,
    log,
    scratchpad: [],
    context: { fixedTokens: 3000, conversationTokens: 0, limitTokens: 150_000, compactions: [] },
    turns: [],
  };
}

const line = (seq: number, text = `line ${seq}`): BuildLogEntry => ({ seq, at: '2026-11-21T09:00:00.000Z', kind: 'text', text, tool: null, isError: false });

describe('builds/changed', () => {
  it('moves the cached listing to the pushed state and marks the open build stale so its phases reload', () => {
    const qc = new QueryClient();
    const b = summary({ id: 'b1' });
    qc.setQueryData(procedureKey('builds/list', buildsListInput), { builds: [b] });
    qc.setQueryData(detailKey('b1'), detail(b));
    const waiting = { ...b, status: 'waiting_answer' as const, updatedAt: '2026-11-21T09:05:00.000Z' };
    handleBuildChanged(qc, waiting);
    expect(qc.getQueryData<{ builds: BuildSummary[] }>(procedureKey('builds/list', buildsListInput))!.builds.map((x) => x.status)).toEqual(['waiting_answer']);
    expect(qc.getQueryData<BuildDetail>(detailKey('b1'))!.build.status).toBe('waiting_answer');
    expect(qc.getQueryState(detailKey('b1'))!.isInvalidated).toBe(true);
  });

  it('leaves other builds alone', () => {
    const qc = new QueryClient();
    const other = summary({ id: 'b2' });
    qc.setQueryData(detailKey('b2'), detail(other));
    handleBuildChanged(qc, summary({ id: 'b1', updatedAt: '2026-11-21T10:00:00.000Z' }));
    expect(qc.getQueryState(detailKey('b2'))!.isInvalidated).toBe(false);
  });
});

describe('builds/log', () => {
  it("appends the pushed line to that build's open log without a refetch, and ignores builds not open", () => {
    const qc = new QueryClient();
    qc.setQueryData(detailKey('b1'), detail(summary({ id: 'b1' }), [line(1)]));
    handleBuildLog(qc, { buildId: 'b1', entry: line(2, 'write_file src/add.js') });
    handleBuildLog(qc, { buildId: 'b9', entry: line(1) });
    expect(qc.getQueryData<BuildDetail>(detailKey('b1'))!.log.map((e) => e.text)).toEqual(['line 1', 'write_file src/add.js']);
    expect(qc.getQueryData(detailKey('b9'))).toBeUndefined();
    expect(qc.getQueryState(detailKey('b1'))!.isInvalidated).toBe(false);
  });

  it('keeps a line pushed while a re-read was on its way instead of losing it', () => {
    const b = summary({ id: 'b1' });
    const cached = detail(b, [line(1), line(2), line(3)]);
    const reread = detail({ ...b, status: 'paused' }, [line(1), line(2)]);
    const merged = mergeDetail(cached, reread);
    expect(merged.build.status).toBe('paused');
    expect(merged.log.map((e) => e.seq)).toEqual([1, 2, 3]);
    expect(mergeDetail(undefined, reread)).toBe(reread);
  });

  it('puts a command waiting for the PM on the open build at once, and re-reads its detail', () => {
    const qc = new QueryClient();
    qc.setQueryData(detailKey('b1'), detail(summary({ id: 'b1' })));
    const request = {
      requestId: 'r1',
      commandClass: 'tests',
      commandLine: 'npm test',
      notice: 'Commands are not confined on this machine (x).',
      at: '2026-11-21T09:00:00.000Z',
    };
    handleCommandConsent(qc, { buildId: 'b1', request });
    expect(qc.getQueryData<BuildDetail>(detailKey('b1'))!.commands.consent).toEqual(request);
    expect(qc.getQueryState(detailKey('b1'))!.isInvalidated).toBe(true);
  });
});
