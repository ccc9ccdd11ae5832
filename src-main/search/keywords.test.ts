import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { compileQuery, parseQuery } from '../fs';
import { Store } from '../store';
import { plainRecord } from '../store/testing';
import { HashNgramEmbedder, tokenize } from './hash-embedder';
import { buildKeywordIndex, currentKeywordIndex } from './keyword-index';
import { type KeywordOptions, keywordCandidates } from './keywords';
import { DEFAULT_TUNING } from './search';
import { SearchIndex } from './search-index';

let dir: string;
let store: Store;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'forge-keywords-'));
  store = Store.open(join(dir, 'forge.db'));
});
afterEach(() => {
  store.close();
  rmSync(dir, { recursive: true, force: true });
});

let seq = 0;
/** Writes a memory record the way ForgeFS does (the FTS5 triggers index it in the same statement). */
function note(category: string, title: string, body: string, status = 'active'): string {
  const id = `N-${String(++seq).padStart(5, '0')}`;
  store.records.upsert(plainRecord({ category, id, title, status, body, header: JSON.stringify({ status }) }));
  return id;
}
const idOf = (rid: number) => (store.db.prepare('SELECT id FROM memory_records WHERE rid = ?').get(rid) as { id: string }).id;
const opts = (extra: Partial<KeywordOptions> = {}): KeywordOptions => ({ limit: 10, fieldWeights: [3, 1, 1], ...extra });
const search = (query: string, extra: Partial<KeywordOptions> = {}) => keywordCandidates(store.db, tokenize(query), opts(extra));

describe('BM25 with field weights', () => {
  it('a note with the words in its title ranks above one that only mentions them in the body', () => {
    const bodyOnly = note('views', 'Rates outlook', 'We like a curve steepener into the cuts.');
    const titled = note('views', 'Curve steepener', 'Into the cuts, with carry.');
    note('views', 'Copper demand', 'China stimulus.');
    const hits = search('curve steepener');
    expect(hits.map((h) => idOf(h.rid))).toEqual([titled, bodyOnly]);
    // With the title weighted like the body, the title no longer wins by its field alone.
    const flat = search('curve steepener', { fieldWeights: [0, 0, 1] });
    expect(flat.map((h) => idOf(h.rid))).toEqual([bodyOnly, titled]);
  });

  it('refuses field weights that are not three non-negative numbers, saying what is expected', () => {
    note('views', 'Curve steepener', 'x');
    expect(() => search('curve', { fieldWeights: [3, -1, 1] })).toThrow(/three non-negative numbers/);
    expect(() => search('curve', { fieldWeights: [3, 1] as unknown as KeywordOptions['fieldWeights'] })).toThrow(
      expect.objectContaining({ code: 'invalid_input' }),
    );
  });
});

