import { type Db, engineOf } from '../../store';
import { asServerWork } from '../../store/postgres/postgres-db';
import { cachedStatement } from '../statements';
import { type KeywordDoc, KeywordIndex } from './keyword-index';
import { docsizeColumns } from './fts5-probe';
import { fts5Tokens } from './tokenizer';

/**
 * Builds each process's keyword index from memory and keeps it current.
 *
 * The column texts are read with the very expressions of memory's FTS5 triggers (migration 001), so
 * the index holds what `memory_fts` holds. Changes come from `memory_changes` (migration 017), which
 * every write to `memory_records` appends to by trigger: before a search, the changes committed since
 * the index's last one are applied (outside a transaction only: inside one, a change may yet be
 * rolled back). As guards, every note's token counts are compared with FTS5's own (its docsize
 * table) when the note is loaded, and FTS5's row count with the changes seen: if they ever differ,
 * keyword search ranks with FTS5's bm25() instead and Settings → Search says why.
 *
 * On a desk's PostgreSQL there is no FTS5 (desk.ts below): the index is the ranking, with the
 * live notes' own totals, and no guard or fallback to compare it with.
 */

// "updatedAt" quoted: PostgreSQL folds an unquoted alias to lower case.
const COLUMNS_SQL = `SELECT rid, category, status, updated_at AS "updatedAt", id || ' ' || title AS t,
  (SELECT group_concat(key || ' ' || value, ' ') FROM json_each(header)) AS h, coalesce(body, '') AS b
  FROM memory_records`;

/** The same columns on a desk: PostgreSQL's string_agg for group_concat (a note's header order does not change its word counts). */
const DESK_COLUMNS_SQL = COLUMNS_SQL.replace("group_concat(key || ' ' || value, ' ')", "string_agg(key || ' ' || value, ' ')");
const columnsSql = (db: Db): string => (onDesk(db) ? DESK_COLUMNS_SQL : COLUMNS_SQL);

interface Row {
  rid: number;
  category: string;
  status: string | null;
  updatedAt: string;
  t: string | null;
  h: string | null;
  b: string | null;
}

const docOf = (r: Row): KeywordDoc => ({
  rid: r.rid,
  columns: [fts5Tokens(r.t ?? ''), fts5Tokens(r.h ?? ''), fts5Tokens(r.b ?? '')],
  category: r.category,
  status: r.status,
  updatedAt: r.updatedAt,
});

/**
 * A pause between steps that does not keep a finished command-line run alive. An unref'd timer, not
 * an unref'd setImmediate: the loop still wakes for the timer while it waits for I/O, where an
 * unref'd immediate would wait for the next request to arrive (seconds on an idle server).
 */
export const yieldToEventLoop = (): Promise<void> => new Promise((resolve) => setTimeout(resolve, 0).unref());

/** Up to this many notes, the index is built on the first search itself (a few ms); above, in the background. */
const BUILD_ON_FIRST_SEARCH = 2000;
/** Notes read per step of a background build (each step ~10-20 ms, then the event loop runs). */
const STEP_ROWS = 500;
/** Beyond this many changes behind, rebuilding is cheaper than applying them one by one. */
const MAX_CATCH_UP = 20_000;

interface State {
  index: KeywordIndex | null;
  /** The last change in `memory_changes` the index reflects. */
  seq: number;
  /** The row count FTS5's totals must show if every change reached the index (see agreesWithFts). */
  expectRows: number;
  building: Promise<void> | null;
  /** Bumped by every build: a background build that is overtaken (a synchronous one finished first) stops. */
  generation: number;
  /** Why the index is not used, or null. */
  problem: string | null;
}

const states = new WeakMap<Db, State>();

function stateFor(db: Db): State {
  let s = states.get(db);
  if (!s) {
    s = { index: null, seq: 0, expectRows: 0, building: null, generation: 0, problem: null };
    states.set(db, s);
  }
  return s;
}

/** The index and the totals FTS5's bm25() takes N and the average note length from. */
export interface CurrentKeywordIndex {
  index: KeywordIndex;
  rows: number;
  tokens: number;
}

/**
 * FTS5's totals (the averages record, id 1 of its data table): rows, then each column's tokens, as
 * varints. On a contentless_delete table these count every row ever inserted — a delete takes
 * nothing back — and bm25() uses them as they are, so the index does too.
 */
function ftsTotals(db: Db): { rows: number; tokens: number } {
  const row = cachedStatement(db, 'SELECT block FROM memory_fts_data WHERE id = 1').get() as { block: Buffer } | undefined;
  const [rows, ...cols] = row ? readVarints(row.block, 4) : [0, 0, 0, 0];
  return { rows, tokens: cols.reduce((a, b) => a + b, 0) };
}

const lastSeq = (db: Db): number => (cachedStatement(db, 'SELECT coalesce(max(seq), 0) AS s FROM memory_changes').get() as { s: number }).s;

/** The latest change and FTS5's row count, read in one snapshot. */
function snapshot(db: Db): { seq: number; rows: number } {
  if (onDesk(db)) return { seq: lastSeq(db), rows: 0 };
  return db.transaction(() => ({ seq: lastSeq(db), rows: ftsTotals(db).rows }))();
}

