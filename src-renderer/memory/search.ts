import type { ProcedureInput, ProcedureOutput } from '../../src-main/api';
import type { ForgeClient } from '../api/client';

/** Search by meaning (`memory/search`) and the search index's state (`search/status`, `search/reindex`). */
export type SearchInputView = ProcedureInput<'memory/search'>;
export type SearchResultView = ProcedureOutput<'memory/search'>;
export type SearchHitView = SearchResultView['results'][number];
export type SearchStatusView = ProcedureOutput<'search/status'>;
export type ReindexProgressView = ProcedureOutput<'search/reindex'>;

/**
 * Below these a hit is there only because it is recent: no query word in it (keyword 0) and a
 * meaning no closer than unrelated text usually sits (raw cosine; unrelated notes score about
 * 0–0.15 with the embedders Forge uses). Its score is then recency alone, which is not relevance.
 */
export const RELEVANCE_FLOOR = { semantic: 0.02, vector: 0.2 } as const;

export function isRelevant(hit: SearchHitView): boolean {
  if (hit.semantic < RELEVANCE_FLOOR.semantic) return false;
  return hit.keyword > 0 || hit.vector >= RELEVANCE_FLOOR.vector;
}

/** Search by meaning, without the hits that match the query in no way (the list would otherwise always be full). */
export async function searchMemory(client: ForgeClient, input: SearchInputView): Promise<SearchResultView> {
  const r = await client.call('memory/search', input);
  return { ...r, results: r.results.filter(isRelevant) };
}

export function searchIndexStatus(client: ForgeClient): Promise<SearchStatusView> {
  return client.call('search/status', {});
}

export function reindexSearch(client: ForgeClient): Promise<ReindexProgressView> {
  return client.call('search/reindex', {});
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