describe('common words among rare ones', () => {
  function crowdedMemory() {
    store.writeTransaction(() => {
      for (let i = 0; i < 2000; i++) note('observations', `Positioning looks crowded ${i % 7}`, `Positioning crowded per the flow desk, week ${i}.`);
    });
    // Built now, so every search below ranks with the in-memory index (and catches up with later writes).
    buildKeywordIndex(store.db);
  }
  /** FTS5's own bm25() over the same words, straight from SQL: the reference every ranking must equal. */
  const reference = (query: string, limit: number, where = '1', params: unknown[] = []) =>
    store.db
      .prepare(
        `SELECT f.rowid AS rid, -bm25(memory_fts, 3, 1, 1) AS score FROM memory_fts f JOIN memory_records r ON r.rid = f.rowid
           WHERE memory_fts MATCH ? AND ${where} ORDER BY bm25(memory_fts, 3, 1, 1), f.rowid LIMIT ?`,
      )
      .all([...new Set(tokenize(query))].map((w) => `"${w}"`).join(' OR '), ...params, limit) as { rid: number; score: number }[];
  const same = (a: { rid: number; score: number }[], b: { rid: number; score: number }[]) => {
    expect(a.map((h) => h.rid)).toEqual(b.map((h) => h.rid));
    for (const [i, h] of a.entries()) expect(Math.abs(h.score - b[i].score)).toBeLessThan(1e-9);
  };

  it("a rare word's note is found first among 2,000 notes full of a common word", () => {
    crowdedMemory();
    const zloty = note('observations', 'Zloty carry', 'Positioning in the zloty is light.');
    const hits = search('crowded positioning zloty');
    expect(idOf(hits[0].rid)).toBe(zloty);
    expect(hits).toHaveLength(10);
  });

  it("gives the same notes in the same order, with the same scores, as FTS5's bm25() — common words, rare words, any limit", () => {
    crowdedMemory();
    note('observations', 'Zloty carry', 'Positioning in the zloty is light; crowded elsewhere.');
    note('views', 'Forint carry', 'Crowded positioning in the forint, flow desk says.');
    expect(currentKeywordIndex(store.db)).not.toBeNull();
    for (const q of ['crowded positioning', 'positioning zloty', 'crowded positioning flow desk week', 'forint zloty carry', 'looks 3']) {
      for (const limit of [1, 10, 40, 2100]) same(search(q, { limit }), reference(q, limit));
    }
  });

  it('non-integer field weights are added occurrence by occurrence as FTS5 adds them (same scores, same ties)', () => {
    crowdedMemory();
    const hits = search('crowded positioning week', { limit: 30, fieldWeights: [0.3, 0.1, 0.7] });
    const ref = store.db
      .prepare(
        'SELECT rowid AS rid, -bm25(memory_fts, 0.3, 0.1, 0.7) AS score FROM memory_fts WHERE memory_fts MATCH ? ORDER BY bm25(memory_fts, 0.3, 0.1, 0.7), rowid LIMIT 30',
      )
      .all('"crowded" OR "positioning" OR "week"') as { rid: number; score: number }[];
    same(hits, ref);
  });

  it('words that stem alike count once, as one FTS5 term', () => {
    note('views', 'Rates rally', 'Rate cuts priced; the rates market rallied.');
    note('views', 'Copper', 'Nothing about it.');
    same(search('rates rate rallied'), reference('rates rallied', 10));
  });

  it('a note written after a search is found by the next one (word counts are never stale)', () => {
    crowdedMemory();
    expect(search('crowded positioning zloty', { limit: 1 })).toHaveLength(1);
    // Before this write "zloty" was in no note; a cached count of 0 would drop the word from the query.
    const zloty = note('observations', 'Zloty carry', 'Positioning in the zloty is light.');
    const fast = search('crowded positioning zloty', { limit: 3 });
    expect(idOf(fast[0].rid)).toBe(zloty);
    expect(fast).toEqual(search('crowded positioning zloty', { limit: 3, ranker: 'fts5' }));
  });

  it('a filtered search sees a note written, or moved out of the filter, since the last one (the list of notes a filter leaves is never stale)', () => {
    crowdedMemory();
    const { where, params } = compileQuery(parseQuery('status:active'));
    const once = () => search('crowded positioning', { where: `r.category = ? AND ${where}`, params: ['views', ...params], limit: 5 }).map((h) => idOf(h.rid));
    // A filter only SQL can evaluate is resolved to a list of notes, cached until the next write.
    const activeViews = () => {
      const first = once();
      expect(once()).toEqual(first);
      return first;
    };
    expect(activeViews()).toEqual([]);
    const view = note('views', 'Positioning crowded', 'Positioning crowded in duration.', 'active');
    expect(activeViews()).toEqual([view]);
    // The same note closed: a cached list of the scope's notes would still return it.
    store.records.upsert(
      plainRecord({
        category: 'views',
        id: view,
        title: 'Positioning crowded',
        status: 'closed',
        body: 'Positioning crowded in duration.',
        header: '{"status":"closed"}',
      }),
    );
    expect(activeViews()).toEqual([]);
  });

  it('applies the scope and filter to what it returns, from the index or from FTS5', () => {
    crowdedMemory();
    const draft = note('views', 'Zloty carry', 'Positioning crowded in the zloty.', 'draft');
    const active = note('views', 'Forint carry', 'Positioning crowded in the forint.', 'active');
    const { where, params } = compileQuery(parseQuery('status:active'));
    const inViews = (ranker: 'auto' | 'fts5') =>
      search('crowded positioning zloty forint', { where: `r.category = ? AND ${where}`, params: ['views', ...params], ranker });
    expect(inViews('auto').map((h) => idOf(h.rid))).toEqual([active]);
    expect(inViews('fts5').map((h) => idOf(h.rid))).toEqual([active]);
    // The same filter told to the index as a pushdown (status and category checked in memory).
    const pushed = search('crowded positioning zloty forint', {
      where: `r.category = ? AND ${where}`,
      params: ['views', ...params],
      pushdown: { category: 'views', status: 'active', since: null, exact: true },
    });
    expect(pushed.map((h) => idOf(h.rid))).toEqual([active]);
    expect(search('crowded positioning zloty').map((h) => idOf(h.rid))).toContain(draft);
  });

  it('memory search in keyword mode keeps the scope and the filter (the wiring in search.ts)', async () => {
    crowdedMemory();
    note('views', 'Zloty carry', 'Positioning crowded in the zloty.', 'draft');
    const active = note('views', 'Forint carry', 'Positioning crowded in the forint.', 'active');
    const index = new SearchIndex(store.db, new HashNgramEmbedder());
    const r = await index.search({
      query: 'crowded positioning zloty forint',
      scope: '/memory/views/',
      filters: 'status:active',
      mode: 'keyword',
      maxResults: 10,
    });
    expect(r.results.map((h) => h.id)).toEqual([active]);
    // A quoted phrase in the filter is its own FTS5 match (fs/query/compile.ts), applied on top.
    const phrase = await index.search({ query: 'crowded positioning', filters: '"zloty carry"', mode: 'keyword', maxResults: 10 });
    expect(phrase.results.map((h) => h.title)).toEqual(['Zloty carry']);
  });
});

