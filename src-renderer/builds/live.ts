import type { QueryClient } from '@tanstack/react-query';
import type { BuildDetail, BuildLogEntry, BuildSummary, CommandConsentRequest } from '../../src-main/api/builds';
import type { EventName } from '../../src-main/api';
import { procedureKey } from '../api/hooks';
import { mergeLog } from './log';
import { upsertBuild } from './model';

/**
 * Builds progress is pushed: `builds/changed` moves the listing and reloads the open build's
 * detail; `builds/log` appends to the open build's log in place, so the log streams without a
 * refetch per line; `builds/command-consent` puts a command waiting for the PM's Allow on screen.
 */

export const buildEventNames = ['builds/changed', 'builds/log', 'builds/command-consent'] as const satisfies readonly EventName[];

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

/** A command waits for the PM (no sandbox on this machine): show it on the open build at once, then read the detail again. */
export function handleCommandConsent(queryClient: QueryClient, payload: { buildId: string; request: CommandConsentRequest }): void {
  const key = detailKey(payload.buildId);
  queryClient.setQueryData<BuildDetail>(key, (old) => (old ? { ...old, commands: { ...old.commands, consent: payload.request } } : old));
  void queryClient.invalidateQueries({ queryKey: key, exact: true });
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
