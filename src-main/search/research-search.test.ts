import fc from 'fast-check';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type Db, openDatabase } from '../store';
import { HashNgramEmbedder } from './hash-embedder';
import { PassageVectorCache, topRows } from './passage-cache';
import { passageHit, passageMatch, type PassageResult, searchPassages } from './research-search';
import { parseScope } from './scope';

/**
 * The search side of broker-note passages over a real migrated database: scopes, the hit the
 * analyst reads, the top-k selection and the in-memory copy of the vectors. (End to end with the
 * research index and the analyst: src-main/host/research-search.test.ts.)
 */

describe('research scopes', () => {
  it('reads research, /research/ and a note prefix; all covers the notes; memory and session scopes do not', () => {
    expect(parseScope('research')).toMatchObject({ path: '/research/', memory: false, sessionPrefix: null, researchPrefix: '' });
    expect(parseScope('/research/')).toMatchObject({ path: '/research/', researchPrefix: '' });
    expect(parseScope('/research/ecb/2025 notes/')).toMatchObject({ path: '/research/ecb/2025 notes/', researchPrefix: 'ecb/2025 notes/' });
    expect(parseScope('/research/fed')).toMatchObject({ researchPrefix: 'fed' });
    expect(parseScope('all')).toMatchObject({ memory: true, sessionPrefix: '', researchPrefix: '' });
    expect(parseScope('/memory/views/')).toMatchObject({ researchPrefix: null });
    expect(parseScope('session')).toMatchObject({ researchPrefix: null });
    // A scope must not climb out of the research folder.
    expect(() => parseScope('/research/../secrets')).toThrow(/not a search scope/);
  });
});

describe('the hit the analyst reads', () => {
  const result = (text: string): PassageResult => ({
    passage: 7,
    note: 'fed/outlook.pdf',
    title: 'Fed outlook',
    noteDate: '2025-09-15',
    page: 3,
    section: '',
    ordinal: 4,
    text,
    citation: '[fed/outlook.pdf p.3]',
    score: 0.8,
    semantic: 0.9,
    vector: 0.4,
    keyword: 1,
    recency: 0.5,
  });

  it('shows the citation, title and date, a few lines of the passage and how to read more — at /research/<note>', () => {
    const long = Array.from({ length: 120 }, (_, i) => `word${i}`).join(' ');
    const hit = passageHit(result(`Terminal rate\u0007 at 3.25%. ${long}`));
    expect(hit.path).toBe('/research/fed/outlook.pdf');
    expect(hit.id).toBe('fed/outlook.pdf#4');
    expect(hit.category).toBe('research');
    const lines = hit.header.split('\n');
    expect(lines[0]).toBe('[fed/outlook.pdf p.3] Fed outlook (2025-09-15)');
    expect(lines[1]).toMatch(/^Terminal rate at 3\.25%\. word0 word1/);
    // Four lines of text at most, cut with an ellipsis: the tool result stays short.
    expect(lines).toHaveLength(6);
    expect(lines[4]).toMatch(/ …$/);
    expect(lines[5]).toBe('more: fetch research with note "fed/outlook.pdf"');
    expect(hit.header).not.toContain('\u0007');
    expect(hit.passage?.text).toContain('word119');
  });

  it('a short passage is shown whole, without an ellipsis', () => {
    const hit = passageHit(result('Brent supply discipline is fraying.'));
    expect(hit.header.split('\n')).toEqual([
      '[fed/outlook.pdf p.3] Fed outlook (2025-09-15)',
      'Brent supply discipline is fraying.',
      'more: fetch research with note "fed/outlook.pdf"',
    ]);
  });

  it('quotes query words for FTS5 (its syntax stays out) and drops stop words', () => {
    expect(passageMatch(['what', 'does', 'ecb', 'near', 'terminal', 'rate', 'ecb'])).toBe('"ecb" OR "near" OR "terminal" OR "rate"');
    expect(passageMatch(['what', 'about'])).toBeNull();
  });
});

