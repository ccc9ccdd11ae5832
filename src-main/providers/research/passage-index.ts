import { createHash } from 'node:crypto';
import { type Dirent, existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { extname, join } from 'node:path';
import { type Db, engineOf } from '../../store/open';
import { chunkNote } from './chunk';
import { NOTE_EXTENSIONS, readNote, UnreadableNote } from './notes';
import { type Embedded, type PassageEmbedder, type PassageVectorOptions, PassageVectors } from './passage-vectors';

/**
 * The broker-notes folder indexed into SQLite (migration 007): `research_notes` remembers what each
 * note was indexed from, `research_passages` (FTS5) holds its passages. `sync()` reads only notes
 * whose modification time or size changed and whose bytes really differ, and removes the rows of
 * notes that are gone. With an embedder, a changed note's passages are embedded before the
 * transaction that writes them, and their vectors (migration 009) leave with them; see
 * passage-vectors.ts for what waits when embedding fails.
 */

export interface SyncReport {
  added: string[];
  updated: string[];
  removed: string[];
  /** Notes that could not be read this time (malformed or encrypted PDFs), with why. */
  skipped: { note: string; warning: string }[];
}

export interface PassageHit {
  note: string;
  title: string;
  noteDate: string;
  page: number | null;
  section: string;
  ordinal: number;
  text: string;
}

export interface SearchOptions {
  limit: number;
  /** Only notes dated on or before this day (the session's as-of). */
  asOf?: string;
  /** Only these notes (paths inside the folder). */
  notes?: string[];
}

interface NoteRow {
  note: string;
  mtime_ms: number;
  size: number;
  content_hash: string;
}

const MAX_DEPTH = 6;

/** Stop words dropped from a query: they match every note and only dilute bm25. */
const STOP = new Set(
  'a an and are as at be by for from has have in is it its of on or that the this to was were will with what which who how why when does do did about into than then there their'.split(
    ' ',
  ),
);

/**
 * The FTS5 query for free text: each word (and each "quoted phrase") as a quoted term, OR-ed so a
 * passage matching more of them ranks higher. Quoting keeps FTS5 syntax (AND, NEAR, *) out of
 * the analyst's text. Null when nothing searchable is left.
 */
export function ftsQuery(query: string): string | null {
  const unique = queryTerms(query);
  return unique.length ? unique.map((t) => `"${t.replace(/"/g, '""')}"`).join(' OR ') : null;
}

/**
 * The same terms as a PostgreSQL tsquery (a desk's passages: store/postgres/schema.ts): each word a
 * quoted lexeme, a phrase's words in sequence (<->), OR-ed. The terms hold only letters and digits,
 * so no tsquery syntax comes from the analyst's text.
 */
export function deskTsQuery(query: string): string | null {
  const unique = queryTerms(query);
  return unique.length
    ? unique
        .map((t) =>
          t
            .split(' ')
            .map((w) => `'${w}'`)
            .join(' <-> '),
        )
        .join(' | ')
    : null;
}

/** The words and "quoted phrases" of free text, lower-cased, stop words dropped, at most 32. */
function queryTerms(query: string): string[] {
  const terms: string[] = [];
  for (const m of query.matchAll(/"([^"]+)"/g)) {
    const phrase = (m[1]!.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []).join(' ');
    if (phrase) terms.push(phrase);
  }
  for (const w of query
    .replace(/"[^"]*"/g, ' ')
    .toLowerCase()
    .match(/[\p{L}\p{N}]+/gu) ?? []) {
    if (!STOP.has(w) && (w.length > 1 || /\d/.test(w))) terms.push(w);
  }
  return [...new Set(terms)].slice(0, 32);
}

export interface ResearchIndexOptions {
  now?: () => Date;
  maxFileBytes?: number;
  /** The workspace's embedder (injected by the host); without one passages are found by keyword only. */
  embedder?: PassageEmbedder;
  vectors?: Omit<PassageVectorOptions, 'now'>;
}

export class ResearchIndex {
  readonly vectors: PassageVectors;
  private running: Promise<SyncReport> | null = null;
  /** Syncs and re-embeddings run one at a time (both write a note's passages and vectors). */
  private lock: Promise<unknown> = Promise.resolve();

  constructor(
    private readonly db: Db,
    readonly dir: string,
    private readonly options: ResearchIndexOptions = {},
  ) {
    this.vectors = new PassageVectors(db, options.embedder, { ...options.vectors, now: options.now });
  }

  private exclusive<T>(work: () => Promise<T>): Promise<T> {
    const run = this.lock.then(work, work);
    this.lock = run.catch(() => undefined);
    return run;
  }

  /** Brings the index up to date with the folder; concurrent callers share one pass. */
  sync(): Promise<SyncReport> {
    this.running ??= this.exclusive(() => this.syncOnce()).finally(() => {
      this.running = null;
    });
    return this.running;
  }

