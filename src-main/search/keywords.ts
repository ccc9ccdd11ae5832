import type { Statement } from 'better-sqlite3';
import { InvalidInputError } from '../common/errors';
import { type Db, hasRankExtension } from '../store';
import { tokenize } from './hash-embedder';

/**
 * Keyword candidates for memory search: FTS5 BM25 over `memory_fts` (title, header, body), with
 * field weights, exact top-k pruning for queries that mix rare and common words, and optional
 * RM3-style pseudo-relevance feedback.
 */

export type FieldWeights = readonly [title: number, header: number, body: number];

export interface KeywordFeedback {
  /** How many of the best BM25 notes lend their words. */
  docs: number;
  /** How many expansion words are added. */
  terms: number;
  /** Weight of the expansion words against the query's own (both scaled to 1 first). */
  weight: number;
}

export interface KeywordOptions {
  limit: number;
  /** A condition over `memory_records r` (scope and filters); empty or '1' when there is none. */
  where?: string;
  params?: readonly unknown[];
  fieldWeights: FieldWeights;
  /** false: always score every matching note (the reference the pruning must equal). */
  prune?: boolean;
  /**
   * When even the query's rarest word is in more notes than this, exact ranking would score tens of
   * thousands of notes (FTS5 scores every match): the notes holding every query word are taken
   * first instead, then the rarest word's best notes. Unset: always exact.
   */
  matchBudget?: number | null;
  feedback?: KeywordFeedback | null;
  /** Called with each FTS5 MATCH expression that is scored (tests and benchmarks see what the pruning did). */
  onQuery?: (match: string) => void;
}

export interface KeywordHit {
  rid: number;
  score: number;
}

/** Below this many matches in all, one OR query is cheap enough and pruning would only add queries. */
const FULL_OR_MATCHES = 3000;
/** FTS5's bm25 constants (fts5_aux.c): a phrase adds at most idf * (k1 + 1). */
const K1_PLUS_1 = 2.2;
/**
 * Above this many matches a scoped query checks each against a bitmap of the notes the scope and
 * filter leave (forge_in) rather than joining memory_records (~1 us a match, measured), from the
 * condition's second query in an index state on (see allowedBitmap).
 */
const BITMAP_MATCHES = 2000;
const MAX_BITMAPS = 32;
/** 8 MB of bitmap at most; beyond it the join is used. */
const MAX_BITMAP_RID = 64 * 1024 * 1024;
/** Feedback words are taken while their notes stay under this many, so the second query stays cheap. */
const FEEDBACK_MATCHES = 1000;
const MAX_QUERY_TERMS = 24;

/**
 * What the pruning needs to know about the index, per database: document counts and the largest
 * score each word can add to a note. Both are exact for one state of the index, so they are keyed
 * on FTS5's own averages and structure records, which change with every write.
 */
class KeywordStats {
  version: Buffer[] = [];
  rows = 0;
  readonly df = new Map<string, number>();
  /** Words counted only up to a cap (feedback words): known to be in more notes than this. */
  readonly dfAbove = new Map<string, number>();
  readonly maxImpact = new Map<string, number>();
  /** Notes a scope and filter leave, as bitmaps over rid, by condition (forge_in's second argument). */
  readonly allowed = new Map<string, Buffer>();
  /** Conditions queried once in this index state: a bitmap is built on the second query, not the first. */
  readonly conditionsSeen = new Set<string>();
  readonly statements = new Map<string, Statement>();
}

// Held per database (dropped with it), so two cores side by side never share counts.
const statsByDb = new WeakMap<Db, KeywordStats>();

