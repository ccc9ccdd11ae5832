// The memory part of a search (vector-block candidates and BM25, fused and blended with recency), apart from searchMemory in search.ts, which validates the request and merges memory, session and passage hits.
import { extractHeader, type QueryAst, renderRecord } from '../fs';
import { keywordCandidates } from './keywords';
import { engineOf } from '../store';
import { cachedStatement, idsIn } from './statements';
import type { SearchScope } from './scope';
import type { SearchContext, SearchHit, SearchRequest, SearchTuning, SearchWeights } from './search';
import { dayNumber } from './vectors';

interface Pushdown {
  status: string | null;
  sinceDay: number | null;
  /** The latest `since:` date as written (SQL compares `updated_at >= since` as text). */
  since: string | null;
  /** Terms the block scan cannot apply; they are applied in SQL on the candidates. */
  residual: boolean;
}

function pushdownOf(ast: QueryAst | null, scope: SearchScope): Pushdown {
  const p: Pushdown = { status: null, sinceDay: null, since: null, residual: scope.idPrefix !== null };
  for (const t of ast?.terms ?? []) {
    if (t.kind === 'eq' && t.key.toLowerCase() === 'status' && p.status === null) p.status = t.value.toLowerCase();
    else if (t.kind === 'since') {
      p.sinceDay = Math.max(p.sinceDay ?? -Infinity, dayNumber(`${t.date}T00:00:00Z`));
      // Two since: terms both apply; the later date is the one that binds (text order is date order here).
      if (p.since === null || t.date > p.since) p.since = t.date;
    } else p.residual = true;
  }
  return p;
}

interface Candidate {
  rid: number;
  cos: number;
  bm25: number;
  vRank: number;
  kRank: number;
}

export interface MemoryQuery {
  scope: SearchScope;
  query: string;
  words: string[];
  ast: QueryAst | null;
  compiled: { where: string; params: unknown[] };
  mode: NonNullable<SearchRequest['mode']>;
  t: SearchTuning;
  weights: SearchWeights;
  maxResults: number;
  /** The query's vector, or null when only keywords can be used. */
  qv: Float32Array | null;
}

