import type { QueryAst } from '../fs';
import type { Db } from '../store';
import type { SearchHit } from './search';

/**
 * Keyword search over the current session's files (`/session/<file>`: notes, the integration
 * brief, sub-agent results). A session holds a few dozen files, not an index's worth, so SQL picks
 * the files that hold a query word and they are ranked here by word coverage and frequency; they
 * are not embedded, so a session hit's `vector` is 0.
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
}

const MAX_FILES = 500;
const HEADER_LINES = 8;

export function searchSessionFiles(db: Db, s: SessionSearch): SearchHit[] {
  const terms = s.ast?.terms ?? [];
  // status:, confidence>=, skill: ... describe memory records; a session file has none of them.
  if (terms.some((t) => t.kind !== 'since' && t.kind !== 'text')) return [];
  const words = [...new Set(s.words)].slice(0, 24);
  if (!words.length) return [];
  const prefix = s.prefix.startsWith(`${s.sessionId}/`) ? s.prefix.slice(s.sessionId.length + 1) : s.prefix;

  const cond = ['session_id = ?', 'substr(path, 1, length(?)) = ?', `(${words.map(() => 'instr(lower(content), ?) > 0').join(' OR ')})`];
  const params: unknown[] = [s.sessionId, prefix, prefix, ...words];
  for (const t of terms) {
    if (t.kind === 'since') {
      cond.push('updated_at >= ?');
      params.push(t.date);
    } else if (t.kind === 'text') {
      // Filter keywords and phrases must all be present, as in memory listings.
      cond.push('instr(lower(content), ?) > 0');
      params.push(t.text.toLowerCase());
    }
  }
  const rows = db
    .prepare(`SELECT path, content, updated_at FROM session_files WHERE ${cond.join(' AND ')} ORDER BY updated_at DESC LIMIT ?`)
    .all(...params, MAX_FILES) as { path: string; content: string; updated_at: string }[];
  if (!rows.length) return [];

  const scored = rows.map((r) => {
    const lower = r.content.toLowerCase();
    let present = 0;
    let tf = 0;
    for (const w of words) {
      const n = occurrences(lower, w);
      if (n) present++;
      tf += Math.log1p(n);
    }
    // Coverage first (a file holding every word beats one repeating a single word), frequency second.
    return { r, raw: present / words.length + 0.1 * Math.min(1, tf / (words.length * 3)) };
  });
  const best = Math.max(1e-9, ...scored.map((x) => x.raw));
  const now = s.now.getTime();
  const hits = scored.map(({ r, raw }) => {
    const keyword = raw / best;
    const ageDays = Math.max(0, (now - Date.parse(r.updated_at)) / 86_400_000);
    const recency = 1 / (1 + ageDays / 30);
    const score = s.weights.semantic * keyword + s.weights.recency * recency;
    const lines = r.content.replace(/\r\n/g, '\n').split('\n');
    const heading = lines
      .find((l) => /^#{1,3}\s+\S/.test(l))
      ?.replace(/^#+\s+/, '')
      .trim();
    return {
      path: `/session/${r.path}`,
      id: r.path,
      category: 'session',
      title: (heading || r.path).slice(0, 200),
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

function occurrences(text: string, word: string): number {
  let n = 0;
  for (let i = text.indexOf(word); i >= 0 && n < 50; i = text.indexOf(word, i + word.length)) n++;
  return n;
}

const round = (x: number) => Math.round(x * 10_000) / 10_000;
