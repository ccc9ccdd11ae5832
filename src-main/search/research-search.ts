import { citation } from '../common/citation';
import { type Db, engineOf } from '../store';
import { type Embedder, stalledNow } from './embedder';
import type { SearchHit } from './search';
import { type PassageScan, PassageVectorCache, topRows } from './passage-cache';
import { idsIn } from './statements';

/**
 * Hybrid search over the broker notes' passages (tables of migrations 007 and 009, written by
 * src-main/providers/research/): FTS5 bm25 over `research_passages` fused with the cosine of the
 * query against every passage vector in scope — a brute-force float scan of an in-memory copy
 * (passage-cache.ts), fine at the size of a research folder (thousands of passages;
 * bench/research-search.ts measures it) — into a semantic
 * score with the same vector share as memory search, blended with the recency of the note's date.
 * Notes dated after `asOf` are never candidates.
 */

export interface PassageQuery {
  /** Query words (tokenize() of the cleaned query). */
  words: string[];
  /** The query's vector, or null when only keywords can be used (no embedder, or it failed). */
  queryVector: Float32Array | null;
  /** The embedder that made `queryVector`: only passage vectors it made are compared. */
  embedderId: string;
  limit: number;
  /** Only notes dated on or before this day (a retrospective session's as-of). */
  asOf?: string;
  /** Only notes whose path starts with this (case-insensitive; '' = all). */
  notePrefix?: string;
  /** Only these notes (exact paths inside the research folder). */
  notes?: string[];
  /** Filters that apply to a passage (as to a session file): notes dated on or after `since`, passages holding every `mustContain` text. */
  since?: string;
  mustContain?: string[];
  weights: { semantic: number; recency: number };
  /** The research index's write generation (ResearchSource.generation), so cached vectors are reused until it writes; absent: reloaded after any write. */
  generation?: number;
  vectorShare: number;
  mode: 'hybrid' | 'keyword' | 'vector';
  keywordCandidates: number;
  vectorCandidates: number;
  now: Date;
}

export interface PassageResult {
  passage: number;
  note: string;
  title: string;
  noteDate: string;
  page: number | null;
  section: string;
  ordinal: number;
  text: string;
  citation: string;
  score: number;
  semantic: number;
  vector: number;
  keyword: number;
  recency: number;
}

/** Words that match nearly every passage and only dilute bm25 (the research index's own query drops the same kind). */
const STOP = new Set('and are was were will has have its than then there their what which who how why when does do did about into'.split(' '));

/** The FTS5 query: each word quoted (FTS5 syntax stays out of the analyst's text), OR-ed so more matches rank higher. */
export function passageMatch(words: string[]): string | null {
  const terms = [...new Set(words)].filter((w) => !STOP.has(w) && (w.length > 1 || /\d/.test(w))).slice(0, 32);
  return terms.length ? terms.map((t) => `"${t.replace(/"/g, '""')}"`).join(' OR ') : null;
}

/**
 * The same words as a PostgreSQL tsquery: each word's letters and digits as a quoted lexeme (no
 * tsquery syntax from the analyst's text), OR-ed; null when no word is left.
 */
export function deskPassageQuery(words: string[]): string | null {
  const terms = [...new Set(words.flatMap((w) => w.split(/[^\p{L}\p{N}]+/u)).map((w) => w.toLowerCase()))]
    .filter((w) => w && !STOP.has(w) && (w.length > 1 || /\d/.test(w)))
    .slice(0, 32);
  return terms.length ? terms.map((t) => `'${t}'`).join(' | ') : null;
}

interface Scope {
  sql: string;
  params: unknown[];
  /** Whether anything narrows the notes (asOf, prefix, list, since). */
  narrowed: boolean;
}

/** The SQL condition on `research_notes n` for asOf, a note prefix and a note list. */
function scopeOf(q: PassageQuery): Scope {
  const cond = ['n.warning IS NULL'];
  const params: unknown[] = [];
  if (q.asOf) {
    cond.push('n.note_date <= ?');
    params.push(q.asOf);
  }
  if (q.notePrefix) {
    cond.push('substr(lower(n.note), 1, length(?)) = lower(?)');
    params.push(q.notePrefix, q.notePrefix);
  }
  if (q.notes) {
    cond.push('n.note IN (SELECT value FROM json_each(?))');
    params.push(JSON.stringify(q.notes));
  }
  if (q.since) {
    cond.push('n.note_date >= ?');
    params.push(q.since);
  }
  return { sql: cond.join(' AND '), params, narrowed: cond.length > 1 };
}

/**
 * The best passages for a query. `cache` keeps the passage vectors in memory between searches
 * (the search index holds one); without it they are read from the database for this search.
 */
