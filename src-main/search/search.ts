import { InvalidInputError } from '../common/errors';
import { compileQueryFor, parseQuery } from '../fs';
import type { Db } from '../store';
import type { Embedder } from './embedder';
import type { Quantizer } from './quantizer';
import type { BlockIndex } from './block-store';
import { tokenize } from './hash-embedder';
import type { FieldWeights } from './keywords';
import { memoryResults } from './memory-results';
import type { PassageVectorCache } from './passage-cache';
import { passageHit, queryVectorFor, type ResearchSource, searchPassages } from './research-search';
import { ALL_SCOPE_PATH, parseScope, type SearchScope } from './scope';
import { searchSessionFiles } from './session-search';

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
  const compiled = ast ? compileQueryFor(db, ast) : { where: '', params: [] };
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
