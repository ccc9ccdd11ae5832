import type { Statement } from 'better-sqlite3';
import { InvalidInputError } from '../common/errors';
import { type Db, engineOf } from '../store';
import { tokenize } from './hash-embedder';
import { cachedStatement, idsIn } from './statements';
import { type CurrentKeywordIndex, currentKeywordIndex, type FieldWeights, idf, type KeywordFilter, queryTerms } from './keyword-index';

/**
 * Keyword candidates for memory search: BM25 over memory's title, header and body (FTS5's `bm25()`
 * on `memory_fts`, field-weighted), with optional RM3-style pseudo-relevance feedback.
 *
 * Ranked by the in-memory index (keyword-index/) whenever it is current — exact, the same scores as
 * FTS5 to the last bit — and by FTS5's own bm25() otherwise (before the index is built at start, or
 * inside an open transaction): the same results either way, only the speed differs.
 */

export type { FieldWeights } from './keyword-index';

export interface KeywordFeedback {
  /** How many of the best BM25 notes lend their words. */
  docs: number;
  /** How many expansion words are added. */
  terms: number;
  /** Weight of the expansion words against the query's own (both scaled to 1 first). */
  weight: number;
}

/** The part of a search's condition the in-memory index checks itself. */
export interface KeywordPushdown {
  category: string | null;
  status: string | null;
  /** `r.updated_at >= since`. */
  since: string | null;
  /** True when `where` says nothing more than these; otherwise the notes it leaves are looked up in SQL. */
  exact: boolean;
}

export interface KeywordOptions {
  limit: number;
  /** A condition over `memory_records r` (scope and filters); empty or '1' when there is none. */
  where?: string;
  params?: readonly unknown[];
  pushdown?: KeywordPushdown | null;
  fieldWeights: FieldWeights;
  feedback?: KeywordFeedback | null;
  /** Which ranker to use: the index when current (default), or always FTS5's bm25() (the reference, in tests and the bench). */
  ranker?: 'auto' | 'fts5';
}

export interface KeywordHit {
  rid: number;
  score: number;
}

const MAX_QUERY_TERMS = 24;
/** Feedback words are taken while their notes stay under this many, so the second query stays cheap. */
const FEEDBACK_MATCHES = 1000;

export function checkFieldWeights(w: unknown): FieldWeights {
  if (!Array.isArray(w) || w.length !== 3 || !w.every((x) => typeof x === 'number' && Number.isFinite(x) && x >= 0) || !w.some((x) => x > 0)) {
    throw new InvalidInputError('fieldWeights must be three non-negative numbers (title, header, body), at least one above 0, e.g. [3, 1, 1].');
  }
  return w as unknown as FieldWeights;
}

/** What a keyword search needs from either ranker: note counts and the best notes for some words. */
interface Ranker {
  /** FTS5 reads words, not terms: the words a term came from must be remembered (rememberSurfaces). */
  readonly needsSurfaces: boolean;
  rows(): number;
  /** Notes holding the term; above FEEDBACK_MATCHES it may stop counting (any larger number means "too common"). */
  documentFrequency(term: string): number;
  best(terms: readonly string[], limit: number): KeywordHit[];
}

/** The best `limit` notes by BM25 over the query's words (OR), best first; ties by note order. */
export function keywordCandidates(db: Db, words: readonly string[], opts: KeywordOptions): KeywordHit[] {
  const weights = checkFieldWeights(opts.fieldWeights);
  const limit = Math.max(1, Math.floor(opts.limit));
  // A desk's PostgreSQL has no FTS5: the in-memory index is its only ranking (keyword-index/sync.ts).
  if (opts.ranker === 'fts5' && engineOf(db) === 'postgres')
    throw new InvalidInputError("FTS5's bm25() is SQLite's: a desk's PostgreSQL ranks keywords with the in-memory index only.");
  const index = opts.ranker === 'fts5' ? null : currentKeywordIndex(db);
  const ranker = index ? indexRanker(db, index, weights, opts) : ftsRanker(db, weights, opts);
  // Only FTS5 needs a term's surface word back (see ftsPhrase).
  if (!index) rememberSurfaces(words);
  const terms = queryTerms(words).slice(0, MAX_QUERY_TERMS);
  const hits = ranker.best(terms, limit);
  return opts.feedback && hits.length ? withFeedback(db, ranker, terms, hits, opts.feedback, limit) : hits;
}

