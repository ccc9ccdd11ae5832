import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { packageRoot } from '../common/package-root';
import type { Db } from './open';

/**
 * Forge's FTS5 ranking function, `forge_bm25` (native/forge_bm25.c, built at install by
 * scripts/build-native.mjs): FTS5's BM25 with the per-word IDFs passed in, because FTS5's bm25()
 * recounts every query word's notes on each query. Optional by design: where no C compiler was
 * available at install the library is absent and keyword search ranks with bm25(), the same order.
 */

const FILE = `forge_bm25.${{ darwin: 'dylib', win32: 'dll' }[process.platform as string] ?? 'so'}`;

const loaded = new WeakSet<Db>();
let lastProblem: string | null = null;

/** Where the built library lives; inside a packaged app, the copy unpacked beside app.asar. */
export function rankExtensionPath(): string {
  return join(packageRoot(), 'native', 'build', FILE).replace(/app\.asar([\\/])/, 'app.asar.unpacked$1');
}

/** Loads `forge_bm25` into this connection when the library was built; false (and why) otherwise. */
export function loadRankExtension(db: Db): boolean {
  const path = rankExtensionPath();
  if (!existsSync(path)) {
    lastProblem = `not built (${path} is missing; run \`node scripts/build-native.mjs\` with a C compiler installed)`;
    return false;
  }
  try {
    // SQLite derives the entry point from the file name's letters: sqlite3_forgebm_init.
    db.loadExtension(path);
    loaded.add(db);
    return true;
  } catch (e) {
    // A library for another platform or a damaged file: search still works with bm25().
    lastProblem = `could not be loaded: ${(e as Error).message}`;
    return false;
  }
}

/** Whether keyword search on this connection can rank with `forge_bm25`. */
export function hasRankExtension(db: Db): boolean {
  return loaded.has(db);
}

/** Why the last connection opened without it (diagnostics, the bench), or null. */
export function rankExtensionProblem(): string | null {
  return lastProblem;
}
