import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Store } from '../../store';
import { skipWithoutPostgres } from '../../store/postgres/test-server';
import { type PostgresWorkspaces, startPostgresWorkspaces } from '../../store/postgres/test-workspaces';
import { plainRecord } from '../../store/testing';
import { currentKeywordIndex, keywordRankingStatus, queryTerms } from '.';

/**
 * The keyword index on a desk's PostgreSQL, where it is the only ranking: kept current from the
 * desk's change log, also across a rolled-back write (whose change number PostgreSQL gives away)
 * and inside an open transaction — a search there must never fall back to FTS5, which a desk has not.
 */
describe.skipIf(skipWithoutPostgres())("keyword index on a desk's PostgreSQL", { timeout: 120_000 }, () => {
  let workspaces: PostgresWorkspaces;
  let store: Store;
  let n = 0;
  const note = (title: string, body: string) =>
    store.records.upsert(plainRecord({ category: 'observations', id: `N-${++n}`, title, status: 'active', body, header: '{"status":"active"}' }));
  const titles = (words: string[]) => {
    const current = currentKeywordIndex(store.db);
    expect(current, keywordRankingStatus(store.db)).not.toBeNull();
    const hits = current!.index.search(queryTerms(words), 10, [3, 1, 1], null, current!);
    const rows = store.db.prepare('SELECT rid, title FROM memory_records').all() as { rid: number; title: string }[];
    return hits.map((h) => rows.find((r) => Number(r.rid) === h.rid)?.title);
  };

  beforeAll(async () => {
    workspaces = await startPostgresWorkspaces();
  }, 120_000);
  afterAll(async () => {
    await workspaces?.stop();
  });
  beforeEach(() => {
    store = workspaces.freshStore();
  });
  afterEach(() => store.close());

  it('takes its totals from the live notes (no FTS5 totals on a desk) and follows writes and deletes', () => {
    note('Copper rally', 'LME stocks fall.');
    note('Oil glut', 'Brent curve in contango.');
    const first = currentKeywordIndex(store.db)!;
    expect({ rows: first.rows, tokens: first.tokens }).toEqual({ rows: 2, tokens: first.index.tokens });
    expect(first.tokens).toBeGreaterThan(10);
    note('Copper miners', 'Strikes in Chile.');
    expect(titles(['copper'])).toEqual(['Copper rally', 'Copper miners']);
    store.db.prepare("DELETE FROM memory_records WHERE title = 'Copper rally'").run();
    expect(titles(['copper'])).toEqual(['Copper miners']);
    expect(currentKeywordIndex(store.db)!.rows).toBe(2);
  });

  it('a rolled-back write leaves a gap in the change numbers, and the next write still reaches the index without a rebuild', () => {
    note('Gilts', 'Supply heavy.');
    const before = currentKeywordIndex(store.db)!.index;
    expect(() =>
      store.db.transaction(() => {
        note('Bunds', 'Never saved.');
        throw new Error('rolled back');
      })(),
    ).toThrow('rolled back');
    note('Bunds', 'Saved this time.');
    expect(titles(['bunds'])).toEqual(['Bunds']);
    // The same index, caught up: a desk of many notes would otherwise rebuild after every rollback.
    expect(currentKeywordIndex(store.db)!.index).toBe(before);
  });

  it('inside an open transaction, a search is answered by the index as of the last commit (no FTS5 to fall back to)', () => {
    note('Yen carry', 'Crowded.');
    titles(['yen']);
    store.db.transaction(() => {
      note('Yen intervention', 'MoF sells dollars.');
      expect(titles(['yen'])).toEqual(['Yen carry']);
    })();
    expect(titles(['yen'])).toEqual(['Yen carry', 'Yen intervention']);
  });
});