/** The memory part of a search: vector-block candidates and FTS5 BM25, fused and blended with recency. */
export async function memoryResults(ctx: SearchContext, req: SearchRequest, q: MemoryQuery): Promise<SearchHit[]> {
  const { db, embedder } = ctx;
  const { scope, words, ast, compiled, mode, t, weights, maxResults, qv } = q;
  // The SQL condition every result must meet: scope + the full compiled filter.
  const cond: string[] = [];
  const condParams: unknown[] = [];
  if (scope.category) {
    cond.push('r.category = ?');
    condParams.push(scope.category);
  }
  if (scope.idPrefix) {
    cond.push("r.id LIKE ? ESCAPE '\\'");
    condParams.push(scope.idPrefix.replace(/[\\%_]/g, (c) => '\\' + c) + '%');
  }
  if (compiled.where) {
    cond.push(`(${compiled.where})`);
    condParams.push(...compiled.params);
  }
  const where = cond.length ? cond.join(' AND ') : '1';
  const push = pushdownOf(ast, scope);

  const cands = new Map<number, Candidate>();
  const cand = (rid: number) => {
    let c = cands.get(rid);
    if (!c) {
      c = { rid, cos: 0, bm25: 0, vRank: Infinity, kRank: Infinity };
      cands.set(rid, c);
    }
    return c;
  };

  if (qv) {
    const k = Math.max(t.vectorCandidates, maxResults * 4);
    let allowed: Set<number> | null = null;
    let overFetch = 1;
    if (push.residual) {
      // Resolve what the scan cannot express in SQL first; if that leaves too many, over-fetch and post-filter.
      const rows = cachedStatement(db, `SELECT r.rid FROM memory_records r WHERE ${where} LIMIT ?`).all(...condParams, t.exactFilterLimit + 1) as {
        rid: number;
      }[];
      if (rows.length <= t.exactFilterLimit) allowed = new Set(rows.map((r) => r.rid));
      else overFetch = 4;
    }
    const code = ctx.quantizer.encode(qv);
    const want = Math.min(8192, Math.max(k, t.rescoreCandidates) * overFetch);
    const slots = ctx.blocks.nearest(code, want, { category: scope.category, status: push.status, sinceDay: push.sinceDay, allowed, embedder: embedder.id });
    const scored = bestByScore(ctx.blocks.scoreSlots(qv, slots), k);
    // Equal scores share a rank, so identical notes are not split by fusion.
    scored.forEach(([rid, cos], i) => {
      const c = cand(rid);
      c.cos = cos;
      c.vRank = i > 0 && cos === scored[i - 1][1] ? cands.get(scored[i - 1][0])!.vRank : i;
    });
  }

  if (mode !== 'vector') {
    const rows = keywordCandidates(db, words, {
      limit: Math.max(t.keywordCandidates, maxResults * 4),
      where,
      params: condParams,
      pushdown: { category: scope.category, status: push.status, since: push.since, exact: !push.residual },
      fieldWeights: t.fieldWeights,
      feedback: t.prf ? { docs: t.prfDocs, terms: t.prfTerms, weight: t.prfWeight } : null,
      ranker: t.keywordRanker,
    });
    rows.forEach((r, i) => {
      const c = cand(r.rid);
      c.bm25 = r.score;
      c.kRank = i > 0 && r.score === rows[i - 1].score ? cands.get(rows[i - 1].rid)!.kRank : i;
    });
    // Keyword-only hits still get their vector similarity, so fusion compares like with like.
    if (qv) {
      const missing = rows.filter((r) => cands.get(r.rid)!.vRank === Infinity).map((r) => r.rid);
      for (const [rid, cos] of ctx.blocks.scoreRecords(qv, missing, embedder.id)) cands.get(rid)!.cos = cos;
    }
  }

  if (!cands.size) return [];

  // Final check of scope and filter in SQL (candidates from the bit scan saw only the pushed-down part).
  // CROSS JOIN fixes the order: look each candidate up by rid, rather than let the planner walk a
  // whole category or status index checking membership (measured: 2+ ms at 20k notes).
  // (PostgreSQL has no CROSS JOIN … ON, no integer as a condition, and its json_each gives text: see idsIn.)
  const join = engineOf(db) === 'postgres' ? 'JOIN memory_records r ON r.rid = CAST(j.value AS bigint)' : 'CROSS JOIN memory_records r ON r.rid = j.value';
  const rows = cachedStatement(db, `SELECT r.rid, r.updated_at FROM json_each(?) AS j ${join} WHERE ${where === '1' ? 'TRUE' : where}`).all(
    JSON.stringify([...cands.keys()]),
    ...condParams,
  ) as { rid: number; updated_at: string }[];

  const list = rows.map((r) => ({ row: r, c: cands.get(r.rid)! }));
  const maxCos = Math.max(1e-9, ...list.map((x) => x.c.cos));
  const maxBm = Math.max(1e-9, ...list.map((x) => x.c.bm25));
  const now = (req.now ?? new Date()).getTime();
  const RRF_K = 60;
  const hits = list.map(({ row, c }) => {
    const vector = Math.max(0, c.cos);
    const keyword = c.bm25 / maxBm;
    let semantic: number;
    if (mode === 'vector') semantic = vector;
    else if (mode === 'keyword') semantic = keyword;
    else if (!qv) semantic = keyword;
    else if (t.fusion === 'rrf') {
      // Reciprocal-rank fusion, scaled so the best possible (first in both lists) is 1.
      const rrf = (r: number) => (r === Infinity ? 0 : 1 / (RRF_K + r + 1));
      semantic = (rrf(c.vRank) + rrf(c.kRank)) / (2 / (RRF_K + 1));
    } else semantic = t.vectorShare * (vector / maxCos) + (1 - t.vectorShare) * keyword;
    const ageDays = Math.max(0, (now - Date.parse(row.updated_at)) / 86_400_000);
    const recency = 1 / (1 + ageDays / 30);
    const score = weights.semantic * semantic + weights.recency * recency;
    return { row, vector, keyword, semantic, recency, score };
  });
  hits.sort((a, b) => b.score - a.score || b.semantic - a.semantic || a.row.rid - b.row.rid);
  const top = hits.slice(0, maxResults);
  // Only the results shown need their full row (header lines).
  const full = new Map(
    (
      cachedStatement(db, `SELECT rid, category, id, title, header, body FROM memory_records WHERE rid IN (${idsIn(db)})`).all(
        JSON.stringify(top.map((h) => h.row.rid)),
      ) as { rid: number; category: string; id: string; title: string; header: string; body: string | null }[]
    ).map((r) => [r.rid, r]),
  );
  const results: SearchHit[] = top
    .map((h) => ({ h, r: full.get(h.row.rid)! }))
    .filter((x) => x.r)
    .map(({ h, r }) => ({
      path: `/memory/${r.category}/${r.id}.md`,
      id: r.id,
      category: r.category,
      title: r.title,
      score: round(h.score),
      semantic: round(h.semantic),
      vector: round(h.vector),
      keyword: round(h.keyword),
      recency: round(h.recency),
      updatedAt: h.row.updated_at,
      header: headerLines(r),
    }));
  return results;
}

/**
 * The k best [rid, score] pairs, best first — what a stable sort then slice(0, k) gives (among equal
 * scores, the earlier pair first) without sorting all of the rescored candidates (~1,500 here).
 */
export function bestByScore(pairs: [number, number][], k: number): [number, number][] {
  if (pairs.length > k) {
    const scores = Float64Array.from(pairs, (p) => p[1]).sort();
    const kth = scores[pairs.length - k];
    let ties = 0;
    for (let i = pairs.length - k; i < pairs.length && scores[i] === kth; i++) ties++;
    pairs = pairs.filter((p) => p[1] > kth || (p[1] === kth && ties-- > 0));
  }
  return pairs.sort((a, b) => b[1] - a[1]);
}

const round = (x: number) => Math.round(x * 10_000) / 10_000;

function headerLines(row: { id: string; title: string; header: string; body: string | null }): string {
  const content = renderRecord({ id: row.id, title: row.title, header: JSON.parse(row.header), body: row.body });
  return extractHeader(content).split('\n').slice(0, 8).join('\n');
}
