import { InvalidInputError } from '../common/errors';
import { compileQuery, extractHeader, parseQuery, renderRecord, type QueryAst } from '../fs';
import type { Db } from '../store';
import type { Embedder } from './embedder';
import type { Quantizer } from './quantizer';
import type { BlockIndex } from './block-store';
import { tokenize } from './hash-embedder';
import { type FieldWeights, keywordCandidates } from './keywords';
import type { PassageVectorCache } from './passage-cache';
import { passageHit, queryVectorFor, type ResearchSource, searchPassages } from './research-search';
import { ALL_SCOPE_PATH, parseScope, type SearchScope } from './scope';
import { searchSessionFiles } from './session-search';
import { dayNumber } from './vectors';

export const MAX_SEARCH_QUERY_CHARS = 2000;
export const MAX_SEARCH_RESULTS = 50;

export interface SearchWeights {
  semantic: number;
  recency: number;
}

export type FusionMethod = 'rrf' | 'score';

/** Tuning of the candidate stages; defaults were measured with bench/search.ts and bench/search-quality.ts. */
export interface SearchTuning {
  /** Vector candidates (best cosine first) that go into fusion. */
  vectorCandidates: number;
  /** Hamming-nearest candidates rescored with the int8 vectors before the best `vectorCandidates` are kept. */
  rescoreCandidates: number;
  /** BM25 candidates fetched from FTS5. */
  keywordCandidates: number;
  /** Weight of vector similarity vs BM25 inside the semantic score (score fusion). */
  vectorShare: number;
  fusion: FusionMethod;
  /** Filters the block scan cannot apply are resolved in SQL first when they leave at most this many records. */
  exactFilterLimit: number;
  /** BM25 weights of a note's title, header lines and body (keywords.ts). */
  fieldWeights: FieldWeights;
  /** RM3-style pseudo-relevance feedback: words of the best keyword hits join the query (keywords.ts). */
  prf: boolean;
  /** Feedback: how many top notes lend words, how many words are added, and their weight against the query's. */
  prfDocs: number;
  prfTerms: number;
  prfWeight: number;
  /** Keyword ranking: the in-memory index when current (default), or FTS5's bm25() always (the bench's baseline; same results). */
  keywordRanker: 'auto' | 'fts5';
}

/** What a search needs: the database, the embedder, its quantiser and the vector blocks. */
export interface SearchContext {
  readonly db: Db;
  readonly embedder: Embedder;
  readonly quantizer: Quantizer;
  readonly blocks: BlockIndex;
  /** The broker notes (attached by the host); without it passages are not searched. */
  readonly research?: ResearchSource;
  /** Passage vectors kept in memory between searches. */
  readonly passageCache?: PassageVectorCache;
}

export const DEFAULT_TUNING: SearchTuning = {
  // Fusion pools: 100 vector and 40 keyword candidates scored the same nDCG@10 and recall@20 as 200
  // and 60 on all three sets of bench/search-quality.ts, for less SQL per search.
  vectorCandidates: 100,
  // Measured with bench/search.ts at 100,000 notes: unscoped recall@10 against exact cosine was 0.965
  // with 500 on the template corpus but 0.92–0.94 on the cross-topic PM corpus, whose neighbours
  // crowd together; 1,000 gave 0.968 and 1,500 0.980 there, for ~1.5 ms more than 500.
  rescoreCandidates: 1500,
  keywordCandidates: 40,
  // Chosen on the tuning split of resources/eval by bench/search-quality.ts (best nDCG@10 that keeps
  // keyword-only recall@20) with the hashed embedder; 0.3 and RRF fell below keyword recall@20 on Cranfield 1400.
  // The semantic model's share is unmeasured here (no weights): rerun the bench with --model-dir.
  vectorShare: 0.1,
  fusion: 'score',
  exactFilterLimit: 20_000,
  // Measured with bench/search-quality.ts --prf (keyword nDCG@10 off → on): tuning split 0.675 → 0.723,
  // held-out 0.733 → 0.741, Cranfield 1400 0.360 → 0.371; recall@20 up on all three, hybrid too. Field
  // weights [1,1,1], [2,1,1], [5,1,1], [3,0.5,1] and other feedback sizes were no better on the tuning split.
  fieldWeights: [3, 1, 1],
  prf: true,
  prfDocs: 5,
  prfTerms: 10,
  prfWeight: 0.5,
  keywordRanker: 'auto',
};

export interface SearchRequest {
  /** all (default: memory, the current session's files and broker notes), /memory/..., session / /session/..., or research / /research/... */
  scope?: string;
  /** The current session: its files are searched when the scope includes them. */
  sessionId?: string;
  query: string;
  filters?: string | null;
  maxResults?: number;
  weights?: SearchWeights;
  /** Which signals to use: both (default), or one alone (evaluation). */
  mode?: 'hybrid' | 'keyword' | 'vector';
  tuning?: Partial<SearchTuning>;
  now?: Date;
  /** A retrospective's as-of day (YYYY-MM-DD): broker notes dated after it are not searched. */
  asOf?: string;
  /** false: broker-note passages are left out (attached IDEs get memory only, unframed outside text never). */
  withResearch?: boolean;
}

