import { readFile } from 'node:fs/promises';
import { promisify } from 'node:util';
import { brotliCompress, constants, gzip } from 'node:zlib';

export type Encoding = 'br' | 'gzip' | 'identity';

const brotli = promisify(brotliCompress);
const gzipAsync = promisify(gzip);

/**
 * Compressed on first request, not at build time: the build stays as electron-vite makes it, and a
 * rebuilt file (new mtime) is compressed afresh. Brotli quality 5 compresses Monaco's 3 MB chunk in
 * ~0.2 s to within 15% of quality 11, which takes ~7 s — too long for the first page load to wait.
 */
const BROTLI_QUALITY = 5;
const GZIP_LEVEL = 6;
/** Bigger files are streamed as they are rather than held in memory. */
const MAX_COMPRESS_BYTES = 16 * 1024 * 1024;

/**
 * The encoding to send for an Accept-Encoding header: brotli when accepted, else gzip, else none.
 * q-values are honoured (`br;q=0` refuses brotli); on equal weight brotli wins, being smaller.
 */
export function chooseEncoding(header: string | string[] | undefined): Encoding {
  const text = Array.isArray(header) ? header.join(',') : (header ?? '');
  const weights = new Map<string, number>();
  for (const part of text.split(',')) {
    const [name, ...params] = part.trim().toLowerCase().split(';');
    if (!name) continue;
    const q = params.map((p) => /^\s*q=([0-9.]+)\s*$/.exec(p)).find((m) => m);
    const weight = q ? Number(q[1]) : 1;
    weights.set(name, Number.isFinite(weight) ? weight : 0);
  }
  const star = weights.get('*') ?? 0;
  const br = weights.get('br') ?? star;
  const gz = weights.get('gzip') ?? weights.get('x-gzip') ?? star;
  if (br > 0 && br >= gz) return 'br';
  if (gz > 0) return 'gzip';
  return 'identity';
}

interface Entry {
  /** mtime and size of the file this copy was made from: a rebuilt file never gets a stale body. */
  version: string;
  body: Promise<Buffer | null>;
  bytes: number;
}

/**
 * Compressed copies of the renderer's files, in memory, keyed by path + encoding and checked
 * against the file's mtime and size. One per host (no module-level state); bounded in bytes.
 */
export class CompressedFiles {
  private readonly entries = new Map<string, Entry>();
  private total = 0;

  constructor(private readonly maxBytes = 64 * 1024 * 1024) {}

  /** The compressed body, or null when compressing would not make it smaller (serve it as is). */
  get(file: string, stat: { mtimeMs: number; size: number }, encoding: Exclude<Encoding, 'identity'>): Promise<Buffer | null> {
    if (stat.size > MAX_COMPRESS_BYTES) return Promise.resolve(null);
    const key = `${encoding}:${file}`;
    const version = `${stat.mtimeMs}:${stat.size}`;
    const hit = this.entries.get(key);
    if (hit && hit.version === version) return hit.body;
    if (hit) this.drop(key, hit);
    const entry: Entry = { version, bytes: 0, body: this.compress(file, stat.size, encoding) };
    this.entries.set(key, entry);
    entry.body.then(
      (body) => {
        if (this.entries.get(key) !== entry) return;
        entry.bytes = body?.length ?? 0;
        this.total += entry.bytes;
        this.evict();
      },
      () => this.drop(key, entry),
    );
    return entry.body;
  }

  /** Bytes held, for tests and diagnostics. */
  get size(): number {
    return this.total;
  }

  private async compress(file: string, size: number, encoding: 'br' | 'gzip'): Promise<Buffer | null> {
    const raw = await readFile(file);
    const out =
      encoding === 'br'
        ? await brotli(raw, {
            params: {
              [constants.BROTLI_PARAM_QUALITY]: BROTLI_QUALITY,
              [constants.BROTLI_PARAM_SIZE_HINT]: size,
            },
          })
        : await gzipAsync(raw, { level: GZIP_LEVEL });
    return out.length < raw.length ? out : null;
  }

  private drop(key: string, entry: Entry): void {
    if (this.entries.get(key) === entry) this.entries.delete(key);
    this.total -= entry.bytes;
    entry.bytes = 0;
  }

  /** Oldest first (Map keeps insertion order); a served body stays valid for its response. */
  private evict(): void {
    for (const [key, entry] of this.entries) {
      if (this.total <= this.maxBytes) return;
      this.drop(key, entry);
    }
  }
}
