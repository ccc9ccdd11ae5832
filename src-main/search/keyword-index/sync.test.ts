import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { Store } from '../../store';
import { plainRecord } from '../../store/testing';
import { buildKeywordIndex, buildKeywordIndexInBackground, currentKeywordIndex, keywordRankingStatus, queryTerms } from '.';

let dir: string;
let store: Store;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'forge-kwindex-'));
  store = Store.open(join(dir, 'forge.db'));
});
afterEach(() => {
  store.close();
  rmSync(dir, { recursive: true, force: true });
});

let n = 0;
function note(s: Store, title: string, body: string, opts: { id?: string; category?: string; status?: string; header?: object } = {}): string {
  const id = opts.id ?? `N-${String(++n).padStart(5, '0')}`;
  const status = opts.status ?? 'active';
  s.records.upsert(plainRecord({ category: opts.category ?? 'observations', id, title, status, body, header: JSON.stringify(opts.header ?? { status }) }));
  return id;
}

/** FTS5's bm25() straight from SQL over the same words: what the index must equal. */
function reference(s: Store, words: string[], limit = 20): { rid: number; score: number }[] {
  return s.db
    .prepare(
      'SELECT rowid AS rid, -bm25(memory_fts, 3, 1, 1) AS score FROM memory_fts WHERE memory_fts MATCH ? ORDER BY bm25(memory_fts, 3, 1, 1), rowid LIMIT ?',
    )
    .all(words.map((w) => `"${w}"`).join(' OR '), limit) as { rid: number; score: number }[];
}

function fromIndex(s: Store, words: string[], limit = 20) {
  const current = currentKeywordIndex(s.db);
  expect(current, keywordRankingStatus(s.db)).not.toBeNull();
  return current!.index.search(queryTerms(words), limit, [3, 1, 1], null, current!);
}

function expectSame(a: { rid: number; score: number }[], b: { rid: number; score: number }[]) {
  expect(a.map((h) => h.rid)).toEqual(b.map((h) => h.rid));
  for (const [i, h] of a.entries()) expect(Math.abs(h.score - b[i].score)).toBeLessThan(1e-9);
}

describe('the in-memory keyword index against FTS5', () => {
  it('ranks notes in other scripts, with accents, stems and JSON headers exactly as FTS5 does', () => {
    note(store, 'Café au lait', 'Le marché est naïvement optimiste; rallied rallies rallying.', {
      header: { status: 'active', tags: ['EUR', 'ECB'], confidence: 0.7 },
    });
    note(store, 'Über-Positionierung', 'Die Märkte sind überkauft; Schatz rally.', { header: { status: 'draft', nested: { a: 1 } } });
    note(store, '日本銀行 yen', 'BoJ intervention 円安 — yen weaker; Ålesund ﬁnancing ﬂows.');
    note(store, 'Empty body', '');
    note(store, 'Ünïcödé ᾅ', 'Combining: cafe\u0301 and e\u0301te\u0301; emoji 📈 rates 2.5% USD/JPY');
    buildKeywordIndex(store.db);
    for (const words of [
      ['cafe'],
      ['rallies', 'schatz'],
      ['markte', 'uberkauft'],
      ['yen', 'boj'],
      ['ete', 'cafe'],
      ['eur', 'ecb', '0'],
      ['financing', 'alesund'],
      ['円安'],
    ]) {
      expectSame(fromIndex(store, words), reference(store, words));
    }
  });

  it('sees a write made after it was built, a rewrite and a deletion (the change log)', () => {
    note(store, 'Curve steepener', 'Twos tens steepener into cuts.');
    buildKeywordIndex(store.db);
    const id = note(store, 'Copper', 'Copper demand from China; steepener elsewhere.');
    expectSame(fromIndex(store, ['steepener', 'copper']), reference(store, ['steepener', 'copper']));
    note(store, 'Copper', 'Now about aluminium only.', { id });
    expectSame(fromIndex(store, ['steepener', 'copper', 'aluminium']), reference(store, ['steepener', 'copper', 'aluminium']));
    store.db.prepare('DELETE FROM memory_records WHERE id = ?').run(id);
    expectSame(fromIndex(store, ['steepener', 'aluminium']), reference(store, ['steepener', 'aluminium']));
    expect(fromIndex(store, ['aluminium'])).toEqual([]);
  });

  // Built before the transaction, the index stands aside inside it; not built yet, it is not built
  // there (on a write that may yet be undone). Either way the rolled-back note is never ranked.
  it.each([
    ['built before the transaction', true],
    ['first asked inside the transaction', false],
  ])('never applies a write that was rolled back (index %s)', (_, builtFirst) => {
    note(store, 'Curve steepener', 'Twos tens steepener.');
    if (builtFirst) buildKeywordIndex(store.db);
    expect(() =>
      store.writeTransaction(() => {
        note(store, 'Steepener again', 'Steepener steepener.');
        expect(currentKeywordIndex(store.db)).toBeNull();
        throw new Error('the PM cancelled');
      }),
    ).toThrow('the PM cancelled');
    expectSame(fromIndex(store, ['steepener']), reference(store, ['steepener']));
    expect(fromIndex(store, ['steepener'])).toHaveLength(1);
  });

  it("sees another process's writes to the same workspace (another connection)", () => {
    note(store, 'Curve steepener', 'Twos tens steepener.');
    buildKeywordIndex(store.db);
    const other = Store.open(join(dir, 'forge.db'));
    try {
      note(other, 'Steepener from the CLI', 'Written by forge in another process.');
    } finally {
      other.close();
    }
    const hits = fromIndex(store, ['steepener', 'cli']);
    expect(hits).toHaveLength(2);
    expectSame(hits, reference(store, ['steepener', 'cli']));
  });

  it('stands aside, saying why, when its totals ever disagree with FTS5 (and search still answers from FTS5)', () => {
    note(store, 'Curve steepener', 'Twos tens steepener.');
    buildKeywordIndex(store.db);
    // A row put into the full-text table behind the records' back: the index cannot know of it.
    store.db.prepare("INSERT INTO memory_fts (rowid, title, header, body) VALUES (999, 'stray', '', 'steepener')").run();
    expect(currentKeywordIndex(store.db)).toBeNull();
    expect(keywordRankingStatus(store.db)).toMatch(/^SQLite's built-in bm25\(\).*wrote to the full-text table directly/);
  });

  it('rebuilds when it fell further behind than the change log keeps', () => {
    note(store, 'Curve steepener', 'Twos tens steepener.');
    buildKeywordIndex(store.db);
    note(store, 'Later', 'Steepener later.');
    // As if 100,000 newer changes had trimmed this one away.
    store.db.prepare('DELETE FROM memory_changes').run();
    store.db.prepare('INSERT INTO memory_changes (seq, rid, op) VALUES (1000000, 1, 2)').run();
    expect(currentKeywordIndex(store.db)).toBeNull();
  });

  it('builds a large memory in the background; searches use FTS5 until it is ready, then the index', async () => {
    store.writeTransaction(() => {
      for (let i = 0; i < 6000; i++) note(store, `Flow ${i % 13}`, `Desk flow positioning week ${i}.`);
    });
    expect(currentKeywordIndex(store.db)).toBeNull();
    expect(keywordRankingStatus(store.db)).toMatch(/being built/);
    await buildKeywordIndexInBackground(store.db);
    expectSame(fromIndex(store, ['flow', 'positioning', '12']), reference(store, ['flow', 'positioning', '12']));
    expect(keywordRankingStatus(store.db)).toMatch(/^exact BM25, in memory \(6,000 notes\)/);
  });
});
