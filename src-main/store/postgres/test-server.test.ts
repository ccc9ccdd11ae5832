import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterEach, describe, expect, it } from 'vitest';
import { REQUIRE_ENV, skipWithoutPostgres, startTestPostgres } from './test-server';

describe.skipIf(skipWithoutPostgres())('a real PostgreSQL for the tests', { timeout: 120_000 }, () => {
  // If this failed, every PostgreSQL test would be testing nothing (or a server open to the network).
  it('starts on 127.0.0.1 at a free port, answers queries, and is gone with its folder after stop', async () => {
    const server = await startTestPostgres();
    const client = new pg.Client({ connectionString: server.url });
    let stopped = false;
    try {
      await client.connect();
      const { rows } = await client.query<{ v: string; listen: string; fsync: string }>(
        "SELECT current_setting('server_version_num') AS v, current_setting('listen_addresses') AS listen, current_setting('fsync') AS fsync",
      );
      expect(Number(rows[0]?.v)).toBeGreaterThanOrEqual(150000);
      expect(rows[0]?.listen).toBe('127.0.0.1');
      expect(rows[0]?.fsync).toBe('off');
      await client.end();
      await server.stop();
      stopped = true;
      const after = new pg.Client({ connectionString: server.url, connectionTimeoutMillis: 5000 });
      await expect(after.connect()).rejects.toThrow(/ECONNREFUSED/);
    } finally {
      if (!stopped) {
        await client.end().catch(() => undefined);
        await server.stop();
      }
    }
  });
});

describe('without PostgreSQL installed', () => {
  const saved = process.env[REQUIRE_ENV];
  afterEach(() => {
    if (saved === undefined) delete process.env[REQUIRE_ENV];
    else process.env[REQUIRE_ENV] = saved;
  });

  // If this failed, a CI machine without PostgreSQL would skip the desk's tests and still report green.
  it('skips the suites on a developer machine, but CI (FORGE_REQUIRE_POSTGRES=1) runs them and they fail with the reason', async () => {
    const empty = mkdtempSync(join(tmpdir(), 'forge-no-pg-'));
    try {
      delete process.env[REQUIRE_ENV];
      expect(skipWithoutPostgres(empty)).toBe(true);
      process.env[REQUIRE_ENV] = '1';
      expect(skipWithoutPostgres(empty)).toBe(false);
      await expect(startTestPostgres({ root: empty })).rejects.toThrow(/No PostgreSQL server to test against.*apt-get install -y postgresql/);
    } finally {
      rmSync(empty, { recursive: true, force: true });
    }
  });
});
