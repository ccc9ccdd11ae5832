import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Store } from '../store';
import { plainRecord } from '../store/testing';
import { HashNgramEmbedder } from './hash-embedder';
import { SearchIndex, writeEntryBatch } from './search-index';

/**
 * The first search after Forge starts must not wait seconds while the index loads (it took ~4.5 s
 * at 100,000 notes when the codes were read one row per note). What makes it fast is how much it
 * reads: a row per block of 256 notes, never a row per note. This test counts the rows every SQL
 * statement returns during the cold open and first query, so it holds on a machine at any load;
 * the time itself is measured by `npm run bench -- search` (cold_first_query_ms).
 */
const N = 20_000;
const THEMES = ['Bund curve steepener', 'USDJPY carry unwind', 'copper inventories draw', 'EM local rates', 'HY spreads widen', 'Fed cuts priced'];
const WORDS = ['supply', 'positioning', 'inflation', 'payrolls', 'liquidity', 'term premium', 'volatility', 'auction', 'carry', 'stop'];

let dir: string;
const path = () => join(dir, 'forge.db');

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'forge-cold-'));
  const store = Store.open(path());
  const e = new HashNgramEmbedder();
  const index = new SearchIndex(store.db, e);
  for (let start = 0; start < N; start += 1000) {
    store.writeTransaction(() => {
      const rows = [];
      const texts = [];
      for (let i = start; i < start + 1000; i++) {
        const title = `${THEMES[i % THEMES.length]} ${i}`;
        const body = `${WORDS[i % 10]} and ${WORDS[(i * 7) % 10]} drive ${THEMES[(i * 3) % THEMES.length]}; note ${i}.`;
        const at = new Date(Date.UTC(2026, 0, 1) + (i % 900) * 86_400_000).toISOString();
        const { rid } = store.records.upsert(
          plainRecord({ category: i % 3 ? 'observations' : 'views', id: `N-${i}`, title, status: i % 4 ? 'active' : 'closed', body, at }),
        );
        rows.push({ rid, category: i % 3 ? 'observations' : 'views', status: i % 4 ? 'active' : 'closed', updated_at: at });
        texts.push(`${title} ${body}`);
      }
      writeEntryBatch(
        store.db,
        e.id,
        rows,
        texts.map((t) => e.embedOne(t)),
        index.quantizer,
      );
    });
  }
  store.close();
}, 120_000);

afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Wraps `db.prepare` so every row a statement returns is counted under its SQL. */
function countRows(db: Store['db']): Map<string, number> {
  const counts = new Map<string, number>();
  const prepare = db.prepare.bind(db);
  const add = (sql: string, n: number) => counts.set(sql, (counts.get(sql) ?? 0) + n);
  (db as { prepare: (sql: string) => unknown }).prepare = (sql: string) => {
    const st = prepare(sql) as unknown as Record<'all' | 'get' | 'iterate', (...a: unknown[]) => unknown>;
    const all = st.all.bind(st);
    const get = st.get.bind(st);
    const iterate = st.iterate.bind(st);
    st.all = (...a) => {
      const rows = all(...a) as unknown[];
      add(sql, rows.length);
      return rows;
    };
    st.get = (...a) => {
      const row = get(...a);
      add(sql, row === undefined ? 0 : 1);
      return row;
    };
    st.iterate = function* (...a) {
      for (const row of iterate(...a) as Iterable<unknown>) {
        add(sql, 1);
        yield row;
      }
    };
    return st;
  };
  return counts;
}

describe('cold start', () => {
  it('the first query after opening 20,000 notes reads the index a block at a time, not a row per note', async () => {
    const store = Store.open(path());
    try {
      const rows = countRows(store.db);
      const index = new SearchIndex(store.db, new HashNgramEmbedder());
      const first = await index.search({ query: 'copper inventories supply', scope: '/memory/', filters: 'status:active', maxResults: 10 });
      expect(first.results.length).toBe(10);
      expect(index.blocks.size()).toBe(N);
      const blockRows = [...rows].filter(([sql]) => /FROM search_blocks\b/.test(sql) && !/max\(block\)/.test(sql)).reduce((n, [, c]) => n + c, 0);
      const total = [...rows.values()].reduce((a, b) => a + b, 0);
      const report = [...rows].map(([sql, c]) => `${c} ${sql.slice(0, 80)}`).join('\n');
      expect(blockRows, report).toBe(Math.ceil(N / 256));
      // A row per note would be 20,000 rows before the first answer; the whole query reads a few hundred.
      expect(total, report).toBeLessThan(N / 10);
      // And the warm index answers the next queries the same way.
      const again = await index.search({ query: 'USDJPY carry unwind', scope: '/memory/', filters: 'status:active', maxResults: 10 });
      expect(again.results.length).toBe(10);
    } finally {
      store.close();
    }
  }, 60_000);
});
