import type { Db } from '../store';

/**
 * Before migration 014 the candidate codes also lived in a sqlite-vec `vec0` table (`search_vec`).
 * Writing it was most of a rebuild's time (a delete and an insert per note, each several shadow-table
 * writes) for a path the block scan beats at every k, so it is dropped once, on open.
 */
export const LEGACY_VEC_TABLE = 'search_vec';

export function dropLegacyVectorTable(db: Db): void {
  if (!db.prepare('SELECT 1 FROM sqlite_master WHERE name = ?').get(LEGACY_VEC_TABLE)) return;
  try {
    db.exec(`DROP TABLE ${LEGACY_VEC_TABLE}`);
  } catch {
    // sqlite-vec not loaded in this process (a maintenance tool): the next app start drops it.
  }
}

export const dayNumber = (iso: string | number | Date) => Math.floor(new Date(iso).getTime() / 86_400_000);

export const asBlob = (a: Float32Array | Uint8Array) => Buffer.from(a.buffer, a.byteOffset, a.byteLength);