/**
 * A desk's PostgreSQL: no FTS5 to check against or fall back to. Its transactions take the desk's
 * write lock (postgres-db.ts), so a build reads outside one: the latest change first, then the
 * notes, which are at least that new (a change the build already read is applied again, harmlessly).
 */
const onDesk = (db: Db): boolean => engineOf(db) === 'postgres';

/** Builds the whole index now (a command-line search or a small memory). */
export function buildKeywordIndex(db: Db): KeywordIndex {
  const s = stateFor(db);
  s.generation++;
  const index = new KeywordIndex();
  const read = () => {
    const at = snapshot(db);
    for (const r of db.prepare(`${columnsSql(db)} ORDER BY rid`).iterate() as IterableIterator<Row>) index.put(docOf(r));
    return at;
  };
  const at = onDesk(db) ? read() : db.transaction(read)();
  s.building = null;
  install(db, s, index, at);
  return index;
}

/**
 * Builds the index in steps that yield to the event loop (the app at start, or after falling far
 * behind), while searches rank with FTS5's bm25() meanwhile. Changes committed during the build are
 * applied at the end from the log (re-applying one the build already read is harmless).
 */
export function buildKeywordIndexInBackground(db: Db, pause: () => Promise<void> = yieldToEventLoop): Promise<void> {
  const s = stateFor(db);
  if (s.building) return s.building;
  const generation = ++s.generation;
  // On a desk, as the server's own work even when a person's search started it (see deskKeywordIndex).
  s.building = asServerWork(db, async () => {
    try {
      const at = snapshot(db);
      const index = new KeywordIndex();
      const page = db.prepare(`${columnsSql(db)} WHERE rid > ? ORDER BY rid LIMIT ?`);
      let after = 0;
      // Not one step inside the call that started the build (often a search, which answers first).
      await pause();
      for (;;) {
        if (!db.open || s.generation !== generation) return;
        const rows = page.all(after, STEP_ROWS) as Row[];
        for (const r of rows) index.put(docOf(r));
        if (rows.length < STEP_ROWS) break;
        after = rows[rows.length - 1].rid;
        await pause();
      }
      if (db.open && s.generation === generation) install(db, s, index, at);
    } finally {
      if (s.generation === generation) s.building = null;
    }
  });
  return s.building;
}

/** Puts a built index in use, once its notes' token counts are checked against FTS5's own. */
function install(db: Db, s: State, index: KeywordIndex, at: { seq: number; rows: number }): void {
  index.compact();
  s.index = index;
  s.seq = at.seq;
  s.expectRows = at.rows;
  s.problem = null;
  if (!catchUp(db, s) || onDesk(db)) return;
  let checked = 0;
  for (const d of db.prepare('SELECT id, sz FROM memory_fts_docsize').iterate() as IterableIterator<{ id: number; sz: Buffer }>) {
    checked++;
    if (!sameSizes(index, d.id, d.sz)) {
      s.problem = `note ${d.id} has other token counts in the in-memory index than in FTS5 (${docsizeColumns(d.sz).join('+')})`;
      return;
    }
  }
  if (checked !== index.notes) s.problem = `FTS5 holds ${checked} notes where the in-memory index holds ${index.notes}`;
}

function sameSizes(index: KeywordIndex, rid: number, sz: Buffer | undefined): boolean {
  const have = index.columnSizes(rid);
  if (!sz || !have) return !sz && !have;
  const want = docsizeColumns(sz);
  return want.length === 3 && want.every((v, i) => v === have[i]);
}

/**
 * The index, current with every committed write, or null when a search must rank with FTS5 instead
 * (not built yet, being rebuilt, inside an open transaction, or disagreeing with FTS5).
 */
export function currentKeywordIndex(db: Db): CurrentKeywordIndex | null {
  if (onDesk(db)) return deskKeywordIndex(db);
  const s = stateFor(db);
  // Inside an open transaction the last changes may yet be rolled back: neither build on them nor apply them.
  if (db.inTransaction) return null;
  if (!s.index) {
    if (s.building) return null;
    const rows = (db.prepare('SELECT count(*) AS n FROM memory_records').get() as { n: number }).n;
    if (rows > BUILD_ON_FIRST_SEARCH) {
      void buildKeywordIndexInBackground(db).catch(() => {});
      return null;
    }
    buildKeywordIndex(db);
  }
  if (s.problem || !s.index) return null;
  if (!catchUp(db, s)) return null;
  const totals = ftsTotals(db);
  if (totals.rows !== s.expectRows) {
    s.problem = `FTS5 counts ${totals.rows} rows where the changes the index has seen make ${s.expectRows}: something wrote to the full-text table directly`;
    return null;
  }
  return { index: s.index, ...totals };
}

/**
 * On a desk the index is the only ranking, so it is always answered: built on the spot when there
 * is none yet (also when a background build is under way: the search cannot wait for it), with the
 * live notes' totals for N and the average length. Inside an open transaction the index is used as
 * of the last commit it saw (the transaction's own changes reach it after the commit); with no
 * index yet, one is built for that search alone, as it may hold changes that are rolled back.
 */