function indexRanker(db: Db, current: CurrentKeywordIndex, weights: FieldWeights, opts: KeywordOptions): Ranker {
  const { index } = current;
  const where = opts.where?.trim() ? opts.where : '1';
  let filter: KeywordFilter | null = null;
  if (opts.pushdown) filter = { category: opts.pushdown.category, status: opts.pushdown.status, since: opts.pushdown.since };
  if (where !== '1' && !opts.pushdown?.exact) filter = { ...filter, allowed: allowedNotes(db, where, opts.params ?? []) };
  return {
    needsSurfaces: false,
    rows: () => current.rows,
    documentFrequency: (t) => index.documentFrequency(t),
    best: (terms, limit) => index.search(terms, limit, weights, filter, current),
  };
}

/**
 * The notes a condition only SQL can evaluate leaves, as a bitmap over record ids, cached until the
 * next write (memory_changes' last sequence number is part of the key).
 */
const allowedCache = new WeakMap<Db, { key: string; bits: Uint8Array }[]>();
function allowedNotes(db: Db, where: string, params: readonly unknown[]): Uint8Array {
  const seq = (db.prepare('SELECT coalesce(max(seq), 0) AS s FROM memory_changes').get() as { s: number }).s;
  const key = `${seq}\u0000${where}\u0000${JSON.stringify(params)}`;
  const cache = allowedCache.get(db) ?? [];
  allowedCache.set(db, cache);
  const hit = cache.find((c) => c.key === key);
  if (hit) return hit.bits;
  const rids = db
    .prepare(`SELECT r.rid FROM memory_records r WHERE ${where}`)
    .pluck()
    .all(...params) as number[];
  let max = 0;
  for (const rid of rids) if (rid > max) max = rid;
  const bits = new Uint8Array((max >> 3) + 1);
  for (const rid of rids) bits[rid >> 3] |= 1 << (rid & 7);
  cache.unshift({ key, bits });
  cache.length = Math.min(cache.length, 16);
  return bits;
}

/**
 * FTS5's bm25() itself. A term is passed to FTS5 as the first query word that produced it (FTS5
 * stems it again, to the same term): quoting an already-stemmed term would be stemmed twice.
 */
function ftsRanker(db: Db, weights: FieldWeights, opts: KeywordOptions): Ranker {
  const where = opts.where?.trim() ? opts.where : '1';
  const params = opts.params ?? [];
  const st = statements(db);
  return {
    needsSurfaces: true,
    rows: () => (st('SELECT count(*) AS n FROM memory_records').get() as { n: number }).n,
    // Feedback only needs to know whether a word is in more than FEEDBACK_MATCHES notes (it is then
    // never taken), so the count stops there: counting a common word in full walks its whole list.
    documentFrequency: (t) =>
      (st('SELECT count(*) AS n FROM (SELECT 1 FROM memory_fts WHERE memory_fts MATCH ? LIMIT ?)').get(ftsPhrase(t), FEEDBACK_MATCHES + 1) as { n: number }).n,
    best: (terms, limit) => {
      if (!terms.length) return [];
      const match = terms.map(ftsPhrase).join(' OR ');
      const sql =
        where === '1'
          ? 'SELECT rowid AS rid, bm25(memory_fts, ?, ?, ?) AS bm FROM memory_fts WHERE memory_fts MATCH ? ORDER BY bm, rid LIMIT ?'
          : `SELECT f.rowid AS rid, bm25(memory_fts, ?, ?, ?) AS bm FROM memory_fts f JOIN memory_records r ON r.rid = f.rowid
             WHERE memory_fts MATCH ? AND ${where} ORDER BY bm, rid LIMIT ?`;
      const args = where === '1' ? [...weights, match, limit] : [...weights, match, ...params, limit];
      return (st(sql).all(...args) as { rid: number; bm: number }[]).map((r) => ({ rid: r.rid, score: -r.bm }));
    },
  };
}

/**
 * A stemmed term as an FTS5 phrase FTS5 reads back as that same term. The term's own letters, quoted,
 * would be stemmed again (porter is not idempotent: "generalization" → "gener" → "gener", but
 * "agreed" → "agre" → "agr"); so each term remembers the surface word it came from.
 */
