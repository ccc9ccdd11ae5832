import type { ForgeClient } from '../api/client';

/**
 * Search by meaning (`memory/search`). Shapes mirror the search index's result (path, score and
 * its parts, header lines). Kept in one file so the call can switch to the contract's own types
 * the moment the procedure is in `src-main/api`.
 */
export interface SearchHitView {
  path: string;
  id: string;
  category?: string;
  title: string;
  score: number;
  semantic?: number;
  keyword?: number;
  vector?: number;
  recency?: number;
  updatedAt?: string;
  header?: string;
}

export interface SearchResultView {
  results: SearchHitView[];
  /** Set when only keyword search could run (the embedding provider is down). */
  degraded?: string | null;
}

export interface SearchInputView {
  scope: string;
  query: string;
  filters?: string;
  maxResults?: number;
}

export function searchMemory(client: ForgeClient, input: SearchInputView): Promise<SearchResultView> {
  const call = client.call as unknown as (name: string, input: SearchInputView) => Promise<SearchResultView>;
  return call('memory/search', input);
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