  /** Re-embeds every passage with the current embedder (reindex), after bringing the notes up to date. */
  async reembed(onProgress?: (done: number, total: number) => void, signal?: AbortSignal): Promise<{ done: number; total: number }> {
    await this.sync();
    return this.exclusive(() => this.vectors.reembedAll(onProgress, signal));
  }

  private async syncOnce(): Promise<SyncReport> {
    const report: SyncReport = { added: [], updated: [], removed: [], skipped: [] };
    const files = existsSync(this.dir) ? listNotes(this.dir) : [];
    // On a desk the notes table is shared by every server, and each server has its own folder (made
    // empty at first start). A server whose folder holds no note is not the desk's broker-notes
    // server: it reads what the others indexed, and must not remove them all as "gone".
    if (!files.length && engineOf(this.db) === 'postgres') {
      await this.vectors.fillPending();
      return report;
    }
    const known = new Map((this.db.prepare('SELECT note, mtime_ms, size, content_hash FROM research_notes').all() as NoteRow[]).map((r) => [r.note, r]));
    const seen = new Set<string>();
    const maxBytes = this.options.maxFileBytes ?? 50 * 1024 * 1024;

    for (const note of files) {
      seen.add(note);
      const path = join(this.dir, ...note.split('/'));
      let st: ReturnType<typeof statSync>;
      try {
        st = statSync(path);
      } catch {
        continue; // deleted between listing and reading: the next sync removes its rows
      }
      const mtime = Math.trunc(st.mtimeMs);
      const row = known.get(note);
      if (row && row.mtime_ms === mtime && row.size === st.size) continue;
      let bytes: Buffer;
      try {
        bytes = st.size > maxBytes ? Buffer.alloc(0) : readFileSync(path);
      } catch {
        continue;
      }
      const hash = createHash('sha256').update(bytes).digest('hex');
      if (row && row.content_hash === hash && st.size <= maxBytes) {
        // Touched, not changed (copied, synced): remember the new stamp, keep the passages.
        this.db.prepare('UPDATE research_notes SET mtime_ms = ?, size = ? WHERE note = ?').run(mtime, st.size, note);
        continue;
      }
      const day = new Date(mtime).toISOString().slice(0, 10);
      try {
        if (st.size > maxBytes) throw new UnreadableNote(`larger than ${Math.round(maxBytes / 1024 / 1024)} MB`);
        const read = await readNote(note, bytes);
        const passages = chunkNote(read.units);
        // Embedded before the transaction opens; when that fails the text is indexed all the same.
        const embedded = await this.vectors.tryEmbed(passages);
        this.replace(
          note,
          { mtime, size: st.size, hash, date: read.date ?? day, dateFrom: read.dateFrom ?? 'file_time', title: read.title, warning: null },
          passages,
          embedded,
        );
      } catch (e) {
        const warning = e instanceof UnreadableNote ? e.message : `could not be indexed (${((e as Error)?.message ?? String(e)).slice(0, 120)})`;
        this.replace(note, { mtime, size: st.size, hash, date: day, dateFrom: 'file_time', title: note, warning }, [], null);
        report.skipped.push({ note, warning });
        continue;
      }
      (row ? report.updated : report.added).push(note);
    }

    const gone = [...known.keys()].filter((n) => !seen.has(n));
    if (gone.length) {
      this.db.transaction(() => {
        for (const n of gone) {
          this.vectors.removeNote(n);
          this.db.prepare('DELETE FROM research_passages WHERE note = ?').run(n);
          this.db.prepare('DELETE FROM research_notes WHERE note = ?').run(n);
        }
      })();
      report.removed.push(...gone);
    }
    // Passages that wait for a vector (the embedder failed, or another embedder made theirs).
    await this.vectors.fillPending();
    return report;
  }

  /** A note's row, passages and vectors replaced in one transaction: a search never sees half a note. */
  private replace(
    note: string,
    meta: { mtime: number; size: number; hash: string; date: string; dateFrom: string; title: string; warning: string | null },
    passages: ReturnType<typeof chunkNote>,
    embedded: Embedded | null,
  ): void {
    const now = (this.options.now ?? (() => new Date()))().toISOString();
    this.db.transaction(() => {
      this.vectors.removeNote(note);
      this.db.prepare('DELETE FROM research_passages WHERE note = ?').run(note);
      const insert = this.db.prepare('INSERT INTO research_passages (text, section, note, page, ordinal) VALUES (?, ?, ?, ?, ?)');
      passages.forEach((p, i) => {
        const rowid = Number(insert.run(p.text, p.section, note, p.page, p.ordinal).lastInsertRowid);
        if (embedded) this.vectors.write(rowid, note, embedded.embedder, embedded.vectors[i]!);
      });
      this.db
        .prepare(
          `INSERT INTO research_notes (note, mtime_ms, size, content_hash, note_date, date_from, title, passages, warning, indexed_at)
           VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
           ON CONFLICT (note) DO UPDATE SET mtime_ms = excluded.mtime_ms, size = excluded.size, content_hash = excluded.content_hash,
             note_date = excluded.note_date, date_from = excluded.date_from, title = excluded.title, passages = excluded.passages,
             warning = excluded.warning, indexed_at = excluded.indexed_at`,
        )
        .run(note, meta.mtime, meta.size, meta.hash, meta.date, meta.dateFrom, meta.title, passages.length, meta.warning, now);
    })();
  }