export interface SearchHit {
  path: string;
  id: string;
  category: string;
  title: string;
  score: number;
  semantic: number;
  vector: number;
  keyword: number;
  recency: number;
  updatedAt: string;
  /** The record's first 8 lines, as `read(path, depth='header')` shows them. */
  header: string;
  /** A broker-note passage (category research): outside content, shown as data, never as instructions. */
  passage?: { note: string; citation: string; noteDate: string; text: string };
}

export interface SearchResponse {
  query: string;
  scope: string;
  filters: string | null;
  results: SearchHit[];
  /** Set when only keyword search could run (e.g. the embedding provider is down). */
  degraded: string | null;
  /** The results as the analyst's `search` tool prints them. */
  formatted: string;
}

/** Drops lone surrogates (text that is not valid UTF-16/UTF-8) and control characters. */
export function cleanText(s: string): string {
  const wf = (s as unknown as { toWellFormed?: () => string }).toWellFormed;
  let out = typeof wf === 'function' ? wf.call(s) : s.replace(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g, '\uFFFD');
  // biome-ignore lint/suspicious/noControlCharactersInRegex: stripping control characters from untrusted text is the point of this function.
  out = out.replace(/\uFFFD/g, ' ').replace(/[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F]/g, ' ');
  return out.replace(/\s+/g, ' ').trim();
}

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

/**
 * Hybrid search over memory (and, when the scope includes them, the current session's files by
 * keyword — see session-search.ts): a SimHash scan of the vector blocks (scope and common filters
 * applied inside the scan) rescored with the int8 vectors, fused with FTS5 BM25 into a semantic score, blended with
 * recency `1/(1+age_days/30)`. Over-fetches candidates, then re-ranks.
 */
export async function searchMemory(ctx: SearchContext, req: SearchRequest): Promise<SearchResponse> {
  const { db } = ctx;
  const t: SearchTuning = { ...DEFAULT_TUNING, ...req.tuning };
  const weights = req.weights ?? { semantic: 0.7, recency: 0.3 };
  const mode = req.mode ?? 'hybrid';
  const maxResults = Math.max(1, Math.min(MAX_SEARCH_RESULTS, Math.floor(req.maxResults ?? 5)));
  if (typeof req.query !== 'string') throw new InvalidInputError('The search query must be text.');
  if (req.query.length > MAX_SEARCH_QUERY_CHARS * 4) {
    throw new InvalidInputError(
      `The search query is ${req.query.length} characters long; search with a sentence or a few key words (up to ${MAX_SEARCH_QUERY_CHARS}).`,
    );
  }
  const query = cleanText(req.query);
  if (!query) throw new InvalidInputError('The search query is empty; type what you are looking for, e.g. "curve steepener lessons".');
  if (query.length > MAX_SEARCH_QUERY_CHARS) {
    throw new InvalidInputError(
      `The search query is ${query.length} characters long; search with a sentence or a few key words (up to ${MAX_SEARCH_QUERY_CHARS}).`,
    );
  }
  const scope = parseScope(req.scope);
  const filters = req.filters ? cleanText(req.filters) : '';
  const ast = filters ? parseQuery(filters) : null;
  const compiled = ast ? compileQuery(ast) : { where: '', params: [] };
  const words = tokenize(query);
  if (!words.length) throw new InvalidInputError(`"${query.slice(0, 60)}" has no words to search for; use letters or numbers.`);
  if (scope.sessionPrefix !== null && !scope.memory && !req.sessionId) {
    throw new InvalidInputError("Session files can only be searched from inside a session (the analyst's search tool); search /memory/ here instead.");
  }
  const research = researchIn(ctx, req, scope);

  // One query vector serves memory and passages; when the embedder fails both fall back to keywords.
  let qv: Float32Array | null = null;
  let degraded: string | null = null;
  if (mode !== 'keyword') {
    if (mode === 'vector') [qv] = await ctx.embedder.embed([query], 'query');
    else ({ vector: qv, degraded } = await queryVectorFor(ctx.embedder, query));
  }
  const memory = scope.memory ? await memoryResults(ctx, req, { scope, query, words, ast, compiled, mode, t, weights, maxResults, qv }) : [];
  // Outside a session (the Memory screen) the default scope leaves session files out.
  const session =
    scope.sessionPrefix !== null && req.sessionId
      ? searchSessionFiles(db, { sessionId: req.sessionId, prefix: scope.sessionPrefix, words, ast, weights, now: req.now ?? new Date(), limit: maxResults })
      : [];
  let passages: SearchHit[] = [];
  // Field filters (status:, confidence>=, skill: ...) describe memory records: a passage has none, so it cannot match them.
  const terms = ast?.terms ?? [];
  if (research && ctx.research && terms.every((x) => x.kind === 'since' || x.kind === 'text')) {
    try {
      await ctx.research.sync();
    } catch (e) {
      degraded = [degraded, `The broker notes could not be brought up to date (${(e as Error)?.message ?? String(e)}); older passages are shown.`]
        .filter(Boolean)
        .join(' ');
    }
    passages = searchPassages(
      db,
      {
        words,
        queryVector: qv,
        embedderId: ctx.embedder.id,
        limit: maxResults,
        asOf: req.asOf,
        notePrefix: scope.researchPrefix ?? '',
        since: terms.reduce<string | undefined>((max, x) => (x.kind === 'since' && (!max || x.date > max) ? x.date : max), undefined),
        mustContain: terms.flatMap((x) => (x.kind === 'text' ? [x.text] : [])),
        weights,
        generation: ctx.research.generation(),
        vectorShare: t.vectorShare,
        mode,
        keywordCandidates: t.keywordCandidates,
        vectorCandidates: t.vectorCandidates,
        now: req.now ?? new Date(),
      },
      ctx.passageCache,
    ).map(passageHit);
  }
  const merged = [...memory, ...session, ...passages].sort((a, b) => b.score - a.score || b.semantic - a.semantic || a.path.localeCompare(b.path));
  const label =
    scope.path === ALL_SCOPE_PATH ? ['/memory/', ...(req.sessionId ? ['/session/'] : []), ...(research ? ['/research/'] : [])].join(' + ') : scope.path;
  return respond(query, { ...scope, path: label }, filters, merged.slice(0, maxResults), degraded);
}

