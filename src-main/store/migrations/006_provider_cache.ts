import type { Migration } from './types';

/**
 * Data providers' response cache (src-main/providers/cache.ts): a vendor's answer kept for a
 * while so a session that asks for the same series twice, or a re-run, does not spend the vendor's
 * rate limit again. Keys are hashes of the request (never the API key); only successes are stored.
 */
export const providerCache: Migration = {
  version: 6,
  name: '006_provider_cache',
  up(db) {
    db.exec(`
      CREATE TABLE provider_cache (
        key        TEXT PRIMARY KEY,
        value      TEXT NOT NULL,
        stored_at  TEXT NOT NULL,
        expires_at TEXT NOT NULL
      ) STRICT;
      CREATE INDEX provider_cache_by_expiry ON provider_cache (expires_at);
    `);
  },
};