function statsFor(db: Db): KeywordStats {
  let s = statsByDb.get(db);
  if (!s) {
    s = new KeywordStats();
    statsByDb.set(db, s);
  }
  const v = prepared(
    s,
    db,
    'SELECT (SELECT block FROM memory_fts_data WHERE id = 1) AS averages, (SELECT block FROM memory_fts_data WHERE id = 10) AS structure',
  ).get() as {
    averages: Buffer | null;
    structure: Buffer | null;
  };
  const version = [v.averages ?? Buffer.alloc(0), v.structure ?? Buffer.alloc(0)];
  if (!version.every((b, i) => s.version[i]?.equals(b))) {
    s.version = version;
    s.rows = readVarint(version[0]);
    s.df.clear();
    s.dfAbove.clear();
    s.maxImpact.clear();
    // memory_records and memory_fts change together (the FTS5 triggers), so this marks both.
    s.allowed.clear();
    s.conditionsSeen.clear();
  }
  return s;
}

function prepared(s: KeywordStats, db: Db, sql: string): Statement {
  let st = s.statements.get(sql);
  if (!st) {
    if (s.statements.size > 200) s.statements.clear();
    st = db.prepare(sql);
    s.statements.set(sql, st);
  }
  return st;
}

/** SQLite's varint (big-endian, 7 bits a byte, the 9th byte whole): FTS5 stores its row count this way. */
function readVarint(b: Buffer): number {
  let v = 0;
  for (let i = 0; i < Math.min(9, b.length); i++) {
    if (i === 8) return v * 256 + b[i];
    v = v * 128 + (b[i] & 0x7f);
    if (!(b[i] & 0x80)) return v;
  }
  return v;
}

const quote = (w: string) => `"${w.replace(/"/g, '""')}"`;
const anyOf = (ws: readonly string[]) => ws.map(quote).join(' OR ');

export function checkFieldWeights(w: unknown): FieldWeights {
  if (!Array.isArray(w) || w.length !== 3 || !w.every((x) => typeof x === 'number' && Number.isFinite(x) && x >= 0) || !w.some((x) => x > 0)) {
    throw new InvalidInputError('fieldWeights must be three non-negative numbers (title, header, body), at least one above 0, e.g. [3, 1, 1].');
  }
  return w as unknown as FieldWeights;
}

/**
 * The best `limit` notes by BM25 over the query's words (OR), best first; ties by note order.
 *
 * FTS5 scores every note that matches an OR query, so a query holding a common word ("positioning"
 * in 20% of notes) costs tens of milliseconds at 100,000 notes. The pruning (MaxScore, the idea
 * behind block-max WAND) splits the words, rarest first, into E and the rest C: notes holding an E
 * word are scored in full (`E AND C`, `E NOT C`); a note holding only C words can score at most the
 * sum of the C words' largest single-word scores, so once the k-th best E note beats that sum the
 * answer is exact without visiting the common words' other notes.
 */
export function keywordCandidates(db: Db, words: readonly string[], opts: KeywordOptions): KeywordHit[] {
  const weights = checkFieldWeights(opts.fieldWeights);
  const where = opts.where?.trim() ? opts.where : '1';
  const s = statsFor(db);
  const q: Query = {
    db,
    s,
    weights,
    where,
    params: opts.params ?? [],
    limit: Math.max(1, Math.floor(opts.limit)),
    prune: opts.prune !== false,
    matchBudget: opts.matchBudget ?? null,
    onQuery: opts.onQuery,
  };
  const hits = topK(q, [...new Set(words)].slice(0, MAX_QUERY_TERMS));
  return opts.feedback && hits.length ? withFeedback(q, words, hits, opts.feedback) : hits;
}

interface Query {
  db: Db;
  s: KeywordStats;
  weights: FieldWeights;
  where: string;
  params: readonly unknown[];
  limit: number;
  prune: boolean;
  matchBudget: number | null;
  onQuery?: (match: string) => void;
  /** Set once the query's size is known: the scope and filter as a bitmap over rid, or null (join). */
  allowed?: Buffer | null;
}

/**
 * The notes meeting the query's condition as a bitmap (bit rid set), cached per index state; null
 * the first time a condition is queried in a state. Building one reads every note the condition
 * leaves (~8-20 ms at 100,000 notes), which pays off over a PM's repeated scoped searches but not
 * for a one-off query, the first query after the app starts, or one after each of the analyst's writes.
 */
