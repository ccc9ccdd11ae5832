import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { compileQuery, parseQuery } from '../fs';
import { hasRankExtension, Store } from '../store';
import { hasCCompiler, plainRecord, seededRandom } from '../store/testing';
import { HashNgramEmbedder, tokenize } from './hash-embedder';
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

describe('pruning of common words', () => {
  function crowdedMemory() {
    store.writeTransaction(() => {
      for (let i = 0; i < 2000; i++) note('observations', `Positioning looks crowded ${i % 7}`, `Positioning crowded per the flow desk, week ${i}.`);
    });
  }

  it("a rare word's note is found first among 2,000 notes full of a common word, without scoring them all", () => {
    crowdedMemory();
    const zloty = note('observations', 'Zloty carry', 'Positioning in the zloty is light.');
    const hits = search('crowded positioning zloty');
    expect(idOf(hits[0].rid)).toBe(zloty);
    expect(hits).toHaveLength(10);
    // Asked for the best note only, the rare word leads every query: none scores the 2,000 common-word notes on their own.
    const matches: string[] = [];
    const best = search('crowded positioning zloty', { limit: 1, onQuery: (m) => matches.push(m) });
    expect(best.map((h) => idOf(h.rid))).toEqual([zloty]);
    expect(matches.length).toBeGreaterThan(0);
    expect(matches.every((m) => m.startsWith('("zloty")'))).toBe(true);
  });

  const common = ['positioning', 'crowded', 'carry', 'curve', 'spreads', 'inflation'];
  const rare = ['zloty', 'forint', 'kospi', 'tankan', 'ifo', 'jolts', 'lifers', 'cdx', 'itraxx', 'rand', 'brent', 'copper'];
  /** 3,000 notes mixing common and rare words, and a picker of random queries over the same words. */
  function mixedMemory(r: () => number) {
    const pick = (xs: string[]) => xs[Math.floor(r() * xs.length)];
    store.writeTransaction(() => {
      for (let i = 0; i < 3000; i++) {
        const title = [pick(common), r() < 0.3 ? pick(rare) : pick(common)].join(' ');
        const body = Array.from({ length: 4 + Math.floor(r() * 20) }, () =>
          r() < 0.15 ? pick(rare) : r() < 0.6 ? pick(common) : `w${Math.floor(r() * 500)}`,
        ).join(' ');
        note(r() < 0.5 ? 'views' : 'observations', title, body);
      }
    });
    return () => Array.from({ length: 2 + Math.floor(r() * 4) }, () => (r() < 0.35 ? pick(rare) : pick(common)));
  }

  it('gives the same notes in the same order, with the same scores, as scoring every match', () => {
    const query = mixedMemory(seededRandom(7));
    let pruned = 0;
    for (let i = 0; i < 40; i++) {
      const words = query();
      const matches: string[] = [];
      const fast = keywordCandidates(store.db, words, opts({ limit: 20, onQuery: (m) => matches.push(m) }));
      const full = keywordCandidates(store.db, words, opts({ limit: 20, prune: false }));
      expect(fast, words.join(' ')).toEqual(full);
      if (matches.some((m) => m.includes(' AND '))) pruned++;
    }
    // The comparison is only worth something if the pruned path actually ran.
    expect(pruned).toBeGreaterThan(10);
  });

  it.runIf(hasCCompiler)("ranks with Forge's forge_bm25 exactly as with FTS5's bm25(): same notes, order and scores, pruned, budgeted or scoped", () => {
    const query = mixedMemory(seededRandom(19));
    const plain = Store.open(join(dir, 'forge.db'), { withoutRankExtension: true });
    expect([hasRankExtension(store.db), hasRankExtension(plain.db)]).toEqual([true, false]);
    try {
      const views = { where: 'r.category = ?', params: ['views'] };
      for (let i = 0; i < 30; i++) {
        const words = query();
        for (const extra of [{}, { matchBudget: 200 }, views, { ...views, matchBudget: 200 }, { prune: false }]) {
          const o = opts({ limit: 20, ...extra });
          // If this fails, a PM's results would depend on whether a C compiler was present at install.
          expect(keywordCandidates(store.db, words, o), words.join(' ')).toEqual(keywordCandidates(plain.db, words, o));
        }
      }
    } finally {
      plain.close();
    }
  });

  it('with a match budget, a query of common words ranks the notes holding them all first; a rare word keeps it exact', () => {
    const holdingBoth = new Set<string>();
    store.writeTransaction(() => {
      for (let i = 0; i < 1600; i++) holdingBoth.add(note('observations', `Carry and positioning ${i}`, `carry positioning note ${i}`));
      for (let i = 0; i < 1000; i++) note('observations', `Carry ${i}`, `carry carry carry ${i}`);
      for (let i = 0; i < 1000; i++) note('observations', `Positioning ${i}`, `positioning positioning ${i}`);
      note('views', 'Zloty carry', 'zloty carry trade');
    });
    const both = (id: string) => holdingBoth.has(id);
    const matches: string[] = [];
    const top = search('carry positioning', { matchBudget: 100, onQuery: (m) => matches.push(m) });
    expect(top).toHaveLength(10);
    expect(top.every((h) => both(idOf(h.rid)))).toBe(true);
    // Neither common word's full list was scored.
    expect(matches).toEqual(['"positioning" AND "carry"']);
    // Fewer notes than asked hold every word: the rest come from the rarest word, ranked after them.
    const wide = search('carry positioning', { matchBudget: 100, limit: 1700 });
    expect(wide.slice(0, 1600).every((h) => both(idOf(h.rid)))).toBe(true);
    expect(wide.slice(1600).some((h) => !both(idOf(h.rid)))).toBe(true);
    expect(wide[1600].score).toBeLessThan(wide[1599].score);
    // With a rare word in the query the ranking is the exact one.
    expect(search('zloty carry', { matchBudget: 100 })).toEqual(search('zloty carry', { prune: false }));
  });

  it('when too few notes hold every common word, notes holding more of the words come before notes holding fewer', () => {
    const threeWords = new Set<string>();
    const twoRarest = new Set<string>();
    store.writeTransaction(() => {
      for (let i = 0; i < 5; i++) threeWords.add(note('observations', `All three ${i}`, `carry positioning crowded ${i}`));
      for (let i = 0; i < 20; i++) twoRarest.add(note('observations', `Two ${i}`, `crowded positioning ${i}`));
      for (let i = 0; i < 1000; i++) note('observations', `Crowded ${i}`, `crowded crowded crowded crowded ${i}`);
      for (let i = 0; i < 1100; i++) note('observations', `Positioning ${i}`, `positioning positioning ${i}`);
      for (let i = 0; i < 1200; i++) note('observations', `Carry ${i}`, `carry carry carry ${i}`);
    });
    // Over 3,000 matches in all, so the query is not simply scored in full.
    const matches: string[] = [];
    const top = search('carry positioning crowded', { matchBudget: 100, limit: 40, onQuery: (m) => matches.push(m) });
    expect(top).toHaveLength(40);
    // A PM reading the list sees the notes that mention all three first, then those with the two rarer words.
    expect(top.slice(0, 5).every((h) => threeWords.has(idOf(h.rid)))).toBe(true);
    expect(top.slice(5, 25).every((h) => twoRarest.has(idOf(h.rid)))).toBe(true);
    expect(top.slice(25).every((h) => !threeWords.has(idOf(h.rid)) && !twoRarest.has(idOf(h.rid)))).toBe(true);
    for (let i = 1; i < top.length; i++) expect(top[i].score).toBeLessThanOrEqual(top[i - 1].score);
    // Looser tiers are intersections of fewer words, rarest kept: the commonest word's whole list is never scored.
    expect(matches).toEqual(['"crowded" AND "positioning" AND "carry"', '"crowded" AND "positioning"', '"crowded"']);
  });

  it('a note written after a search is found by the next one (word counts are never stale)', () => {
    crowdedMemory();
    expect(search('crowded positioning zloty', { limit: 1 })).toHaveLength(1);
    // Before this write "zloty" was in no note; a cached count of 0 would drop the word from the query.
    const zloty = note('observations', 'Zloty carry', 'Positioning in the zloty is light.');
    const fast = search('crowded positioning zloty', { limit: 3 });
    expect(idOf(fast[0].rid)).toBe(zloty);
    expect(fast).toEqual(search('crowded positioning zloty', { limit: 3, prune: false }));
  });

  it('a scoped search sees a note written, or moved out of the scope, since the last one (the scope bitmap is never stale)', () => {
    crowdedMemory();
    const { where, params } = compileQuery(parseQuery('status:active'));
    const once = () =>
      search('crowded positioning', { where: `r.category = ? AND ${where}`, params: ['views', ...params], limit: 5, matchBudget: 100 }).map((h) => idOf(h.rid));
    // A condition's first query in an index state joins memory_records; later ones test the cached bitmap.
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

  it('applies the scope and filter to what it returns, pruned or not', () => {
    crowdedMemory();
    const draft = note('views', 'Zloty carry', 'Positioning crowded in the zloty.', 'draft');
    const active = note('views', 'Forint carry', 'Positioning crowded in the forint.', 'active');
    const { where, params } = compileQuery(parseQuery('status:active'));
    const inViews = (p: boolean) =>
      search('crowded positioning zloty forint', { where: `r.category = ? AND ${where}`, params: ['views', ...params], prune: p });
    expect(inViews(true).map((h) => idOf(h.rid))).toEqual([active]);
    expect(inViews(false).map((h) => idOf(h.rid))).toEqual([active]);
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

  it('counting feedback words only up to 1,000 notes picks the same words as counting them in full (a cold start gives the same answer)', () => {
    // Common words (in 1,200 notes) among the best notes' words, beside rarer telling ones.
    const target = store.writeTransaction(() => {
      for (let i = 0; i < 1200; i++) note('observations', `Desk flow ${i}`, `Positioning crowded; carry trades popular; desk flow week ${i}.`);
      for (let i = 0; i < 4; i++)
        note('observations', `ECB dovish ${i}`, `ECB dovish; positioning crowded, carry popular; Schatz yields lower, Bund rallied ${i}.`);
      return note('observations', 'Schatz rally', 'Bund rallied; Schatz yields lower on easing bets.');
    });
    const fb = { docs: 3, terms: 5, weight: 0.5 };
    const cold = search('ecb dovish', { feedback: fb });
    // Another connection counts every word in full first (as a query of its own), then asks the same.
    const other = Store.open(join(dir, 'forge.db'));
    try {
      const words = tokenize(store.db.prepare("SELECT group_concat(title || ' ' || body, ' ') AS t FROM memory_records").pluck().get() as string);
      for (const w of new Set(words)) keywordCandidates(other.db, [w], opts({ limit: 1 }));
      const counted = keywordCandidates(other.db, tokenize('ecb dovish'), opts({ feedback: fb }));
      expect(cold.map((h) => idOf(h.rid))).toContain(target);
      expect(cold).toEqual(counted);
    } finally {
      other.close();
    }
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
