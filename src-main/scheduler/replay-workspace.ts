import { cpSync, existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ForgeFS, memoryAsOf } from '../fs';
import { Store } from '../store';

/** A scratch copy of the workspace as it stood at an instant: what a replay reads and writes. */
export interface ReplayWorkspace {
  fs: ForgeFS;
  /** Records that existed then but could not be shown as they were (see memoryAsOf). */
  leftOut: { path: string; why: string }[];
  /** How many records the replay sees, and how many of them are earlier versions than today's. */
  counts: { records: number; earlierVersions: number };
  close(): void;
}

/**
 * Copies the live database into a temporary folder (VACUUM INTO reads one snapshot and writes
 * nothing to the live file), then rolls the copy's memory back to `cutoff`: every record at its
 * version of then, nothing created later, no archive entry or morning report from after it.
 * The replay's analyst writes only here, and the folder is removed on close — so a replay can never
 * write live memory, whatever its model does.
 */
export function openReplayWorkspace(live: ForgeFS, cutoff: string, options: { nativeBinding?: string } = {}): ReplayWorkspace {
  const dir = mkdtempSync(join(tmpdir(), 'forge-replay-'));
  let store: Store | null = null;
  try {
    const file = join(dir, 'forge.db');
    live.store.db.prepare('VACUUM INTO ?').run(file);
    store = Store.open(file, { nativeBinding: options.nativeBinding });
    const asOf = memoryAsOf(store, cutoff);
    const s = store;
    s.writeTransaction(() => {
      // The FTS triggers follow these deletes and inserts, so keyword search sees the old text too.
      s.db.prepare('DELETE FROM memory_records').run();
      for (const r of asOf.records) s.records.upsert(r.row, { previous: undefined });
      s.db.prepare('DELETE FROM memory_archive WHERE archived_at > ?').run(cutoff);
      // The audit log stays as copied: it is append-only (a trigger refuses deletes) and no tool reads it.
      if (hasTable(s, 'review_reports')) s.db.prepare('DELETE FROM review_reports WHERE at > ?').run(cutoff);
    });
    // The skills as they are now (skills keep no dated versions); a copy, so a write lands in scratch.
    const skillsDir = join(dir, 'skills');
    if (existsSync(live.skills.root)) cpSync(live.skills.root, skillsDir, { recursive: true });
    const fs = new ForgeFS({ store, skillsDir, now: () => cutoff });
    return {
      fs,
      leftOut: asOf.leftOut,
      counts: { records: asOf.records.length, earlierVersions: asOf.records.filter((r) => r.from === 'archived').length },
      close: () => {
        s.close();
        rmSync(dir, { recursive: true, force: true });
      },
    };
  } catch (e) {
    store?.close();
    rmSync(dir, { recursive: true, force: true });
    throw e;
  }
}

function hasTable(store: Store, name: string): boolean {
  return !!store.db.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?").get(name);
}