function allowedBitmap(q: Query): Buffer | null {
  const key = `${q.where}\u0000${JSON.stringify(q.params)}`;
  let set = q.s.allowed.get(key);
  if (set) return set;
  if (!q.s.conditionsSeen.has(key)) {
    if (q.s.conditionsSeen.size >= 4 * MAX_BITMAPS) q.s.conditionsSeen.clear();
    q.s.conditionsSeen.add(key);
    return null;
  }
  const rids = prepared(q.s, q.db, `SELECT r.rid FROM memory_records r WHERE ${q.where}`)
    .pluck()
    .all(...q.params) as number[];
  let max = 0;
  for (const rid of rids) if (rid > max) max = rid;
  // Record ids are assigned in sequence; one far out (a hand-edited database) would make a huge bitmap.
  if (max > MAX_BITMAP_RID) return null;
  set = Buffer.alloc((max >> 3) + 1);
  for (const rid of rids) set[rid >> 3] |= 1 << (rid & 7);
  if (q.s.allowed.size >= MAX_BITMAPS) q.s.allowed.clear();
  q.s.allowed.set(key, set);
  return set;
}

function run(q: Query, match: string): KeywordHit[] {
  q.onQuery?.(match);
  const [wt, wh, wb] = q.weights;
  // forge_bm25 takes each phrase's IDF (from the cached note counts) instead of recounting them.
  const native = hasRankExtension(q.db);
  const idfs = native ? phrasesOf(match).map((w) => idf(q.s.rows, documentFrequency(q, w))) : [];
  const rank = native ? `forge_bm25(memory_fts, ?, ?, ?${', ?'.repeat(idfs.length)})` : 'bm25(memory_fts, ?, ?, ?)';
  if (q.allowed) {
    const sql = `SELECT rowid AS rid, ${rank} AS bm FROM memory_fts WHERE memory_fts MATCH ? AND forge_in(rowid, ?) ORDER BY bm, rid LIMIT ?`;
    const rows = prepared(q.s, q.db, sql).all(wt, wh, wb, ...idfs, match, q.allowed, q.limit) as { rid: number; bm: number }[];
    return rows.map((r) => ({ rid: r.rid, score: -r.bm }));
  }
  // Without a scope or filter FTS5 answers alone: no table row is read per match.
  const sql =
    q.where === '1'
      ? `SELECT rowid AS rid, ${rank} AS bm FROM memory_fts WHERE memory_fts MATCH ? ORDER BY bm, rid LIMIT ?`
      : `SELECT f.rowid AS rid, ${rank} AS bm FROM memory_fts f JOIN memory_records r ON r.rid = f.rowid
         WHERE memory_fts MATCH ? AND ${q.where} ORDER BY bm, rid LIMIT ?`;
  const rows = prepared(q.s, q.db, sql).all(wt, wh, wb, ...idfs, match, ...q.params, q.limit) as { rid: number; bm: number }[];
  return rows.map((r) => ({ rid: r.rid, score: -r.bm })); // both bm25s are negative
}

/** The quoted phrases of a MATCH expression built here, in the order FTS5 numbers them. */
function phrasesOf(match: string): string[] {
  return [...match.matchAll(/"((?:[^"]|"")*)"/g)].map((m) => m[1].replace(/""/g, '"'));
}

function documentFrequency(q: Query, word: string): number {
  let df = q.s.df.get(word);
  if (df === undefined) {
    df = (prepared(q.s, q.db, 'SELECT count(*) AS n FROM memory_fts WHERE memory_fts MATCH ?').get(quote(word)) as { n: number }).n;
    q.s.df.set(word, df);
  }
  return df;
}

/**
 * A word's note count when it is at most `cap`, else a number above `cap` (not the count): the
 * count stops at cap + 1 notes. Feedback weighs a shortlist of ~30 words from the best notes, most
 * of them common; counting each in full walked ~40,000 postings a word (~70 ms on a cold start).
 */