export function searchPassages(db: Db, q: PassageQuery, cache: PassageVectorCache = new PassageVectorCache()): PassageResult[] {
  const scope = scopeOf(q);
  const cands = new Map<number, { cos: number; bm25: number; note: string }>();

  // Vector signal: every passage vector in scope made by the query's embedder.
  let scan: PassageScan | null = null;
  if (q.queryVector && q.mode !== 'keyword') {
    const allowed = scope.narrowed
      ? new Set((db.prepare(`SELECT n.note AS note FROM research_notes n WHERE ${scope.sql}`).all(...scope.params) as { note: string }[]).map((r) => r.note))
      : null;
    scan = cache.scan(db, q.embedderId, q.queryVector, allowed, q.generation);
    for (const row of topRows(scan.cos, Math.max(q.vectorCandidates, q.limit * 4))) {
      cands.set(scan.ids[row]!, { cos: scan.cos[row]!, bm25: 0, note: scan.notes[row]! });
    }
  }
  const cosOf = (passage: number) => {
    const row = scan?.rowOf.get(passage);
    return row === undefined ? 0 : Math.max(0, scan!.cos[row]!);
  };

  // Keyword signal: bm25 over the passage text (the heading counts half).
  const desk = engineOf(db) === 'postgres';
  const match = q.mode === 'vector' ? null : desk ? deskPassageQuery(q.words) : passageMatch(q.words);
  if (match && desk) {
    // A desk's passages have PostgreSQL's own full text (store/postgres/schema.ts): its English
    // stemmer and ts_rank_cd, not FTS5's porter and bm25(): the same passages match, the order of
    // close ones may differ from the PM's own file.
    const rows = db
      .prepare(
        `SELECT p.passage AS passage, p.note AS note, ts_rank_cd(p.search_vector, to_tsquery('english', ?)) AS bm
         FROM research_passages p JOIN research_notes n ON n.note = p.note
         WHERE p.search_vector @@ to_tsquery('english', ?) AND ${scope.sql}
         ORDER BY bm DESC, passage LIMIT ?`,
      )
      .all(match, match, ...scope.params, Math.max(q.keywordCandidates, q.limit * 4)) as { passage: number; note: string; bm: number }[];
    for (const r of rows) {
      const passage = Number(r.passage);
      const c = cands.get(passage) ?? { cos: cosOf(passage), bm25: 0, note: r.note };
      c.bm25 = Number(r.bm);
      cands.set(passage, c);
    }
  } else if (match) {
    const rows = db
      .prepare(
        `SELECT p.rowid AS passage, p.note AS note, bm25(research_passages, 1.0, 0.5) AS bm
         FROM research_passages p JOIN research_notes n ON n.note = p.note
         WHERE research_passages MATCH ? AND ${scope.sql}
         ORDER BY bm LIMIT ?`,
      )
      .all(match, ...scope.params, Math.max(q.keywordCandidates, q.limit * 4)) as { passage: number; note: string; bm: number }[];
    for (const r of rows) {
      const c = cands.get(r.passage) ?? { cos: cosOf(r.passage), bm25: 0, note: r.note };
      c.bm25 = -r.bm; // FTS5's bm25 is negative: lower is better
      cands.set(r.passage, c);
    }
  }
  if (cands.size && q.mustContain?.length) {
    const keep = new Set(
      (
        db
          .prepare(
            desk
              ? `SELECT passage FROM research_passages WHERE passage IN (${idsIn(db)}) AND ${q.mustContain.map(() => 'strpos(lower(text), ?) > 0').join(' AND ')}`
              : `SELECT rowid AS passage FROM research_passages WHERE rowid IN (SELECT value FROM json_each(?)) AND ${q.mustContain.map(() => 'instr(lower(text), ?) > 0').join(' AND ')}`,
          )
          .all(JSON.stringify([...cands.keys()]), ...q.mustContain.map((t) => t.toLowerCase())) as { passage: number }[]
      ).map((r) => Number(r.passage)),
    );
    for (const id of [...cands.keys()]) if (!keep.has(id)) cands.delete(id);
  }
  if (!cands.size) return [];

  const dates = new Map(
    (
      db
        .prepare('SELECT note, note_date, title FROM research_notes WHERE note IN (SELECT value FROM json_each(?))')
        .all(JSON.stringify([...new Set([...cands.values()].map((c) => c.note))])) as { note: string; note_date: string; title: string }[]
    ).map((r) => [r.note, r]),
  );
  const maxCos = Math.max(1e-9, ...[...cands.values()].map((c) => c.cos));
  const maxBm = Math.max(1e-9, ...[...cands.values()].map((c) => c.bm25));
  // A retrospective measures recency from its own date, as the PM then saw it.
  const today = q.asOf ? Date.parse(`${q.asOf}T12:00:00Z`) : q.now.getTime();
  const ranked = [...cands.entries()].map(([passage, c]) => {
    const vector = Math.max(0, c.cos);
    const keyword = c.bm25 / maxBm;
    const semantic =
      q.mode === 'vector' ? vector : q.mode === 'keyword' || !q.queryVector ? keyword : q.vectorShare * (vector / maxCos) + (1 - q.vectorShare) * keyword;
    const noteDate = dates.get(c.note)?.note_date ?? '1970-01-01';
    const ageDays = Math.max(0, (today - Date.parse(`${noteDate}T12:00:00Z`)) / 86_400_000);
    const recency = 1 / (1 + ageDays / 30);
    return { passage, note: c.note, vector, keyword, semantic, recency, score: q.weights.semantic * semantic + q.weights.recency * recency };
  });
  ranked.sort((a, b) => b.score - a.score || b.semantic - a.semantic || a.passage - b.passage);
  const top = ranked.slice(0, q.limit);

  const texts = new Map(
    (
      db
        .prepare(
          desk
            ? `SELECT passage, text, section, page, ordinal FROM research_passages WHERE passage IN (${idsIn(db)})`
            : 'SELECT rowid AS passage, text, section, page, ordinal FROM research_passages WHERE rowid IN (SELECT value FROM json_each(?))',
        )
        .all(JSON.stringify(top.map((t) => t.passage))) as { passage: number; text: string; section: string; page: number | null; ordinal: number }[]
    ).map((r) => [Number(r.passage), r]),
  );
  return top.flatMap((t) => {
    const p = texts.get(t.passage);
    const note = dates.get(t.note);
    if (!p || !note) return [];
    const ref = { note: t.note, page: p.page === null ? null : Number(p.page), section: p.section, ordinal: Number(p.ordinal) };
    return [
      {
        passage: t.passage,
        ...ref,
        title: note.title,
        noteDate: note.note_date,
        text: p.text,
        citation: citation(ref),
        score: round(t.score),
        semantic: round(t.semantic),
        vector: round(t.vector),
        keyword: round(t.keyword),
        recency: round(t.recency),
      },
    ];
  });
}

