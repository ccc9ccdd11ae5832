import type { QueryAst } from '../fs';
import { type Db, engineOf } from '../store';
import { type FieldWeights, fts5Tokens, queryTerms } from './keyword-index';
import { scoreDocuments } from './keyword-index/score-documents';
import type { SearchHit } from './search';

/**
 * Keyword search over the current session's files (`/session/<file>`: notes, the integration
 * brief, sub-agent results), ranked by the same BM25 as memory (keyword-index/: FTS5's tokens and
 * arithmetic), so "rallies" finds "rallied" and "rate" does not match "separate". A session holds
 * a few dozen files, not an index's worth: every file of the scope is read and tokenized per
 * search (a stem cannot be found by a substring test in SQL) and scored by keyword-index's BM25
 * functions (score-documents.ts). They are not embedded, so a session hit's `vector` is 0.
 */

export interface SessionSearch {
  sessionId: string;
  /** Folder inside the session ('' = every file), e.g. `results/`. */
  prefix: string;
  words: string[];
  /** The parsed filters: field filters cannot match a file (no header), `since:` and keywords can. */
  ast: QueryAst | null;
  weights: { semantic: number; recency: number };
  now: Date;
  limit: number;
  /** BM25 weights of a file's title, header and body; memory's default when absent. */
  fieldWeights?: FieldWeights;
}

/** The newest files of the scope read per search: a session beyond this searches its newest 500. */
const MAX_FILES = 500;
const HEADER_LINES = 8;
/** Memory's default column weights (search.ts DEFAULT_TUNING.fieldWeights): a heading counts as a title. */
export const SESSION_FIELD_WEIGHTS: FieldWeights = [3, 1, 1];

export interface SessionFile {
  path: string;
  content: string;
}

/**
 * The three columns BM25 reads from a session file, as memory_fts has them for a note: title =
 * the first heading's text (or the path when the file has none), header = '' (a session file has
 * no metadata lines), body = the whole content.
 */
export function sessionFileColumns(f: SessionFile): [title: string, header: string, body: string] {
  return [headingOf(f.content) || f.path, '', f.content];
}

/**
 * BM25 of each file holding a query word, as FTS5's bm25() would score them in a table holding
 * exactly `files` (N and the average length are those of `files`: the files of the session scope,
 * before filters, as memory's N is every note whatever the filters). Positive scores, best first.
 */
export function scoreSessionFiles(files: readonly SessionFile[], words: readonly string[], weights: FieldWeights = SESSION_FIELD_WEIGHTS) {
  const terms = queryTerms(words);
  if (!terms.length || !files.length) return [];
  const docs = files.map((f) => sessionFileColumns(f).map(fts5Tokens) as [string[], string[], string[]]);
  return scoreDocuments(docs, terms, weights)
    .map(({ doc, score }) => ({ rid: doc, score }))
    .sort((a, b) => b.score - a.score || a.rid - b.rid);
}

export function searchSessionFiles(db: Db, s: SessionSearch): SearchHit[] {
  const terms = s.ast?.terms ?? [];
  // status:, confidence>=, skill: ... describe memory records; a session file has none of them.
  if (terms.some((t) => t.kind !== 'since' && t.kind !== 'text')) return [];
  const words = [...new Set(s.words)].slice(0, 24);
  if (!words.length) return [];
  const prefix = s.prefix.startsWith(`${s.sessionId}/`) ? s.prefix.slice(s.sessionId.length + 1) : s.prefix;

  // Filters decide which files may be shown, not how files score: they are read as a flag.
  const filter: string[] = [];
  const filterParams: unknown[] = [];
  for (const t of terms) {
    if (t.kind === 'since') {
      filter.push('updated_at >= ?');
      filterParams.push(t.date);
    } else if (t.kind === 'text') {
      // Filter keywords and phrases must all be present, as in memory listings.
      // (PostgreSQL spells SQLite's instr strpos.)
      filter.push(engineOf(db) === 'postgres' ? 'strpos(lower(content), ?) > 0' : 'instr(lower(content), ?) > 0');
      filterParams.push(t.text.toLowerCase());
    }
  }
  const rows = db
    .prepare(
      `SELECT path, content, updated_at, ${filter.length ? filter.join(' AND ') : '1'} AS shown FROM session_files
       WHERE session_id = ? AND substr(path, 1, length(?)) = ? ORDER BY updated_at DESC, path LIMIT ?`,
    )
    .all(...filterParams, s.sessionId, prefix, prefix, MAX_FILES) as { path: string; content: string; updated_at: string; shown: number }[];
  const scored = scoreSessionFiles(rows, words, s.fieldWeights).filter((h) => rows[h.rid].shown);
  if (!scored.length) return [];

  const best = Math.max(1e-300, ...scored.map((x) => x.score));
  const now = s.now.getTime();
  const hits = scored.map(({ rid, score: bm25 }) => {
    const r = rows[rid];
    const keyword = bm25 / best;
    const ageDays = Math.max(0, (now - Date.parse(r.updated_at)) / 86_400_000);
    const recency = 1 / (1 + ageDays / 30);
    const score = s.weights.semantic * keyword + s.weights.recency * recency;
    const lines = r.content.replace(/\r\n/g, '\n').split('\n');
    return {
      path: `/session/${r.path}`,
      id: r.path,
      category: 'session',
      title: (headingOf(r.content) || r.path).slice(0, 200),
      score: round(score),
      semantic: round(keyword),
      vector: 0,
      keyword: round(keyword),
      recency: round(recency),
      updatedAt: r.updated_at,
      header: lines.slice(0, HEADER_LINES).join('\n'),
    } satisfies SearchHit;
  });
  hits.sort((a, b) => b.score - a.score || a.path.localeCompare(b.path));
  return hits.slice(0, s.limit);
}

/** The text of the file's first level 1-3 heading, '' when it has none. */
function headingOf(content: string): string {
  const m = /^#{1,3}[ \t]+(\S.*)$/m.exec(content);
  return m ? m[1].replace(/\r$/, '').trim() : '';
}

const round = (x: number) => Math.round(x * 10_000) / 10_000;