function documentFrequencyUpTo(q: Query, word: string, cap: number): number {
  const exact = q.s.df.get(word);
  if (exact !== undefined) return exact;
  const above = q.s.dfAbove.get(word);
  if (above !== undefined && above > cap) return above;
  const n = (
    prepared(q.s, q.db, 'SELECT count(*) AS n FROM (SELECT 1 FROM memory_fts WHERE memory_fts MATCH ? LIMIT ?)').get(quote(word), cap + 1) as {
      n: number;
    }
  ).n;
  if (n <= cap) q.s.df.set(word, n);
  else q.s.dfAbove.set(word, n);
  return n;
}

/** The largest score this word adds to any note (computed once per index state, over all notes). */
function maxImpact(q: Query, word: string): number {
  const key = `${q.weights.join(',')}|${word}`;
  let m = q.s.maxImpact.get(key);
  if (m === undefined) {
    m = run({ ...q, where: '1', params: [], allowed: null, limit: 1, onQuery: undefined }, quote(word))[0]?.score ?? 0;
    q.s.maxImpact.set(key, m);
  }
  return m;
}

/** FTS5's idf (fts5_aux.c, the same arithmetic): the bound without a max-impact lookup is idf * (k1 + 1). */
function idf(rows: number, df: number): number {
  const x = Math.log((rows - df + 0.5) / (df + 0.5));
  return x <= 0 ? 1e-6 : x;
}

const byScore = (a: KeywordHit, b: KeywordHit) => b.score - a.score || a.rid - b.rid;

function topK(q: Query, words: string[]): KeywordHit[] {
  // Rarest first; the same order in every query keeps FTS5's sums (and so ties) identical.
  const present = words
    .map((w) => ({ w, df: documentFrequency(q, w) }))
    .filter((t) => t.df > 0)
    .sort((a, b) => a.df - b.df || (a.w < b.w ? -1 : 1));
  if (!present.length) return [];
  const all = present.map((t) => t.w);
  const matches = present.reduce((n, t) => n + t.df, 0);
  if (q.allowed === undefined) {
    const bitmap = hasRankExtension(q.db) && q.where !== '1' && matches > BITMAP_MATCHES;
    q.allowed = bitmap ? allowedBitmap(q) : null;
  }
  if (!q.prune || present.length === 1 || matches <= FULL_OR_MATCHES) return run(q, anyOf(all));
  if (q.matchBudget !== null && present[0].df > q.matchBudget) return conjunctiveFirst(q, all);

  let sumE = 0;
  for (let i = 1; i < present.length; i++) {
    const e = all.slice(0, i);
    const c = all.slice(i);
    sumE += maxImpact(q, all[i - 1]);
    const both = run(q, `(${anyOf(e)}) AND (${anyOf(c)})`);
    // Notes with E words but no C word score at most sumE: skip their query when that cannot place.
    const onlyE = both.length >= q.limit && sumE < both[q.limit - 1].score ? [] : run(q, `(${anyOf(e)}) NOT (${anyOf(c)})`);
    const top = [...both, ...onlyE].sort(byScore).slice(0, q.limit);
    if (top.length < q.limit) continue;
    const kth = top[q.limit - 1].score;
    // The loose bound needs no lookup; the exact one (largest single-word scores) prunes far more often.
    const loose = present.slice(i).reduce((n, t) => n + K1_PLUS_1 * idf(q.s.rows, t.df), 0);
    if (kth > loose) return top;
    const tight = c.reduce((n, w) => n + maxImpact(q, w), 0);
    if (kth > tight) return top;
  }
  return run(q, anyOf(all));
}

/**
 * Every query word is common (the rarest is in more notes than the budget): rank the notes that hold
 * all of them — FTS5 intersects the lists without scoring the rest — then, while fewer than asked,
 * the notes holding all but the commonest word, then all but the two commonest, and so on down to
 * the rarest word alone: no note holding fewer of the words ranks above one holding more. (A
 * tier's best `limit` holds at most the notes already taken plus enough new ones, so no note with
 * more of the words is skipped for a looser tier.) Each relaxation is an intersection of shorter lists: measured ~3× cheaper
 * than scoring every note of the rarest word (~22 ms at 100,000 notes with a scope). An
 * approximation of the exact order, measured against it in bench/search.ts.
 */
