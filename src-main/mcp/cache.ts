import { statSync } from 'node:fs';

/**
 * A process-local TTL cache (the spec's 300 s) for contract reads. Beyond the spec, an entry may
 * name the files it was read from: a change of their mtime or size drops the entry on a read at
 * most 250 ms later (a safety net under fs.watch, which can miss events on network drives; the
 * stat is rate-limited so a cached read costs no syscall), and stale entries are evicted rather
 * than left to linger. Imports no other MCP module.
 */

export interface FileStamp {
  path: string;
  mtimeMs: number;
  size: number;
}

interface Entry {
  expiresAt: number;
  value: unknown;
  files?: FileStamp[];
  /** When the files were last compared with the disk. */
  checkedAt: number;
}

/** The mtime safety net runs at most this often per entry; fs.watch covers the time between. */
const RECHECK_MS = 250;

export interface CacheStats {
  size: number;
  hits: number;
  misses: number;
  evictions: number;
}

export function stampFile(path: string): FileStamp | undefined {
  try {
    const s = statSync(path);
    return { path, mtimeMs: s.mtimeMs, size: s.size };
  } catch {
    return undefined;
  }
}

function unchanged(stamp: FileStamp): boolean {
  const now = stampFile(stamp.path);
  return now !== undefined && now.mtimeMs === stamp.mtimeMs && now.size === stamp.size;
}

export class TtlCache {
  private readonly entries = new Map<string, Entry>();
  private readonly ttlMs: number;
  private readonly now: () => number;
  private hits = 0;
  private misses = 0;
  private evictions = 0;
  private lastSweep = 0;

  constructor(options: { ttlSeconds: number; now?: () => number }) {
    this.ttlMs = options.ttlSeconds * 1000;
    this.now = options.now ?? Date.now;
  }

  get<T>(key: string): T | undefined {
    const t = this.now();
    this.sweep(t);
    const e = this.entries.get(key);
    if (!e) {
      this.misses++;
      return undefined;
    }
    const recheck = e.files !== undefined && t - e.checkedAt >= RECHECK_MS;
    if (recheck) e.checkedAt = t;
    if (e.expiresAt <= t || (recheck && !e.files!.every(unchanged))) {
      this.entries.delete(key);
      this.evictions++;
      this.misses++;
      return undefined;
    }
    this.hits++;
    return e.value as T;
  }

  set(key: string, value: unknown, files?: FileStamp[]): void {
    const t = this.now();
    this.entries.set(key, { expiresAt: t + this.ttlMs, value, checkedAt: t, ...(files ? { files } : {}) });
  }

  /** Read through: compute on a miss. The files are stamped before reading, so a write during the read invalidates. */
  async getOrLoad<T>(key: string, load: () => Promise<T> | T, files?: string[]): Promise<T> {
    const hit = this.get<T>(key);
    if (hit !== undefined) return hit;
    const stamps = files?.map((f) => stampFile(f) ?? { path: f, mtimeMs: -1, size: -1 });
    const value = await load();
    this.set(key, value, stamps);
    return value;
  }

  /** Drop every entry whose key starts with one of the prefixes (or every entry that depends on `file`). */
  invalidate(match: { prefixes?: string[]; file?: string }): number {
    let n = 0;
    for (const [k, e] of this.entries) {
      const byPrefix = match.prefixes?.some((p) => k.startsWith(p));
      const byFile = match.file !== undefined && e.files?.some((f) => f.path === match.file);
      if (byPrefix || byFile) {
        this.entries.delete(k);
        n++;
      }
    }
    this.evictions += n;
    return n;
  }

  /** The spec's cache_clear(): resets the whole store. */
  clear(): number {
    const n = this.entries.size;
    this.entries.clear();
    return n;
  }

  stats(): CacheStats {
    return { size: this.entries.size, hits: this.hits, misses: this.misses, evictions: this.evictions };
  }

  /** Expired entries are removed at most once per TTL/10, so the map never grows with dead keys. */
  private sweep(t: number): void {
    if (t - this.lastSweep < this.ttlMs / 10) return;
    this.lastSweep = t;
    for (const [k, e] of this.entries) {
      if (e.expiresAt <= t) {
        this.entries.delete(k);
        this.evictions++;
      }
    }
  }
}
