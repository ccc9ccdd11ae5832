import { describe, expect, it } from 'vitest';
import { hasToken, isRelevant, quickFilters, searchMemory, toggleToken, type SearchHitView } from './search';
import type { ForgeClient } from '../api/client';

describe('filter chips', () => {
  it('add a term to the filter and take it away again on a second click', () => {
    const on = toggleToken('inflation', 'status:active');
    expect(on).toBe('inflation status:active');
    expect(hasToken(on, 'status:active')).toBe(true);
    expect(toggleToken(on, 'status:active')).toBe('inflation');
  });

  it('do not mistake a longer term for the chip’s term', () => {
    expect(hasToken('status:active2', 'status:active')).toBe(false);
  });

  it('offer a 90-day window ending today and the confidence chip only for Views', () => {
    const today = new Date('2026-03-31T12:00:00Z');
    expect(quickFilters('views', today).map((f) => f.token)).toEqual(['status:active', 'confidence>=0.6', 'since:2025-12-31']);
    expect(quickFilters('expressions', today).map((f) => f.token)).toEqual(['status:active', 'since:2025-12-31']);
  });
});

describe('meaning search relevance floor', () => {
  const hit = (semantic: number, vector: number, keyword: number): SearchHitView => ({
    path: '/memory/views/V-001.md',
    id: 'V-001',
    category: 'views',
    title: 't',
    score: 0.7 * semantic + 0.3,
    semantic,
    vector,
    keyword,
    recency: 1,
    updatedAt: '2026-01-01T00:00:00Z',
    header: '',
  });

  it('drops a hit that is only there because it is recent (no word matched, meaning unrelated)', () => {
    expect(isRelevant(hit(0, 0, 0))).toBe(false);
    expect(isRelevant(hit(0.03, 0.08, 0))).toBe(false);
  });

  it('keeps hits that share a word with the query or are close in meaning', () => {
    expect(isRelevant(hit(0.4, 0.05, 0.6))).toBe(true);
    expect(isRelevant(hit(0.3, 0.55, 0))).toBe(true);
  });

  it('filters the results the Memory screen lists, keeping their order', async () => {
    const results = [hit(0.8, 0.6, 1), hit(0, 0, 0), hit(0.3, 0.4, 0)].map((h, i) => ({ ...h, id: `V-00${i}` }));
    const client = { call: async () => ({ results, degraded: null }) } as unknown as ForgeClient;
    const r = await searchMemory(client, { scope: '/memory/', query: 'curve' });
    expect(r.results.map((h) => h.id)).toEqual(['V-000', 'V-002']);
  });
});