const surfaceOf = new Map<string, string>();
function ftsPhrase(term: string): string {
  const word = surfaceOf.get(term) ?? term;
  return `"${word.replace(/"/g, '""')}"`;
}

/** The query's words, split where FTS5 splits them, each remembered under the term it stems to. */
export function rememberSurfaces(words: readonly string[]): void {
  for (const w of words) {
    for (const part of w.split(/[^\p{L}\p{N}\p{Co}\p{M}]+/u)) {
      const [term] = queryTerms([part]);
      if (term && !surfaceOf.has(term)) {
        if (surfaceOf.size > 50_000) surfaceOf.clear();
        surfaceOf.set(term, part);
      }
    }
  }
}

function statements(db: Db): (sql: string) => Statement {
  return (sql) => cachedStatement(db, sql);
}

const byScore = (a: KeywordHit, b: KeywordHit) => b.score - a.score || a.rid - b.rid;

/**
 * RM3-style pseudo-relevance feedback: the best few notes lend their most telling words (weighted
 * by how much of each note they make up, the note's score and the word's rarity); a second BM25
 * query over those words is blended in, so a note worded differently from the query but like its
 * best answers is found.
 */
function withFeedback(db: Db, ranker: Ranker, terms: readonly string[], hits: KeywordHit[], fb: KeywordFeedback, limit: number): KeywordHit[] {
  const docs = hits.slice(0, Math.max(1, Math.floor(fb.docs)));
  const rows = statements(db)(`SELECT rid, title, body FROM memory_records WHERE rid IN (${idsIn(db)})`).all(JSON.stringify(docs.map((d) => d.rid))) as {
    rid: number;
    title: string;
    body: string | null;
  }[];
  const text = new Map(rows.map((r) => [r.rid, `${r.title} ${r.body ?? ''}`]));
  const own = new Set(terms);
  const total = docs.reduce((n, d) => n + d.score, 0) || 1;
  const weight = new Map<string, number>();
  for (const d of docs) {
    const words = tokenize(text.get(d.rid) ?? '').filter((w) => w.length > 2 && /\p{L}/u.test(w));
    if (ranker.needsSurfaces) rememberSurfaces(words);
    const ws = queryTermsEach(words).filter((t) => !own.has(t));
    for (const w of ws) weight.set(w, (weight.get(w) ?? 0) + d.score / total / ws.length);
  }
  // Words in most notes say nothing about this query; rarity weighs them down (idf on note counts).
  const shortlist = [...weight].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1)).slice(0, Math.max(1, fb.terms) * 3);
  const rowsN = ranker.rows();
  const ranked = shortlist
    .map(([w, p]) => ({ w, df: ranker.documentFrequency(w), p }))
    .map((t) => ({ ...t, p: t.p * idf(rowsN, t.df) }))
    .filter((t) => t.p > 1e-6)
    .sort((a, b) => b.p - a.p || (a.w < b.w ? -1 : 1));
  // Words are taken while their notes stay few: in a large memory that keeps the telling, rarer
  // words and leaves out common ones, whose weight is small anyway.
  const scored: typeof ranked = [];
  let matches = 0;
  for (const t of ranked) {
    if (scored.length >= Math.floor(fb.terms)) break;
    if (matches + t.df > FEEDBACK_MATCHES) continue;
    scored.push(t);
    matches += t.df;
  }
  if (!scored.length) return hits;
  const expansion = ranker.best(
    scored.map((t) => t.w),
    limit,
  );
  const maxOwn = hits[0].score || 1;
  const maxExp = expansion[0]?.score || 1;
  const blended = new Map<number, number>(hits.map((h) => [h.rid, h.score / maxOwn]));
  for (const h of expansion) blended.set(h.rid, (blended.get(h.rid) ?? 0) + (fb.weight * h.score) / maxExp);
  return [...blended]
    .map(([rid, score]) => ({ rid, score }))
    .sort(byScore)
    .slice(0, limit);
}

/** Each word's terms, occurrences kept (feedback weighs a word by how often a note uses it). */
function queryTermsEach(words: readonly string[]): string[] {
  const out: string[] = [];
  for (const w of words) out.push(...queryTerms([w]));
  return out;
}