  /** The best passages for a free-text query, by bm25 (the heading counts half as much as the text). */
  search(query: string, options: SearchOptions): PassageHit[] {
    if (engineOf(this.db) === 'postgres') return this.searchDesk(query, options);
    const match = ftsQuery(query);
    if (!match) return [];
    const rows = this.db
      .prepare(
        `SELECT research_passages.text AS text, research_passages.section AS section, research_passages.note AS note,
                research_passages.page AS page, research_passages.ordinal AS ordinal, n.note_date AS noteDate, n.title AS title
         FROM research_passages JOIN research_notes n ON n.note = research_passages.note
         WHERE research_passages MATCH ?
           AND (? IS NULL OR n.note_date <= ?)
           AND (? IS NULL OR research_passages.note IN (SELECT value FROM json_each(?)))
         ORDER BY bm25(research_passages, 1.0, 0.5), n.note_date DESC
         LIMIT ?`,
      )
      .all(match, options.asOf ?? null, options.asOf ?? null, options.notes ? 1 : null, JSON.stringify(options.notes ?? []), options.limit) as PassageHit[];
    return rows.map((r) => ({ ...r, page: r.page === null ? null : Number(r.page), ordinal: Number(r.ordinal) }));
  }

  /**
   * `search` on a desk: FTS5 is SQLite's, so PostgreSQL's own full text over the same passages
   * (English stemming, ts_rank_cd for bm25): the same passages match, close ones may rank apart.
   */
  private searchDesk(query: string, options: SearchOptions): PassageHit[] {
    const match = deskTsQuery(query);
    if (!match) return [];
    const rows = this.db
      .prepare(
        `SELECT p.text AS text, p.section AS section, p.note AS note, p.page AS page, p.ordinal AS ordinal, n.note_date AS "noteDate", n.title AS title
         FROM research_passages p JOIN research_notes n ON n.note = p.note
         WHERE p.search_vector @@ to_tsquery('english', ?)
           AND (? IS NULL OR n.note_date <= ?)
           AND (? IS NULL OR p.note IN (SELECT value FROM json_each(?)))
         ORDER BY ts_rank_cd(p.search_vector, to_tsquery('english', ?)) DESC, n.note_date DESC, p.passage
         LIMIT ?`,
      )
      .all(
        match,
        options.asOf ?? null,
        options.asOf ?? null,
        options.notes ? 1 : null,
        JSON.stringify(options.notes ?? []),
        match,
        options.limit,
      ) as PassageHit[];
    return rows.map((r) => ({ ...r, page: r.page === null ? null : Number(r.page), ordinal: Number(r.ordinal) }));
  }

  /** Notes whose path is `name`, or whose file name is `name` (case-insensitive). */
  resolveNotes(name: string): string[] {
    const lower = name.trim().replace(/\\/g, '/').toLowerCase();
    const like = `%/${lower.replace(/[\\%_]/g, (c) => `\\${c}`)}`;
    return (
      this.db.prepare("SELECT note FROM research_notes WHERE lower(note) = ? OR lower(note) LIKE ? ESCAPE '\\' ORDER BY note").all(lower, like) as {
        note: string;
      }[]
    ).map((r) => r.note);
  }

  /** Notes currently skipped, with why (listed in every result until the file is fixed or removed). */
  warnings(): { note: string; warning: string }[] {
    return this.db.prepare('SELECT note, warning FROM research_notes WHERE warning IS NOT NULL ORDER BY note').all() as { note: string; warning: string }[];
  }

  counts(asOf?: string): { notes: number; passages: number } {
    const r = this.db
      .prepare('SELECT COUNT(*) AS notes, COALESCE(SUM(passages), 0) AS passages FROM research_notes WHERE warning IS NULL AND (? IS NULL OR note_date <= ?)')
      .get(asOf ?? null, asOf ?? null) as { notes: number; passages: number };
    return r;
  }
}

/** Note files under `dir` (hidden entries skipped), as `/`-separated paths inside it, sorted. */
function listNotes(dir: string): string[] {
  const out: string[] = [];
  const walk = (abs: string, rel: string, depth: number) => {
    let entries: Dirent[];
    try {
      entries = readdirSync(abs, { withFileTypes: true });
    } catch {
      return;
    }
    for (const e of entries) {
      if (e.name.startsWith('.') || e.name.startsWith('~$')) continue;
      const r = rel ? `${rel}/${e.name}` : e.name;
      // Symlinked folders are not followed (no loops); symlinked files are read like files.
      if (e.isDirectory()) {
        if (depth < MAX_DEPTH) walk(join(abs, e.name), r, depth + 1);
      } else if ((e.isFile() || e.isSymbolicLink()) && NOTE_EXTENSIONS.has(extname(e.name).toLowerCase())) out.push(r);
    }
  };
  walk(dir, '', 0);
  return out.sort();
}
