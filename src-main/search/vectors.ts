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

/**
 * Rescoring vectors are stored as int8 with one float32 scale (4 + dims bytes): a quarter of float32's
 * size, and cosine error around 1e-3, far below the gaps that decide a top-10.
 */
export function encodeVector(v: Float32Array): Buffer {
  let max = 0;
  for (let i = 0; i < v.length; i++) max = Math.max(max, Math.abs(v[i]));
  const scale = max > 0 ? max / 127 : 1;
  const out = Buffer.alloc(4 + v.length);
  out.writeFloatLE(scale, 0);
  for (let i = 0; i < v.length; i++) out.writeInt8(Math.round(v[i] / scale), 4 + i);
  return out;
}

export function decodeVector(b: Buffer): Float32Array {
  const scale = b.readFloatLE(0);
  const q = new Int8Array(b.buffer, b.byteOffset + 4, b.byteLength - 4);
  const out = new Float32Array(q.length);
  for (let i = 0; i < q.length; i++) out[i] = q[i] * scale;
  return out;
}

/** Dot product of a float query with a stored vector, without decoding it. */
export function dotStored(query: Float32Array, b: Buffer): number {
  const q = new Int8Array(b.buffer, b.byteOffset + 4, b.byteLength - 4);
  let s = 0;
  for (let i = 0; i < q.length; i++) s += query[i] * q[i];
  return s * b.readFloatLE(0);
}
