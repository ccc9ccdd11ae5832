import { createHash } from 'node:crypto';
import type { Db } from '../store/open';

/**
 * A vendor's successful answers kept in the workspace database (table `provider_cache`, migration
 * 006) so a repeated request inside its time-to-live does not spend the vendor's rate limit again.
 * Callers store only successes: `through()` writes after the loader resolves and never on a throw.
 */
export class ResponseCache {
  constructor(
    private readonly db: Db,
    private readonly now: () => Date = () => new Date(),
  ) {}

  /** The stored value, or null when absent or expired (an expired entry is deleted). */
  get(key: string): string | null {
    const row = this.db.prepare('SELECT value, expires_at FROM provider_cache WHERE key = ?').get(key) as { value: string; expires_at: string } | undefined;
    if (!row) return null;
    if (row.expires_at <= this.now().toISOString()) {
      this.db.prepare('DELETE FROM provider_cache WHERE key = ?').run(key);
      return null;
    }
    return row.value;
  }

  /** Stores (or replaces) a value for ttlMs, and prunes entries that have expired. */
  put(key: string, value: string, ttlMs: number): void {
    if (!(ttlMs > 0)) return;
    const now = this.now();
    const at = now.toISOString();
    const expires = new Date(now.getTime() + ttlMs).toISOString();
    this.db.transaction(() => {
      this.db.prepare('DELETE FROM provider_cache WHERE expires_at <= ?').run(at);
      this.db
        .prepare(
          `INSERT INTO provider_cache (key, value, stored_at, expires_at) VALUES (?, ?, ?, ?)
           ON CONFLICT (key) DO UPDATE SET value = excluded.value, stored_at = excluded.stored_at, expires_at = excluded.expires_at`,
        )
        .run(key, value, at, expires);
    })();
  }

  /**
   * The cached value, else `load()`'s result stored for ttlMs. A load that throws stores nothing
   * and its error reaches the caller unchanged. `ttlMs` may depend on the value (e.g. a past vintage
   * keeps longer).
   */
  async through(key: string, ttlMs: number | ((value: string) => number), load: () => Promise<string>): Promise<{ value: string; cached: boolean }> {
    const hit = this.get(key);
    if (hit !== null) return { value: hit, cached: true };
    const value = await load();
    this.put(key, value, typeof ttlMs === 'function' ? ttlMs(value) : ttlMs);
    return { value, cached: false };
  }
}

/**
 * A cache key for a request: the provider's name and a SHA-256 of the parts (URL without the API
 * key, parameters), so no secret is ever written to the database and keys stay short.
 */
export function cacheKey(provider: string, ...parts: unknown[]): string {
  return `${provider}:${createHash('sha256').update(JSON.stringify(parts)).digest('hex')}`;
}
