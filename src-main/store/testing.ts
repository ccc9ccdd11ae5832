import type { RecordInput } from './records';

/**
 * A memory record with only what a test or benchmark cares about: no confidence, weight, scope or
 * linked View, written at `at` (default 1 May 2026). Writes go through `store.records.upsert`, so
 * the FTS5 triggers index it exactly as ForgeFS's writes are indexed.
 */
export function plainRecord(r: {
  category: string;
  id: string;
  title: string;
  body: string | null;
  status?: string;
  at?: string;
  header?: string;
  contentHash?: string;
}): RecordInput {
  const at = r.at ?? '2026-05-01T00:00:00.000Z';
  return {
    category: r.category,
    id: r.id,
    title: r.title,
    status: r.status ?? 'active',
    confidence: null,
    weight: null,
    scope: null,
    view_id: null,
    meta: '',
    created_at: at,
    updated_at: at,
    header: r.header ?? '{}',
    body: r.body,
    content_hash: r.contentHash ?? r.id,
  };
}

/** A seeded generator (xorshift), so a failing generated corpus can be rebuilt exactly. */
export function seededRandom(seed: number): () => number {
  let s = seed;
  return () => {
    s ^= s << 13;
    s ^= s >>> 17;
    s ^= s << 5;
    return (s >>> 0) / 4294967296;
  };
}