function conjunctiveFirst(q: Query, all: string[]): KeywordHit[] {
  const out: KeywordHit[] = [];
  const seen = new Set<number>();
  let floor = Infinity;
  for (let n = all.length; n >= 1 && out.length < q.limit; n--) {
    const tier = run(q, all.slice(0, n).map(quote).join(' AND ')).filter((h) => !seen.has(h.rid));
    // A note from a looser tier holds fewer of the words: it ranks after every note already taken.
    for (const h of tier) {
      if (out.length >= q.limit) break;
      const score = Math.min(h.score, floor * 0.999);
      out.push({ rid: h.rid, score });
      seen.add(h.rid);
    }
    if (out.length) floor = out[out.length - 1].score;
  }
  return out;
}

/**
 * RM3-style pseudo-relevance feedback: the best few notes lend their most telling words (weighted
 * by how much of each note they make up, the note's score and the word's rarity); a second BM25
 * query over those words is blended in, so a note worded differently from the query but like its
 * best answers is found.
 */
function withFeedback(q: Query, words: readonly string[], hits: KeywordHit[], fb: KeywordFeedback): KeywordHit[] {
  const docs = hits.slice(0, Math.max(1, Math.floor(fb.docs)));
  const rows = prepared(q.s, q.db, 'SELECT rid, title, body FROM memory_records WHERE rid IN (SELECT value FROM json_each(?))').all(
    JSON.stringify(docs.map((d) => d.rid)),
  ) as { rid: number; title: string; body: string | null }[];
  const text = new Map(rows.map((r) => [r.rid, `${r.title} ${r.body ?? ''}`]));
  const own = new Set(words);
  const total = docs.reduce((n, d) => n + d.score, 0) || 1;
  const weight = new Map<string, number>();
  for (const d of docs) {
    const ws = tokenize(text.get(d.rid) ?? '').filter((w) => w.length > 2 && /\p{L}/u.test(w) && !own.has(w));
    for (const w of ws) weight.set(w, (weight.get(w) ?? 0) + d.score / total / ws.length);
  }
  // Words in most notes say nothing about this query; rarity weighs them down (idf on document counts).
  const shortlist = [...weight].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1)).slice(0, Math.max(1, fb.terms) * 3);
  // A word in more than FEEDBACK_MATCHES notes is never taken (below), so its count need only go
  // that far: the words taken, and their order, are the same as with full counts.
  const ranked = shortlist
    .map(([w, p]) => ({ w, df: documentFrequencyUpTo(q, w, FEEDBACK_MATCHES), p }))
    .map((t) => ({ ...t, p: t.p * idf(q.s.rows, t.df) }))
    .filter((t) => t.p > 1e-6)
    .sort((a, b) => b.p - a.p || (a.w < b.w ? -1 : 1));
  // Words are taken while their notes fit one cheap OR query: in a large memory that keeps the
  // telling, rarer words and leaves out common ones, whose weight is small anyway.
  const scored: typeof ranked = [];
  let matches = 0;
  for (const t of ranked) {
    if (scored.length >= Math.floor(fb.terms)) break;
    if (matches + t.df > FEEDBACK_MATCHES) continue;
    scored.push(t);
    matches += t.df;
  }
  if (!scored.length) return hits;
  const expansion = topK(
    q,
    scored.map((t) => t.w),
  );
  const maxOwn = hits[0].score || 1;
  const maxExp = expansion[0]?.score || 1;
  const blended = new Map<number, number>(hits.map((h) => [h.rid, h.score / maxOwn]));
  for (const h of expansion) blended.set(h.rid, (blended.get(h.rid) ?? 0) + (fb.weight * h.score) / maxExp);
  return [...blended]
    .map(([rid, score]) => ({ rid, score }))
    .sort(byScore)
    .slice(0, q.limit);
}
