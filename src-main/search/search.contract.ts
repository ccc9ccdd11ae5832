import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ForgeFS } from '../fs';
import type { Store } from '../store';
import { HashNgramEmbedder } from './hash-embedder';
import { SearchIndex } from './search-index';

/** Where a contract run keeps its workspace: a PM's SQLite file, or a desk's PostgreSQL database. */
export interface SearchEngine {
  name: 'sqlite' | 'postgres';
  /** A new, empty workspace Store (a folder is given for the engines that keep a file). */
  open(dir: string): Store;
}

const pm = { actor: 'pm' as const };
const view = (id: string, title: string, status: string, body: string) =>
  `# ${id} — ${title}\nstatus: ${status}\nconfidence: 0.6\nscope: global rates\n---\n## SUMMARY\n${body}\n`;
const pk = (id: string, title: string, body: string) => `# ${id} — ${title}\nweight: 2\ncategory: sizing\n---\n## LESSON\n${body}\n`;

/** The desk's notes, written in this order, one a day (recency counts in hybrid search). */
export const CONTRACT_NOTES: readonly [string, string][] = [
  ['/memory/views/V-001.md', view('V-001', 'Curve steepener into Fed cuts', 'active', 'The Fed cuts twice; 2s10s steepens as front-end yields fall.')],
  ['/memory/views/V-002.md', view('V-002', 'Long copper on China stimulus', 'active', 'LME inventories falling while Chinese credit impulse turns up.')],
  ['/memory/views/V-003.md', view('V-003', 'Fed on hold longer than priced', 'closed', 'Sticky services inflation keeps the Fed on hold; fade the cuts.')],
  ['/memory/views/V-004.md', view('V-004', 'ECB dovish pivot', 'active', 'The ECB cuts before the Fed; Bund curve bull-steepens.')],
  ['/memory/views/V-005.md', view('V-005', 'Short zloty on rate cuts', 'active', 'NBP cuts faster than priced; zloty weakens against the euro.')],
  ['/memory/views/V-006.md', view('V-006', 'Yen carry unwind', 'draft', 'BoJ hikes; yen carry positioning is crowded and unwinds.')],
  ['/memory/pk/PK-001.md', pk('PK-001', 'Size down before Fed meetings', 'Positions sized for a Fed surprise survive; halve gross into the meeting.')],
  ['/memory/pk/PK-002.md', pk('PK-002', 'Crowded carry trades gap', 'Carry positioning that is crowded gaps on a central bank surprise.')],
  ['/memory/pk/PK-003.md', pk('PK-003', 'Copper leads China data', 'Copper turned a month before the Chinese PMI; watch LME spreads.')],
];

/** A search, and the notes (path, keyword score) it must return in this order on every engine (recorded on SQLite). */
export const CONTRACT_QUERIES: readonly {
  name: string;
  scope: string;
  query: string;
  filters?: string;
  mode: 'keyword' | 'hybrid';
  expect: [string, string][];
}[] = [
  {
    name: 'keyword, all memory',
    scope: '/memory/',
    query: 'Fed cuts',
    mode: 'keyword',
    expect: [
      ['/memory/views/V-001.md', '1.0000'],
      ['/memory/views/V-003.md', '0.6011'],
      ['/memory/views/V-004.md', '0.5497'],
      ['/memory/views/V-005.md', '0.4174'],
      ['/memory/pk/PK-001.md', '0.3404'],
    ],
  },
  {
    name: 'hybrid, all memory',
    scope: '/memory/',
    query: 'Fed cuts',
    mode: 'hybrid',
    expect: [
      ['/memory/views/V-001.md', '1.0000'],
      ['/memory/views/V-003.md', '0.6011'],
      ['/memory/views/V-004.md', '0.5497'],
      ['/memory/views/V-005.md', '0.4174'],
      ['/memory/pk/PK-001.md', '0.3404'],
    ],
  },
  {
    name: 'keyword, Views only',
    scope: '/memory/views/',
    query: 'copper China',
    mode: 'keyword',
    expect: [
      ['/memory/views/V-002.md', '1.0000'],
      ['/memory/views/V-001.md', '0.0211'],
    ],
  },
  {
    name: 'hybrid, Views only, active',
    scope: '/memory/views/',
    query: 'cuts curve',
    filters: 'status:active',
    mode: 'hybrid',
    expect: [
      ['/memory/views/V-001.md', '1.0000'],
      ['/memory/views/V-004.md', '0.7686'],
      ['/memory/views/V-005.md', '0.1112'],
      ['/memory/views/V-002.md', '0.0000'],
    ],
  },
  {
    name: 'keyword, a filter SQL checks',
    scope: '/memory/',
    query: 'crowded carry positioning',
    filters: 'confidence>=0.5',
    mode: 'keyword',
    expect: [['/memory/views/V-006.md', '1.0000']],
  },
  {
    name: 'hybrid, since a date',
    scope: '/memory/',
    query: 'Fed surprise',
    filters: 'since:2026-01-05',
    mode: 'hybrid',
    expect: [
      ['/memory/pk/PK-001.md', '1.0000'],
      ['/memory/pk/PK-002.md', '0.8445'],
      ['/memory/views/V-003.md', '0.1525'],
      ['/memory/views/V-006.md', '0.0917'],
      ['/memory/views/V-004.md', '0.0931'],
    ],
  },
  {
    name: 'keyword, PK only',
    scope: '/memory/pk/',
    query: 'crowded positioning',
    mode: 'keyword',
    expect: [
      ['/memory/pk/PK-002.md', '1.0000'],
      ['/memory/pk/PK-001.md', '0.3976'],
      ['/memory/pk/PK-003.md', '0.0165'],
    ],
  },
];

