import type { ForgeClient } from '../api/client';

import type { z } from 'zod';
import type { memorySearchInput, memorySearchOutput, reindexProgress, searchStatus } from '../../src-main/api/search';

/**
 * Search by meaning (`memory/search`) and the search index's state (`search/status`,
 * `search/reindex`). Types come from the contract's schemas; the calls go through one loose
 * helper so this file keeps compiling while the procedures are being wired into the contract map.
 */
export type SearchInputView = z.input<typeof memorySearchInput>;
export type SearchResultView = z.output<typeof memorySearchOutput>;
export type SearchHitView = SearchResultView['results'][number];
export type SearchStatusView = z.output<typeof searchStatus>;
export type ReindexProgressView = z.output<typeof reindexProgress>;

function callLoose<T>(client: ForgeClient, name: string, input: unknown): Promise<T> {
  return (client.call as unknown as (name: string, input: unknown) => Promise<T>)(name, input);
}

export function searchMemory(client: ForgeClient, input: SearchInputView): Promise<SearchResultView> {
  return callLoose(client, 'memory/search', input);
}

export function searchIndexStatus(client: ForgeClient): Promise<SearchStatusView> {
  return callLoose(client, 'search/status', {});
}

export function reindexSearch(client: ForgeClient): Promise<ReindexProgressView> {
  return callLoose(client, 'search/reindex', {});
}

/** Quick filters offered as chips; each toggles one token of the query language. */
export function quickFilters(screen: 'views' | 'expressions', today: Date = new Date()): { label: string; token: string }[] {
  const since = new Date(today.getTime() - 90 * 86_400_000).toISOString().slice(0, 10);
  const common = [
    { label: 'Active', token: 'status:active' },
    { label: 'Last 90 days', token: `since:${since}` },
  ];
  return screen === 'views' ? [common[0], { label: 'Confidence ≥ 0.6', token: 'confidence>=0.6' }, common[1]] : common;
}

/** Adds the token to the filter text, or removes it when present (whitespace-separated terms). */
export function toggleToken(text: string, token: string): string {
  const terms = text.split(/\s+/).filter(Boolean);
  const at = terms.indexOf(token);
  if (at >= 0) terms.splice(at, 1);
  else terms.push(token);
  return terms.join(' ');
}

export function hasToken(text: string, token: string): boolean {
  return text.split(/\s+/).includes(token);
}
