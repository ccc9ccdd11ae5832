import type { Db } from '../../store';
import { type KeywordDoc, KeywordIndex } from './keyword-index';
import { fts5Tokens } from './tokenizer';

/**
 * Builds each process's keyword index from memory and keeps it current.
 *
 * The column texts are read with the very expressions of memory's FTS5 triggers (migration 001), so
 * the index holds what `memory_fts` holds. Changes come from `memory_changes` (migration 017), which
 * every write to `memory_records` appends to by trigger: before a search, the changes committed since
 * the index's last one are applied (outside a transaction only: inside one, a change may yet be
 * rolled back). As a last guard, the index's note and token totals are compared with FTS5's own
 * (its averages record): if they ever differ, keyword search ranks with FTS5's bm25() instead and
 * Settings → Search says why.
 */

const COLUMNS_SQL = `SELECT rid, category, status, updated_at AS updatedAt, id || ' ' || title AS t,
  (SELECT group_concat(key || ' ' || value, ' ') FROM json_each(header)) AS h, coalesce(body, '') AS b
  FROM memory_records`;

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
  building: Promise<void> | null;
  /** Why the index is not used, or null. */
  problem: string | null;
}

const states = new WeakMap<Db, State>();

function stateFor(db: Db): State {
  let s = states.get(db);
  if (!s) {
    s = { index: null, seq: 0, building: null, problem: null };
    states.set(db, s);
  }
  return s;
}

const lastSeq = (db: Db) => (db.prepare('SELECT coalesce(max(seq), 0) AS s FROM memory_changes').get() as { s: number }).s;

/** Builds the whole index now (a command-line search or a small memory). */
export function buildKeywordIndex(db: Db): KeywordIndex {
  const s = stateFor(db);
  const seq = lastSeq(db);
  const index = new KeywordIndex();
  for (const r of db.prepare(`${COLUMNS_SQL} ORDER BY rid`).iterate() as IterableIterator<Row>) index.put(docOf(r));
  s.index = index;
  s.seq = seq;
  s.problem = null;
  return index;
}

/**
 * Builds the index in steps that yield to the event loop (the app at start, or after falling far
 * behind), while searches rank with FTS5's bm25() meanwhile. Changes committed during the build are
 * applied at the end from the log (re-applying one the build already read is harmless).
 */
export function buildKeywordIndexInBackground(db: Db, pause: () => Promise<void> = () => new Promise((r) => setImmediate(r).unref())): Promise<void> {
  const s = stateFor(db);
  if (s.building) return s.building;
  s.building = (async () => {
    try {
      const seq = lastSeq(db);
      const index = new KeywordIndex();
      const page = db.prepare(`${COLUMNS_SQL} WHERE rid > ? ORDER BY rid LIMIT ?`);
      let after = 0;
      for (;;) {
        if (!db.open) return;
        const rows = page.all(after, STEP_ROWS) as Row[];
        for (const r of rows) index.put(docOf(r));
        if (rows.length < STEP_ROWS) break;
        after = rows[rows.length - 1].rid;
        await pause();
      }
      if (!db.open) return;
      s.index = index;
      s.seq = seq;
      s.problem = null;
    } finally {
      s.building = null;
    }
  })();
  return s.building;
}

/**
 * The index, current with every committed write, or null when a search must rank with FTS5 instead
 * (not built yet, being rebuilt, inside an open transaction, or disagreeing with FTS5).
 */
export function currentKeywordIndex(db: Db): KeywordIndex | null {
  const s = stateFor(db);
  if (!s.index) {
    if (s.building) return null;
    const rows = (db.prepare('SELECT count(*) AS n FROM memory_records').get() as { n: number }).n;
    if (rows > BUILD_ON_FIRST_SEARCH) {
      void buildKeywordIndexInBackground(db).catch(() => {});
      return null;
    }
    buildKeywordIndex(db);
  }
  if (db.inTransaction) return null;
  if (!catchUp(db, s)) return null;
  return agreesWithFts(db, s) ? s.index : null;
}

/** Applies the committed changes since the index's last one; false when too far behind (a rebuild starts). */
function catchUp(db: Db, s: State): boolean {
  const index = s.index!;
  const changes = db.prepare('SELECT seq, rid FROM memory_changes WHERE seq > ? ORDER BY seq LIMIT ?').all(s.seq, MAX_CATCH_UP + 1) as {
    seq: number;
    rid: number;
  }[];
  if (!changes.length) return true;
  // The log keeps the newest changes only: a gap before the first one means some were trimmed unseen.
  if (changes.length > MAX_CATCH_UP || changes[0].seq > s.seq + 1) {
    s.index = null;
    void buildKeywordIndexInBackground(db).catch(() => {});
    return false;
  }
  const read = db.prepare(`${COLUMNS_SQL} WHERE rid = ?`);
  for (const rid of new Set(changes.map((c) => c.rid))) {
    const row = read.get(rid) as Row | undefined;
    if (row) index.put(docOf(row));
    else index.delete(rid);
  }
  s.seq = changes[changes.length - 1].seq;
  return true;
}

/** FTS5's averages record (id 1 of its data table): row count, then each column's token total, as varints. */
function agreesWithFts(db: Db, s: State): boolean {
  const row = db.prepare('SELECT block FROM memory_fts_data WHERE id = 1').get() as { block: Buffer } | undefined;
  const want = row ? readVarints(row.block, 4) : [0, 0, 0, 0];
  const index = s.index!;
  const have = [index.rows, ...index.columnTotals];
  if (want.every((v, i) => v === have[i])) {
    s.problem = null;
    return true;
  }
  s.problem = `the in-memory index holds ${have[0]} notes / ${have.slice(1).join('+')} tokens where FTS5 holds ${want[0]} / ${want.slice(1).join('+')}`;
  return false;
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
  if (s.problem) return `SQLite's built-in bm25() (the same results, slower): ${s.problem}`;
  if (s.index) return `exact BM25, in memory (${s.index.rows.toLocaleString('en-US')} notes)`;
  if (s.building) return "exact BM25, in memory (being built; SQLite's bm25() meanwhile)";
  return 'exact BM25, in memory (built at the first search)';
}