/**
 * Memory search's behaviour, stated once and run against each engine (search.contract.test.ts on
 * SQLite, search.postgres.test.ts on a real PostgreSQL): the same notes written, the same queries,
 * the same results in the same order — a PM who moves to a desk finds what they found before.
 */
export function searchContract(engine: SearchEngine): void {
  describe(`memory search on ${engine.name}`, () => {
    let dir: string;
    let store: Store;
    let index: SearchIndex;
    let clock: number;
    const now = () => new Date(Date.UTC(2026, 0, 1) + clock++ * 86_400_000).toISOString();

    beforeEach(async () => {
      dir = mkdtempSync(join(tmpdir(), `forge-search-${engine.name}-`));
      store = engine.open(dir);
      clock = 0;
      index = new SearchIndex(store.db, new HashNgramEmbedder());
      const fs = new ForgeFS({ store, skillsDir: join(dir, 'skills'), indexer: index, now });
      for (const [path, content] of CONTRACT_NOTES) await fs.writeFile(path, content, pm);
    });
    afterEach(() => {
      store.close();
      rmSync(dir, { recursive: true, force: true });
    });

    for (const q of CONTRACT_QUERIES) {
      // A desk ranking differently from the PM's own file would show other notes, or the same in another order.
      it(`${q.name}: "${q.query}"${q.filters ? ` [${q.filters}]` : ''} finds the same notes in the same order`, async () => {
        const r = await index.search({
          scope: q.scope,
          query: q.query,
          filters: q.filters ?? null,
          mode: q.mode,
          maxResults: 5,
          now: new Date(Date.UTC(2026, 0, 20)),
        });
        expect(r.degraded).toBeNull();
        expect(r.results.map((h) => h.path)).toEqual(q.expect.map(([path]) => path));
        // The keyword scores too (to 0.0005): the same BM25, not merely the same order by luck.
        for (const [i, h] of r.results.entries()) expect(h.keyword).toBeCloseTo(Number(q.expect[i][1]), 3);
      });
    }

    // A note saved on the desk must be found by the next search, as on a PM's own file.
    it('finds a note written after the first search, and no longer finds a deleted one', async () => {
      const search = async () =>
        (await index.search({ scope: '/memory/', query: 'gilts', mode: 'keyword', maxResults: 5, now: new Date(Date.UTC(2026, 0, 20)) })).results.map(
          (h) => h.path,
        );
      expect(await search()).not.toContain('/memory/views/V-007.md');
      const fs = new ForgeFS({ store, skillsDir: join(dir, 'skills'), indexer: index, now });
      await fs.writeFile('/memory/views/V-007.md', view('V-007', 'Long gilts', 'active', 'Gilts rally as the BoE cuts.'), pm);
      expect((await search())[0]).toBe('/memory/views/V-007.md');
      await fs.deleteFile('/memory/views/V-007.md', pm);
      expect(await search()).not.toContain('/memory/views/V-007.md');
    });
  });
}
