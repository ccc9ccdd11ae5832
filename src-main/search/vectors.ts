// The pre-014 sqlite-vec table (`search_vec`) is removed when the database opens, without the
// extension (src-main/store/open.ts dropLegacyVecTable).

export const dayNumber = (iso: string | number | Date) => Math.floor(new Date(iso).getTime() / 86_400_000);

export const asBlob = (a: Float32Array | Uint8Array) => Buffer.from(a.buffer, a.byteOffset, a.byteLength);