describe('pseudo-relevance feedback', () => {
  function ecbMemory() {
    const ids: string[] = [];
    for (let i = 0; i < 4; i++) ids.push(note('observations', `ECB dovish ${i}`, `ECB dovish again; Bund front-end rallied, Schatz yields lower ${i}.`));
    for (let i = 0; i < 30; i++) note('observations', `Copper inventories ${i}`, `LME copper stocks fell; China imports ${i}.`);
    const target = note('observations', 'Schatz rally', 'Bund front-end rallied; Schatz yields lower on easing bets.');
    return target;
  }

  it('finds a note that shares no word with the query but shares words with its best answers', () => {
    const target = ecbMemory();
    const without = search('ecb dovish', { limit: 10 }).map((h) => idOf(h.rid));
    expect(without).not.toContain(target);
    const withPrf = search('ecb dovish', { limit: 10, feedback: { docs: 3, terms: 5, weight: 0.5 } }).map((h) => idOf(h.rid));
    expect(withPrf).toContain(target);
    // The query's own notes still come first.
    expect(withPrf.slice(0, 4).every((id) => id !== target)).toBe(true);
  });

  it('the index and FTS5 pick the same feedback words and give the same answer', () => {
    // Common words (in 1,200 notes) among the best notes' words, beside rarer telling ones.
    const target = store.writeTransaction(() => {
      for (let i = 0; i < 1200; i++) note('observations', `Desk flow ${i}`, `Positioning crowded; carry trades popular; desk flow week ${i}.`);
      for (let i = 0; i < 4; i++)
        note('observations', `ECB dovish ${i}`, `ECB dovish; positioning crowded, carry popular; Schatz yields lower, Bund rallied ${i}.`);
      return note('observations', 'Schatz rally', 'Bund rallied; Schatz yields lower on easing bets.');
    });
    const fb = { docs: 3, terms: 5, weight: 0.5 };
    const fromIndex = search('ecb dovish', { feedback: fb });
    const fromFts = search('ecb dovish', { feedback: fb, ranker: 'fts5' });
    expect(fromIndex.map((h) => idOf(h.rid))).toContain(target);
    expect(fromIndex.map((h) => h.rid)).toEqual(fromFts.map((h) => h.rid));
    for (const [i, h] of fromIndex.entries()) expect(Math.abs(h.score - fromFts[i].score)).toBeLessThan(1e-9);
  });

  it('is on by default in memory search (it measured better), and tuning can switch it off', async () => {
    const target = ecbMemory();
    expect(DEFAULT_TUNING.prf).toBe(true);
    const index = new SearchIndex(store.db, new HashNgramEmbedder());
    const fed = await index.search({ query: 'ecb dovish', mode: 'keyword', maxResults: 10 });
    expect(fed.results.map((h) => h.id)).toContain(target);
    const plain = await index.search({ query: 'ecb dovish', mode: 'keyword', maxResults: 10, tuning: { prf: false } });
    expect(plain.results.map((h) => h.id)).not.toContain(target);
  });
});
