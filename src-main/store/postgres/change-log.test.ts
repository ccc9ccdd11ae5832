import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PostgresConnection } from './connection';
import { skipWithoutPostgres } from './test-server';
import { type PostgresWorkspaces, startPostgresWorkspaces } from './test-workspaces';

describe.skipIf(skipWithoutPostgres())("a desk's memory change log (what every server's keyword index follows)", { timeout: 300_000 }, () => {
  let workspaces: PostgresWorkspaces;
  beforeAll(async () => {
    workspaces = await startPostgresWorkspaces();
  }, 120_000);
  afterAll(async () => {
    await workspaces?.stop();
  });

  it('keeps the last 100,000 changes, also through a bulk load of more in one transaction (which an unbounded trim made quadratic)', () => {
    const c = PostgresConnection.open(workspaces.freshUrl(), { statementTimeoutMs: 280_000, answerTimeoutMs: 290_000 });
    try {
      c.run(
        `INSERT INTO memory_records (category, id, title, meta, created_at, updated_at, header, body, content_hash)
         SELECT 'observations', 'O-' || g, 'note ' || g, '', '2026-01-01', '2026-01-01', '{}', 'body', 'h' || g FROM generate_series(1, 100150) AS g`,
      );
      const log = c.one<{ n: number; lo: number; hi: number }>('SELECT count(*)::int AS n, min(seq)::int AS lo, max(seq)::int AS hi FROM memory_changes');
      expect(log).toEqual({ n: 100_000, lo: 151, hi: 100_150 });
    } finally {
      c.close();
    }
  });
});
