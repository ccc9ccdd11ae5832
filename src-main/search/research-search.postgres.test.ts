import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Store } from '../store';
import { skipWithoutPostgres } from '../store/postgres/test-server';
import { type PostgresWorkspaces, startPostgresWorkspaces } from '../store/postgres/test-workspaces';
import { HashNgramEmbedder } from './hash-embedder';
import { PassageVectorCache } from './passage-cache';
import { deskPassageQuery, searchPassages } from './research-search';

/**
 * Broker-note passages searched on a desk's PostgreSQL (PostgreSQL's own full text on the passages,
 * the passage vectors scanned in memory): what research-search.test.ts checks on SQLite, so an
 * analyst on a desk finds the broker notes a PM finds on their own file — not an internal SQL error.
 */
describe.skipIf(skipWithoutPostgres())("broker-note passages on a desk's PostgreSQL", { timeout: 120_000 }, () => {
  let workspaces: PostgresWorkspaces;
  let store: Store;
  const embedder = new HashNgramEmbedder(64);
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

  const addPassage = (note: string, date: string, text: string, vector = true) => {
    const db = store.db;
    db.prepare(
      `INSERT INTO research_notes (note, mtime_ms, size, content_hash, note_date, date_from, title, passages, warning, indexed_at)
       VALUES (?, 0, 0, 'h', ?, 'front_matter', ?, 1, NULL, '2026-01-01T00:00:00Z')`,
    ).run(note, date, note);
    const { passage } = db
      .prepare("INSERT INTO research_passages (text, section, note, page, ordinal) VALUES (?, '', ?, NULL, 1) RETURNING passage")
      .get(text, note) as { passage: number };
    if (vector) {
      const v = embedder.embedOne(text);
      db.prepare('INSERT INTO research_passage_vectors (passage, note, embedder, vector) VALUES (?, ?, ?, ?)').run(
        passage,
        note,
        embedder.id,
        Buffer.from(v.buffer),
      );
    }
    return Number(passage);
  };
  const query = (words: string[], extra: Partial<Parameters<typeof searchPassages>[1]> = {}) => ({
    words,
    queryVector: embedder.embedOne(words.join(' ')),
    embedderId: embedder.id,
    limit: 5,
    weights: { semantic: 0.7, recency: 0.3 },
    vectorShare: 0.3,
    mode: 'hybrid' as const,
    keywordCandidates: 60,
    vectorCandidates: 200,
    now: new Date('2026-01-05T00:00:00Z'),
    ...extra,
  });

  it('finds a passage by its words (stemmed: "drawing" finds "draws") and by meaning, with its citation', () => {
    addPassage('oil.md', '2025-09-01', 'Brent supply discipline from the cartel is fraying.');
    const metals = addPassage('metals.md', '2025-09-02', 'Copper inventories draw in Shanghai.');
    const [hit] = searchPassages(store.db, query(['copper', 'inventories', 'drawing']));
    expect(hit).toMatchObject({ passage: metals, note: 'metals.md', keyword: 1, text: 'Copper inventories draw in Shanghai.' });
    expect(hit.vector).toBeGreaterThan(0);
    const [byMeaning] = searchPassages(store.db, query(['copper', 'inventories'], { mode: 'vector' }), new PassageVectorCache());
    expect(byMeaning?.note).toBe('metals.md');
    // Scopes: /research/<note prefix>, a list of notes, a date range.
    const notes = (extra: Partial<Parameters<typeof searchPassages>[1]>) => searchPassages(store.db, query(['copper', 'brent'], extra)).map((r) => r.note);
    expect(notes({ notePrefix: 'MET' })).toEqual(['metals.md']);
    expect(notes({ notes: ['oil.md'] })).toEqual(['oil.md']);
    expect(notes({ since: '2025-09-02' })).toEqual(['metals.md']);
  });

  it('recency is measured from the as-of day in a retrospective, and notes after it are never candidates', () => {
    addPassage('early.md', '2025-06-01', 'The ECB deposit rate reaches 2 percent.');
    addPassage('late.md', '2025-12-01', 'The ECB deposit rate stays at 2 percent.');
    const retro = searchPassages(store.db, query(['ecb', 'deposit', 'rate'], { asOf: '2025-06-01' }));
    expect(retro.map((r) => r.note)).toEqual(['early.md']);
    expect(retro[0]?.recency).toBe(1);
    expect(searchPassages(store.db, query(['ecb', 'deposit', 'rate'])).map((r) => r.note)).toEqual(['late.md', 'early.md']);
  });

  it('a passage waiting for its vector is still found by keyword, and quoted words must be in the text', () => {
    addPassage('waiting.md', '2025-09-01', 'Gilt supply overwhelms demand at the long end.', false);
    addPassage('other.md', '2025-09-01', 'Gilt auctions tail.', false);
    const [hit] = searchPassages(store.db, query(['gilt', 'supply']));
    expect(hit).toMatchObject({ note: 'waiting.md', vector: 0, keyword: 1 });
    expect(searchPassages(store.db, query(['gilt'], { mustContain: ['auctions'] })).map((r) => r.note)).toEqual(['other.md']);
  });

  it("keeps the analyst's text out of tsquery syntax (quotes, operators) and drops stop words", () => {
    expect(deskPassageQuery(["o'neil", 'a&b', '!x', 'and', 'Fed'])).toBe("'neil' | 'fed'");
    addPassage('q.md', '2025-09-01', "O'Neil sees the Fed on hold.");
    expect(searchPassages(store.db, query(["o'neil", '(fed)', '|', '!']))[0]?.note).toBe('q.md');
    expect(searchPassages(store.db, query(['and', '!']))).toEqual([]);
  });
});
