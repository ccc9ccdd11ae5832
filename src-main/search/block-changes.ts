import { type Db, engineOf } from '../store';
import { SEARCH_BLOCK_CHANGES_KEPT } from '../store/postgres/schema';

/**
 * How a BlockIndex learns what other connections committed to the vector tables since its copy was
 * read. On a desk: from the desk's log of changed blocks (search_block_changes, fed by triggers on
 * search_blocks and search_slot_patches: store/postgres/schema.ts), so another server's commit
 * costs the blocks (or single patches) it changed. Its seq order is commit order: every write to
 * those tables runs under the desk's workspace write lock. Elsewhere — SQLite (one PM, other
 * connections are rare), or a desk made before the log — `PRAGMA data_version`: any change means
 * read everything. (On a desk data_version moves with every commit of anything, an audit row or a
 * session, which would have every server re-read every block before most searches.)
 */
export class BlockChangeLog {
  private exists: boolean | undefined;
  /** Log: the newest change caught up with. data_version: the version the copy was read at. */
  private seen = -1;

  constructor(private readonly db: Db) {}

  /** Whether this is a desk whose schema has the log (asked once: a desk's schema does not change under a running server). */
  private present(): boolean {
    if (this.exists === undefined) {
      this.exists =
        engineOf(this.db) === 'postgres' && Boolean(this.db.prepare("SELECT to_regclass('search_block_changes') IS NOT NULL AS present").pluck().get());
    }
    return this.exists;
  }

  /** Notes where a full read starts: taken before any block is read, so a commit during the read is caught up afterwards, never missed. */
  mark(): void {
    this.seen = this.present()
      ? Number(this.db.prepare('SELECT coalesce(max(seq), 0) AS seq FROM search_block_changes').pluck().get())
      : (this.db.pragma('data_version', { simple: true }) as number);
  }

  /** Whether only a full read catches up (without the log: anything changed); with the log, `catchUp` is always cheaper. */
  mustReadAll(): boolean {
    return !this.present() && this.db.pragma('data_version', { simple: true }) !== this.seen;
  }

  /**
   * Adds what changed since the mark (or the last catch-up) to `blocks` and `slots` (a changed
   * patch: its one row), in one small query. False: read everything — without the log when anything
   * changed, with it when this copy is so far behind that the log's trim (it keeps
   * SEARCH_BLOCK_CHANGES_KEPT) may have removed changes it had not seen.
   */
  catchUp(blocks: Set<number>, slots: Set<number>): boolean {
    if (!this.present()) return !this.mustReadAll();
    const rows = this.db.prepare('SELECT block, slot, max(seq) AS seq FROM search_block_changes WHERE seq > ? GROUP BY block, slot').all(this.seen) as {
      block: number | string;
      slot: number | string | null;
      seq: number | string;
    }[];
    let newest = this.seen;
    for (const r of rows) newest = Math.max(newest, Number(r.seq));
    if (newest - this.seen >= SEARCH_BLOCK_CHANGES_KEPT) return false;
    for (const r of rows) {
      if (r.slot === null) blocks.add(Number(r.block));
      else slots.add(Number(r.slot));
    }
    this.seen = newest;
    return true;
  }
}