const round = (x: number) => Math.round(x * 10_000) / 10_000;

/** Embeds the query for a passage search (when it fails, the search runs on keywords only and says so). */
export async function queryVectorFor(embedder: Embedder, query: string): Promise<{ vector: Float32Array | null; degraded: string | null }> {
  try {
    const stall = stalledNow(embedder);
    if (stall) {
      return {
        vector: null,
        degraded: `The local search model stopped answering at ${stall.at} and is being restarted; these results match keywords only.`,
      };
    }
    const [vector] = await embedder.embed([query], 'query');
    return { vector: vector ?? null, degraded: null };
  } catch (e) {
    return { vector: null, degraded: `Meaning-based search is unavailable (${(e as Error).message}); these results match keywords only.` };
  }
}

/** The broker-notes index as search needs it; providers/research implements it and the host attaches it. */
export interface ResearchSource {
  /** False when the PM switched the research source off (Settings → Data): its passages are then not searched. */
  enabled(): boolean;
  /** Brings the passages up to date with the folder (new notes read and embedded). */
  sync(): Promise<unknown>;
  /** Changes whenever this process wrote passages or vectors (the in-memory copy of the vectors is then reloaded). */
  generation(): number;
  /** Re-embeds every passage with the current embedder (reindex). */
  reembed(onProgress?: (done: number, total: number) => void, signal?: AbortSignal): Promise<{ done: number; total: number }>;
}

const HEADER_TEXT_LINES = 4;
const LINE_CHARS = 110;

/** The passage text as a few lines of the header (control characters out: the text is outside content). */
function excerptLines(text: string): string[] {
  // Control characters in a PDF's text are dropped before display.
  const printable = Array.from(text, (c) => (c.charCodeAt(0) < 32 || c.charCodeAt(0) === 127 ? ' ' : c)).join('');
  const words = printable.split(/\s+/).filter(Boolean);
  const lines: string[] = [];
  let cur = '';
  for (const w of words) {
    if (cur && cur.length + 1 + w.length > LINE_CHARS) {
      lines.push(cur);
      cur = '';
      if (lines.length === HEADER_TEXT_LINES) break;
    }
    cur = cur ? `${cur} ${w}` : w;
  }
  if (cur && lines.length < HEADER_TEXT_LINES) lines.push(cur);
  const shown = lines.join(' ').split(' ').length;
  if (shown < words.length) lines[lines.length - 1] += ' …';
  return lines;
}

/**
 * A passage as a search hit: path `/research/<note>`, and header lines with the citation, the
 * note's title and date, the start of the passage, and how to read more of the note.
 */
export function passageHit(r: PassageResult): SearchHit {
  return {
    path: `/research/${r.note}`,
    id: `${r.note}#${r.ordinal}`,
    category: 'research',
    title: r.title,
    score: r.score,
    semantic: r.semantic,
    vector: r.vector,
    keyword: r.keyword,
    recency: r.recency,
    updatedAt: r.noteDate,
    header: [`${r.citation} ${r.title} (${r.noteDate})`, ...excerptLines(r.text), `more: fetch research with note "${r.note}"`].join('\n'),
    passage: { note: r.note, citation: r.citation, noteDate: r.noteDate, text: r.text },
  };
}