describe('top rows of a scan', () => {
  it('are the k highest positive cosines, best first, as a full sort would give', () => {
    fc.assert(
      fc.property(fc.array(fc.float({ min: -1, max: 1, noNaN: true }), { maxLength: 300 }), fc.integer({ min: 1, max: 50 }), (xs, k) => {
        const values = Float32Array.from(xs);
        const expected = [...values.keys()]
          .filter((i) => values[i]! > 0)
          .sort((a, b) => values[b]! - values[a]! || a - b)
          .slice(0, k)
          .map((i) => values[i]);
        expect(topRows(values, k).map((i) => values[i])).toEqual(expected);
      }),
    );
  });
});

describe('passages over a real database', () => {
  let db: Db;
  const embedder = new HashNgramEmbedder(64);
  const addPassage = (note: string, date: string, text: string, vector = true) => {
    db.prepare(
      `INSERT INTO research_notes (note, mtime_ms, size, content_hash, note_date, date_from, title, passages, warning, indexed_at)
       VALUES (?, 0, 0, 'h', ?, 'front_matter', ?, 1, NULL, '2026-01-01T00:00:00Z')`,
    ).run(note, date, note);
    const rowid = Number(
      db.prepare("INSERT INTO research_passages (text, section, note, page, ordinal) VALUES (?, '', ?, NULL, 1)").run(text, note).lastInsertRowid,
    );
    if (vector) {
      const v = embedder.embedOne(text);
      db.prepare('INSERT INTO research_passage_vectors (passage, note, embedder, vector) VALUES (?, ?, ?, ?)').run(
        rowid,
        note,
        embedder.id,
        Buffer.from(v.buffer),
      );
    }
    return rowid;
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
  beforeEach(() => {
    db = openDatabase(':memory:');
  });
  afterEach(() => db.close());

  it('the in-memory copy of the vectors is kept while the research index does not write, and reloaded when its generation moves', () => {
    const cache = new PassageVectorCache();
    const copper = () => ['copper', 'inventories', 'drawing'];
    addPassage('oil.md', '2025-09-01', 'Brent supply discipline from the cartel is fraying.');
    expect(searchPassages(db, query(copper(), { mode: 'vector', generation: 1 }), cache).map((r) => r.note)).not.toContain('metals.md');
    addPassage('metals.md', '2025-09-02', 'Copper inventories are drawing in Shanghai.');
    // Same generation: the copy taken before the write is reused (no reload per search).
    expect(searchPassages(db, query(copper(), { mode: 'vector', generation: 1 }), cache).map((r) => r.note)).not.toContain('metals.md');
    // The index wrote: the new note's vector is seen at once.
    expect(searchPassages(db, query(copper(), { mode: 'vector', generation: 2 }), cache)[0]?.note).toBe('metals.md');
  });

  it('recency is measured from the as-of day in a retrospective, and notes after it are never candidates', () => {
    addPassage('early.md', '2025-06-01', 'The ECB deposit rate reaches 2 percent.');
    addPassage('late.md', '2025-12-01', 'The ECB deposit rate stays at 2 percent.');
    const retro = searchPassages(db, query(['ecb', 'deposit', 'rate'], { asOf: '2025-06-01' }));
    expect(retro.map((r) => r.note)).toEqual(['early.md']);
    expect(retro[0]?.recency).toBe(1);
    const today = searchPassages(db, query(['ecb', 'deposit', 'rate']));
    expect(today.map((r) => r.note)).toEqual(['late.md', 'early.md']);
  });

  it('a passage waiting for its vector is still found by keyword', () => {
    addPassage('waiting.md', '2025-09-01', 'Gilt supply overwhelms demand at the long end.', false);
    const [hit] = searchPassages(db, query(['gilt', 'supply']));
    expect(hit).toMatchObject({ note: 'waiting.md', vector: 0, keyword: 1 });
  });
});
