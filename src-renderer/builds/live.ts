import type { QueryClient } from '@tanstack/react-query';
import type { BuildDetail, BuildLogEntry, BuildSummary } from '../../src-main/api/builds';
import type { EventName } from '../../src-main/api';
import { procedureKey } from '../api/hooks';
import { mergeLog } from './log';
import { upsertBuild } from './model';

/**
 * Builds progress is pushed: `builds/changed` moves the listing and reloads the open build's
 * detail; `builds/log` appends to the open build's log in place, so the log streams without a
 * refetch per line.
 */

export const buildEventNames = ['builds/changed', 'builds/log'] as const satisfies readonly EventName[];

export const buildsListInput = {} as const;

export function detailKey(id: string) {
  return procedureKey('builds/get', { id });
}

export function handleBuildChanged(queryClient: QueryClient, build: BuildSummary): void {
  queryClient.setQueriesData<{ builds: BuildSummary[] }>({ queryKey: ['builds/list'] }, (old) => (old ? { builds: upsertBuild(old.builds, build) } : old));
  const key = detailKey(build.id);
  queryClient.setQueryData<BuildDetail>(key, (old) => (old && old.build.updatedAt <= build.updatedAt ? { ...old, build } : old));
  // Phases, tests, findings and the scratchpad are only in the detail: read it again.
  void queryClient.invalidateQueries({ queryKey: key, exact: true });
}

export function handleBuildLog(queryClient: QueryClient, payload: { buildId: string; entry: BuildLogEntry }): void {
  queryClient.setQueryData<BuildDetail>(detailKey(payload.buildId), (old) => (old ? { ...old, log: mergeLog(old.log, [payload.entry]) } : old));
}

/**
 * How a fresh `builds/get` replaces the cached one: a line pushed while the read was on its way
 * (newer than anything the read returned) is kept rather than lost until the next change.
 */
export function mergeDetail(old: BuildDetail | undefined, next: BuildDetail): BuildDetail {
  if (!old || old.build.id !== next.build.id) return next;
  const newest = next.log[next.log.length - 1]?.seq ?? 0;
  const later = old.log.filter((e) => e.seq > newest);
  return later.length ? { ...next, log: mergeLog(next.log, later) } : next;
}