function deskKeywordIndex(db: Db): CurrentKeywordIndex {
  const s = stateFor(db);
  const answer = (index: KeywordIndex) => ({ index, rows: index.notes, tokens: index.tokens });
  if (db.inTransaction) {
    if (s.index) return answer(s.index);
    const index = new KeywordIndex();
    for (const r of db.prepare(`${columnsSql(db)} ORDER BY rid`).iterate() as IterableIterator<Row>) index.put(docOf(r));
    return answer(index);
  }
  // Nothing new (the common case): answered as is, with no change of the session's binding.
  if (s.index && !cachedStatement(db, 'SELECT 1 AS x FROM memory_changes WHERE seq > ? LIMIT 1').get(s.seq)) return answer(s.index);
  // The index serves every person on the desk: it reads as the server's own work, never as the
  // person whose search happens to apply a change (row-level security would hide it from them).
  asServerWork(db, () => {
    if (!s.index || !catchUp(db, s) || !s.index) buildKeywordIndex(db);
  });
  return answer(s.index as KeywordIndex);
}

/** Applies the committed changes since the index's last one; false when too far behind (a rebuild starts) or a note disagrees. */
function catchUp(db: Db, s: State): boolean {
  const index = s.index!;
  const changes = cachedStatement(db, 'SELECT seq, rid, op FROM memory_changes WHERE seq > ? ORDER BY seq LIMIT ?').all(s.seq, MAX_CATCH_UP + 1) as {
    seq: number;
    rid: number;
    op: number;
  }[];
  if (!changes.length) return true;
  // The log keeps the newest changes only: a gap before the first one means some were trimmed unseen.
  if (changes.length > MAX_CATCH_UP || (changes[0].seq > s.seq + 1 && !onlyRolledBack(db, s.seq))) {
    s.index = null;
    void buildKeywordIndexInBackground(db).catch(() => {});
    return false;
  }
  const read = db.prepare(`${columnsSql(db)} WHERE rid = ?`);
  const desk = onDesk(db);
  const size = desk ? null : db.prepare('SELECT sz FROM memory_fts_docsize WHERE id = ?').pluck();
  for (const rid of new Set(changes.map((c) => c.rid))) {
    const row = read.get(rid) as Row | undefined;
    if (row) index.put(docOf(row));
    else index.delete(rid);
    if (!size) continue;
    const sz = size.get(rid) as Buffer | undefined;
    if (!sameSizes(index, rid, sz)) {
      s.problem = `note ${rid} has other token counts in the in-memory index than in FTS5`;
      return false;
    }
  }
  // FTS5 counts a row for each insert and update (a delete takes none back).
  for (const c of changes) if (c.op !== 3) s.expectRows++;
  s.seq = changes[changes.length - 1].seq;
  return true;
}

/**
 * A gap after the index's last change on a desk: PostgreSQL's identity column gives a number to a
 * change that is then rolled back, so a gap there is no loss unless the trim took changes after it.
 */
function onlyRolledBack(db: Db, seq: number): boolean {
  if (!onDesk(db)) return false;
  const first = (cachedStatement(db, 'SELECT coalesce(min(seq), 0) AS s FROM memory_changes').get() as { s: number }).s;
  return first <= seq + 1;
}

/** SQLite varints (big-endian, 7 bits a byte, a 9th byte whole). */
function readVarints(b: Buffer, count: number): number[] {
  const out: number[] = [];
  let at = 0;
  for (let n = 0; n < count; n++) {
    let v = 0;
    for (let i = 0; i < 9 && at < b.length; i++) {
      const byte = b[at++];
      if (i === 8) {
        v = v * 256 + byte;
        break;
      }
      v = v * 128 + (byte & 0x7f);
      if (!(byte & 0x80)) break;
    }
    out.push(v);
  }
  return out;
}

/** Why keyword search is not using the in-memory index right now, or null when it is (or will, once built). */
export function keywordIndexProblem(db: Db): string | null {
  return stateFor(db).problem;
}

export function keywordIndexReady(db: Db): boolean {
  return stateFor(db).index !== null;
}

/** What Settings → Search, `forge version` and About say about keyword ranking on this database. */
export function keywordRankingStatus(db: Db): string {
  const s = stateFor(db);
  if (onDesk(db)) {
    const notes = s.index ? `${s.index.notes.toLocaleString('en-US')} notes` : s.building ? 'being built' : 'built at the first search';
    return `exact BM25, in memory (${notes}); on a desk's PostgreSQL this index is the ranking, kept current from the desk's change log`;
  }
  if (s.problem) return `SQLite's built-in bm25() (the same results, slower): ${s.problem}`;
  if (s.index) return `exact BM25, in memory (${s.index.notes.toLocaleString('en-US')} notes)`;
  if (s.building) return "exact BM25, in memory (being built; SQLite's bm25() meanwhile)";
  return 'exact BM25, in memory (built at the first search)';
}
