import type { Db } from '../store';

/**
 * The sqlite-vec side of the index: one `vec0` table of binary codes (`bit[n]`, SimHash of the
 * embedding), partitioned by memory category with status and update day as metadata columns, so a
 * scope and the common filters narrow a KNN inside sqlite-vec. Float vectors for rescoring live in
 * `search_entries`.
 */
export const VEC_TABLE = 'search_vec';

export function vectorTableDims(db: Db): number | null {
  const row = db.prepare(`SELECT sql FROM sqlite_master WHERE name = ?`).get(VEC_TABLE) as { sql: string } | undefined;
  const m = row && /bit\[(\d+)\]/.exec(row.sql);
  return m ? Number(m[1]) : null;
}

/** Creates the vec0 table for `bits`-wide codes, replacing one of another width (its rows are then stale). */
export function ensureVectorTable(db: Db, bits: number): boolean {
  const have = vectorTableDims(db);
  if (have === bits) return false;
  if (have !== null) db.exec(`DROP TABLE ${VEC_TABLE}`);
  db.exec(`CREATE VIRTUAL TABLE ${VEC_TABLE} USING vec0(
    category text partition key,
    status text,
    updated_day integer,
    embedding bit[${bits}]
  )`);
  return true;
}

export const dayNumber = (iso: string | number | Date) => Math.floor(new Date(iso).getTime() / 86_400_000);

export const asBlob = (a: Float32Array | Uint8Array) => Buffer.from(a.buffer, a.byteOffset, a.byteLength);

export function fromBlob(b: Buffer): Float32Array {
  // Copy: the Buffer may not be 4-byte aligned.
  const out = new Float32Array(b.byteLength / 4);
  new Uint8Array(out.buffer).set(b);
  return out;
}
