import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ForgeFS } from '../../fs';
import { Store } from '../../store';
import { SearchIndex } from '../search-index';
import { LocalModelEmbedder } from './local-embedder';
import { writeTinyModel } from './testing/tiny-model';

/**
 * What this proves: with the local model in the index, a query that shares no word with a note
 * still finds it, through the vector half of hybrid search alone. The tiny model cannot know real
 * paraphrases, so its embedding matrix gives synonym pairs ("automobile" ~ "car", "joblessness" ~
 * "unemployment") one shared vector; the notes go through the real SearchIndex (SQLite, FTS5,
 * sqlite-vec, the worker-thread embedder). With keyword search alone the same query finds nothing,
 * so if the vector half were switched off, or the embedder ignored, this test would fail.
 */
const root = mkdtempSync(join(tmpdir(), 'forge-semantic-retrieval-'));
const folder = join(root, 'tiny-model');
let store: Store;
let index: SearchIndex;
let embedder: LocalModelEmbedder;

const pm = { actor: 'pm' as const };
const note = (id: string, title: string, body: string) => `# ${id} — ${title}\nstatus: active\nconfidence: 0.6\n---\n## SUMMARY\n${body}\n`;

beforeAll(async () => {
  writeTinyModel(folder, {
    words: ['car', 'sales', 'rising', 'copper', 'demand', 'china', 'gold', 'miners', 'lag', 'bullion', 'claims', 'jump', 'weekly'],
    synonyms: [
      ['car', 'automobile'],
      ['unemployment', 'joblessness'],
    ],
  });
  embedder = new LocalModelEmbedder({ folder, id: 'local-tiny-384', dims: 384 });
  store = Store.open(join(root, 'forge.db'));
  index = new SearchIndex(store.db, embedder);
  const fs = new ForgeFS({ store, skillsDir: join(root, 'skills'), indexer: index, now: () => '2026-06-01T12:00:00.000Z' });
  await fs.writeFile('/memory/views/V-001.md', note('V-001', 'Car sales rising', 'Car sales rising in Europe.'), pm);
  await fs.writeFile('/memory/views/V-002.md', note('V-002', 'Copper demand', 'China copper demand.'), pm);
  await fs.writeFile('/memory/views/V-003.md', note('V-003', 'Gold miners', 'Gold miners lag bullion.'), pm);
  await fs.writeFile('/memory/views/V-004.md', note('V-004', 'Weekly claims', 'Unemployment claims jump.'), pm);
});

afterAll(async () => {
  store.close();
  await embedder.close();
  rmSync(root, { recursive: true, force: true });
});

describe('search by meaning with the local model', () => {
  it('indexes every note with the local model’s vectors', () => {
    const rows = store.db.prepare('SELECT DISTINCT embedder FROM search_entries').all();
    expect(rows).toEqual([{ embedder: 'local-tiny-384' }]);
  });

  it('"automobile" finds the car-sales note with vectors on, and nothing with keywords alone', async () => {
    const hybrid = await index.search({ scope: '/memory/', query: 'automobile', maxResults: 3 });
    expect(hybrid.results[0]?.id).toBe('V-001');
    expect(hybrid.results[0].keyword).toBe(0);
    expect(hybrid.results[0].vector).toBeGreaterThan(0.5);
    const keywordOnly = await index.search({ scope: '/memory/', query: 'automobile', maxResults: 3, mode: 'keyword' });
    expect(keywordOnly.results.map((r) => r.id)).not.toContain('V-001');
  });

  it('"joblessness" finds the unemployment-claims note ahead of the others', async () => {
    const hybrid = await index.search({ scope: '/memory/', query: 'joblessness', maxResults: 4 });
    expect(hybrid.results[0]?.id).toBe('V-004');
    const keywordOnly = await index.search({ scope: '/memory/', query: 'joblessness', maxResults: 4, mode: 'keyword' });
    expect(keywordOnly.results).toEqual([]);
  });
});