/**
 * Whether this search covers broker-note passages: when the scope includes them, the host attached
 * the notes, the request does not leave them out, and the PM has not switched research off. A
 * research-only scope that cannot be served says why.
 */
function researchIn(ctx: SearchContext, req: SearchRequest, scope: SearchScope): boolean {
  if (scope.researchPrefix === null) return false;
  const only = !scope.memory && scope.sessionPrefix === null;
  if (!ctx.research || req.withResearch === false) {
    if (only) throw new InvalidInputError('Broker notes are not searched here; search /memory/ instead.');
    return false;
  }
  if (!ctx.research.enabled()) {
    if (only) throw new InvalidInputError('The research source is switched off on the Data screen; switch it on to search broker notes.');
    return false;
  }
  return true;
}

interface MemoryQuery {
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
async function memoryResults(ctx: SearchContext, req: SearchRequest, q: MemoryQuery): Promise<SearchHit[]> {
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
      const rows = db.prepare(`SELECT r.rid FROM memory_records r WHERE ${where} LIMIT ?`).all(...condParams, t.exactFilterLimit + 1) as { rid: number }[];
      if (rows.length <= t.exactFilterLimit) allowed = new Set(rows.map((r) => r.rid));
      else overFetch = 4;
    }
    const code = ctx.quantizer.encode(qv);
    const want = Math.min(8192, Math.max(k, t.rescoreCandidates) * overFetch);
    const slots = ctx.blocks.nearest(code, want, { category: scope.category, status: push.status, sinceDay: push.sinceDay, allowed, embedder: embedder.id });
    const scored = ctx.blocks.scoreSlots(qv, slots);
    scored.sort((a, b) => b[1] - a[1]);
    // Equal scores share a rank, so identical notes are not split by fusion.
    scored.slice(0, k).forEach(([rid, cos], i) => {
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
  const rows = db
    // CROSS JOIN fixes the order: look each candidate up by rid, rather than let the planner walk a
    // whole category or status index checking membership (measured: 2+ ms at 20k notes).
    .prepare(`SELECT r.rid, r.updated_at FROM json_each(?) AS j CROSS JOIN memory_records r ON r.rid = j.value WHERE ${where}`)
    .all(JSON.stringify([...cands.keys()]), ...condParams) as { rid: number; updated_at: string }[];

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
      db
        .prepare('SELECT rid, category, id, title, header, body FROM memory_records WHERE rid IN (SELECT value FROM json_each(?))')
        .all(JSON.stringify(top.map((h) => h.row.rid))) as { rid: number; category: string; id: string; title: string; header: string; body: string | null }[]
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

const round = (x: number) => Math.round(x * 10_000) / 10_000;

function headerLines(row: { id: string; title: string; header: string; body: string | null }): string {
  const content = renderRecord({ id: row.id, title: row.title, header: JSON.parse(row.header), body: row.body });
  return extractHeader(content).split('\n').slice(0, 8).join('\n');
}

function respond(query: string, scope: SearchScope, filters: string, results: SearchHit[], degraded: string | null): SearchResponse {
  return { query, scope: scope.path, filters: filters || null, results, degraded, formatted: formatResults(query, scope.path, results, degraded) };
}

/** The analyst tool's text: a title line, then `[score] path` and the header lines of each result. */
export function formatResults(query: string, scope: string, results: SearchHit[], degraded: string | null = null): string {
  const q = query.length > 200 ? query.slice(0, 200) + '…' : query;
  const note = degraded ? `\n(${degraded})` : '';
  if (!results.length) return `No results found in ${scope} for '${q}'${note}`;
  const parts = [`Search: '${q}' in ${scope} (${results.length} results)${note}`];
  for (const r of results) parts.push(`\n  [${r.score.toFixed(2)}] ${r.path}\n${r.header}`);
  return parts.join('\n');
}
