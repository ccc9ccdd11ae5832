import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ForgeFS } from '../fs';
import { Store } from '../store';
import { plainRecord } from '../store/testing';
import { BLOCK_SLOTS, BlockIndex, quantizeInt8, readLayout } from './block-store';
import type { Embedder } from './embedder';
import { l2normalize } from './embedder';
import { HashNgramEmbedder } from './hash-embedder';
import { CODE_VERSION, Quantizer } from './quantizer';
import { HammingScan } from './scan/hamming';
import { SearchIndex, writeEntryBatch } from './search-index';

let dir: string;
let store: Store;
const pm = { actor: 'pm' as const };
const note = (id: string, title: string, body: string, status = 'active') => `# ${id} — ${title}\nstatus: ${status}\n---\n${body}\n`;

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'forge-blocks-'));
  store = Store.open(join(dir, 'forge.db'));
});
afterEach(() => {
  store.close();
  rmSync(dir, { recursive: true, force: true });
});

const fsWith = (index: SearchIndex) => new ForgeFS({ store, skillsDir: join(dir, 'skills'), indexer: index });
const ridOf = (id: string) => (store.db.prepare('SELECT rid FROM memory_records WHERE id = ?').get(id) as { rid: number }).rid;

function randomUnit(seed: number, dims = 384): Float32Array {
  let s = seed;
  const v = new Float32Array(dims);
  for (let i = 0; i < dims; i++) {
    s = (s * 1103515245 + 12345) >>> 0;
    v[i] = s / 2 ** 32 - 0.5;
  }
  return l2normalize(v);
}

/** Counts the documents it is asked to embed (an upgrade must not re-embed). */
class CountingEmbedder implements Embedder {
  readonly inner = new HashNgramEmbedder();
  readonly id = this.inner.id;
  readonly dims = this.inner.dims;
  documents = 0;
  async embed(texts: string[], kind?: 'query' | 'document'): Promise<Float32Array[]> {
    if (kind === 'document') this.documents += texts.length;
    return this.inner.embed(texts);
  }
}

describe('the SIMD scan', () => {
  it('is used here, and finds exactly the slots the JS scan finds, in the same order, under every filter', () => {
    // If this fails, vector search returns other notes on machines with WebAssembly SIMD than without.
    expect(HammingScan.fits(24, 4)).toBe(true);
    const q = new Quantizer(384);
    const cats = ['views', 'observations', 'pk'];
    const statuses = ['active', 'closed'];
    const n = 3000;
    store.writeTransaction(() => {
      const rows = Array.from({ length: n }, (_, i) => ({
        rid: i + 1,
        category: cats[i % 3],
        status: statuses[(i >> 2) % 2],
        updated_at: new Date(Date.UTC(2026, 0, 1 + (i % 200))).toISOString(),
      }));
      writeEntryBatch(
        store.db,
        'e',
        rows,
        rows.map((_, i) => randomUnit(i + 1)),
        q,
      );
    });
    const simd = new BlockIndex(store.db);
    const js = new BlockIndex(store.db, { simd: false });
    expect(simd.size()).toBe(n);
    const filters = [
      { category: null, status: null, sinceDay: null },
      { category: 'views', status: 'active', sinceDay: null },
      { category: null, status: 'closed', sinceDay: 20_500 },
      { category: 'pk', status: null, sinceDay: null },
    ];
    for (let seed = 1; seed <= 12; seed++) {
      const code = q.encode(randomUnit(10_000 + seed));
      for (const f of filters) {
        for (const count of [10, 150, 400]) {
          const filter = { ...f, allowed: null, embedder: 'e' };
          const a = simd.nearest(code, count, filter);
          expect(a.length).toBeGreaterThan(0);
          expect(a).toEqual(js.nearest(code, count, filter));
        }
      }
    }
  });
});

describe('int8 vectors', () => {
  it('keep the direction: cosine with the float vector ≥ 0.999 (else rescoring reorders near neighbours)', () => {
    for (let seed = 1; seed < 20; seed++) {
      const v = randomUnit(seed);
      const { vector, norm } = quantizeInt8(v);
      let dot = 0;
      for (let i = 0; i < v.length; i++) dot += v[i] * vector[i];
      expect(dot * norm).toBeGreaterThan(0.999);
      expect(Math.max(...Array.from(vector, Math.abs))).toBe(127);
    }
  });

  it('a zero vector stores as zero with norm 0 (no NaN scores)', () => {
    expect(quantizeInt8(new Float32Array(8))).toEqual({ vector: new Int8Array(8), norm: 0 });
  });
});

describe('the vector blocks on disk', () => {
  it('a second process reads what the first wrote: same notes, same codes, same search results', async () => {
    const index = new SearchIndex(store.db, new HashNgramEmbedder());
    const fs = fsWith(index);
    await fs.writeFile('/memory/views/V-001.md', note('V-001', 'Gold miners rerating', 'Miners lag bullion.'), pm);
    await fs.writeFile('/memory/views/V-002.md', note('V-002', 'Short Aussie dollar', 'Terms of trade falling.'), pm);
    const before = await index.search({ query: 'gold miners', mode: 'vector', weights: { semantic: 1, recency: 0 } });
    const fresh = new BlockIndex(store.db);
    expect(fresh.size()).toBe(2);
    expect(fresh.codeOf(ridOf('V-001'))).toEqual(index.blocks.codeOf(ridOf('V-001')));
    const again = new SearchIndex(store.db, new HashNgramEmbedder());
    const after = await again.search({ query: 'gold miners', mode: 'vector', weights: { semantic: 1, recency: 0 } });
    expect(after.results.map((r) => [r.id, r.vector])).toEqual(before.results.map((r) => [r.id, r.vector]));
    expect(after.results[0].id).toBe('V-001');
  });

  it('a new workspace searched before its first note finds that note by meaning once it is written', async () => {
    const index = new SearchIndex(store.db, new HashNgramEmbedder());
    index.warm();
    expect((await index.search({ query: 'gold miners', mode: 'vector' })).results).toEqual([]);
    await fsWith(index).writeFile('/memory/views/V-001.md', note('V-001', 'Gold miners rerating', 'Miners lag bullion.'), pm);
    expect((await index.search({ query: 'gold miners', mode: 'vector' })).results[0]?.id).toBe('V-001');
  });

  it("a deleted note's slot is reused, so a workspace that churns notes does not grow its blocks", async () => {
    const index = new SearchIndex(store.db, new HashNgramEmbedder());
    const fs = fsWith(index);
    for (let i = 1; i <= 5; i++) await fs.writeFile(`/memory/observations/O-00${i}.md`, note(`O-00${i}`, `Note ${i}`, `Body ${i}`), pm);
    const slotOf = (id: string) => (store.db.prepare('SELECT slot FROM search_entries WHERE rid = ?').get(ridOf(id)) as { slot: number }).slot;
    const freed = slotOf('O-003');
    await fs.deleteFile('/memory/observations/O-003.md', pm);
    expect(store.db.prepare('SELECT slot FROM search_free_slots').all()).toEqual([{ slot: freed }]);
    await fs.writeFile('/memory/observations/O-006.md', note('O-006', 'Copper squeeze', 'LME stocks fell.'), pm);
    expect(slotOf('O-006')).toBe(freed);
    expect(store.db.prepare('SELECT count(*) AS n FROM search_free_slots').get()).toEqual({ n: 0 });
    expect((await index.search({ query: 'copper squeeze', mode: 'vector' })).results[0].id).toBe('O-006');
    expect((await index.search({ query: 'note 3', mode: 'vector', maxResults: 10 })).results.map((r) => r.id)).not.toContain('O-003');
  });

  it('spans several blocks: a note in the third block is found, and every note is held once', async () => {
    const index = new SearchIndex(store.db, new HashNgramEmbedder());
    const e = new HashNgramEmbedder();
    const n = BLOCK_SLOTS * 2 + 10;
    store.writeTransaction(() => {
      const rows = Array.from({ length: n }, (_, i) => {
        const id = `O-${String(i + 1).padStart(4, '0')}`;
        const at = '2026-05-01T00:00:00.000Z';
        const body = i === n - 1 ? 'Henry Hub gas storage surprise draw' : `routine note number ${i}`;
        const { rid } = store.records.upsert(plainRecord({ category: 'observations', id, title: `Observation ${i}`, body, at }));
        return { rid, category: 'observations', status: 'active', updated_at: at };
      });
      const texts = rows.map((_, i) => (i === n - 1 ? 'Henry Hub gas storage surprise draw' : `routine note number ${i}`));
      index.blocks.touch(
        writeEntryBatch(
          store.db,
          e.id,
          rows,
          texts.map((t) => e.embedOne(t)),
          index.quantizer,
        ),
      );
    });
    expect((store.db.prepare('SELECT count(*) AS n FROM search_blocks').get() as { n: number }).n).toBe(3);
    expect(index.blocks.size()).toBe(n);
    const r = await index.search({ query: 'gas storage draw', mode: 'vector' });
    expect(r.results[0].id).toBe(`O-${String(n).padStart(4, '0')}`);
  });

  describe('read in steps at start (warmInSteps)', () => {
    const e = new HashNgramEmbedder();
    /** Writes `n` notes in one transaction; the last says something no other note does. */
    function writeNotes(index: SearchIndex, n: number, from = 0, last = 'Henry Hub gas storage surprise draw'): void {
      store.writeTransaction(() => {
        const rows = Array.from({ length: n }, (_, i) => {
          const id = `O-${String(from + i + 1).padStart(4, '0')}`;
          const at = '2026-05-01T00:00:00.000Z';
          const { rid } = store.records.upsert(plainRecord({ category: 'observations', id, title: `Observation ${from + i}`, body: 'x', at }));
          return { rid, category: 'observations', status: 'active', updated_at: at };
        });
        const texts = rows.map((_, i) => (i === n - 1 ? last : `routine note number ${from + i}`));
        const blocks = writeEntryBatch(
          store.db,
          e.id,
          rows,
          texts.map((t) => e.embedOne(t)),
          index.quantizer,
        );
        index.blocks.touch(blocks);
      });
    }
    const n = BLOCK_SLOTS * 3 + 10;
    /** Writes n notes, then opens the index as the app does at start, reading one block a step. */
    function reopenedWithSteps(): SearchIndex {
      writeNotes(new SearchIndex(store.db, e), n);
      const index = new SearchIndex(store.db, e);
      (index as unknown as { blocks: BlockIndex }).blocks = new BlockIndex(store.db, { warmStepBlocks: 1 });
      return index;
    }

    it('yields to the app between steps (a large memory never freezes it at start) and ends holding every note', async () => {
      writeNotes(new SearchIndex(store.db, e), n);
      const fresh = new BlockIndex(store.db, { warmStepBlocks: 1 });
      let pauses = 0;
      await fresh.warmInSteps(async () => {
        pauses++;
      });
      // Four blocks, one a step: three pauses in which the app answers other requests.
      expect(pauses).toBe(3);
      expect(fresh.size()).toBe(n);
    });

    it('a search that arrives mid-warm answers from every note, and a note written mid-warm is found after', async () => {
      const index = reopenedWithSteps();
      let pauses = 0;
      await index.warmInBackground(async () => {
        if (++pauses > 1) return;
        // The PM searches before the index has finished loading (it reads every block at once, and
        // the warm, overtaken, stops); then the analyst writes a note.
        const r = await index.search({ query: 'gas storage draw', mode: 'vector' });
        expect(r.results[0].id).toBe(`O-${String(n).padStart(4, '0')}`);
        writeNotes(index, 1, n, 'Copper inventories at a record low');
      });
      expect(pauses).toBe(1);
      expect(index.blocks.size()).toBe(n + 1);
      expect((await index.search({ query: 'copper inventories record low', mode: 'vector' })).results[0].id).toBe(`O-${String(n + 1).padStart(4, '0')}`);
    });

    it('a note written between steps is held once the warm ends, with no search in between', async () => {
      const index = reopenedWithSteps();
      let step = 0;
      await index.warmInBackground(async () => {
        if (++step === 1) writeNotes(index, 1, n, 'Copper inventories at a record low');
      });
      expect(index.blocks.size()).toBe(n + 1);
      expect((await index.search({ query: 'copper inventories record low', mode: 'vector' })).results[0].id).toBe(`O-${String(n + 1).padStart(4, '0')}`);
    });
  });

  it('a rolled-back write leaves memory and disk as they were (no half-indexed note)', async () => {
    const index = new SearchIndex(store.db, new HashNgramEmbedder());
    const fs = fsWith(index);
    await fs.writeFile('/memory/views/V-001.md', note('V-001', 'Gold miners rerating', 'Miners lag bullion.'), pm);
    const e = new HashNgramEmbedder();
    expect(() =>
      store.writeTransaction(() => {
        index.blocks.touch(
          writeEntryBatch(
            store.db,
            e.id,
            [{ rid: 999, category: 'views', status: 'active', updated_at: '2026-01-01T00:00:00Z' }],
            [e.embedOne('x')],
            index.quantizer,
          ),
        );
        throw new Error('PM cancelled');
      }),
    ).toThrow('PM cancelled');
    expect(index.blocks.size()).toBe(1);
    expect(new BlockIndex(store.db).size()).toBe(1);
  });

  it('vectors of another embedder are not scored against this one (stale until the rebuild)', async () => {
    const index = new SearchIndex(store.db, new HashNgramEmbedder());
    await fsWith(index).writeFile('/memory/views/V-001.md', note('V-001', 'Gold miners', 'Miners lag bullion.'), pm);
    const other = { id: 'other-model', dims: 384, embed: async (t: string[]) => t.map((x) => new HashNgramEmbedder().embedOne(x)) };
    const switched = new SearchIndex(store.db, other);
    expect((await switched.search({ query: 'gold miners', mode: 'vector' })).results).toEqual([]);
    await switched.reindex();
    expect((await switched.search({ query: 'gold miners', mode: 'vector' })).results[0].id).toBe('V-001');
  });
});

describe('upgrades', () => {
  it('an index written before the blocks (float vectors per row) is converted on open, without re-embedding', async () => {
    const e = new HashNgramEmbedder();
    const index = new SearchIndex(store.db, e);
    await fsWith(index).writeFile('/memory/views/V-001.md', note('V-001', 'Yen carry unwind', 'USDJPY lower on BoJ.'), pm);
    await fsWith(index).writeFile('/memory/views/V-002.md', note('V-002', 'Bund curve steepener', 'Supply heavy.'), pm);
    // Put the database back in the pre-014 shape: a float32 vector per row and no blocks.
    store.db.transaction(() => {
      for (const r of store.db.prepare('SELECT rid, id, title, body FROM memory_records').all() as { rid: number; title: string; body: string }[]) {
        const v = e.embedOne(`${r.title} ${r.body}`);
        store.db.prepare('UPDATE search_entries SET vector = ?, slot = NULL WHERE rid = ?').run(Buffer.from(v.buffer), r.rid);
      }
      store.db.exec("DELETE FROM search_blocks; DELETE FROM search_state WHERE key IN ('block_dims', 'block_bits', 'block_code')");
    })();
    const counting = new CountingEmbedder();
    const upgraded = new SearchIndex(store.db, counting);
    expect(readLayout(store.db)).toEqual({ dims: 384, bits: 768 });
    expect(store.db.prepare('SELECT count(*) AS n FROM search_entries WHERE slot IS NULL OR length(vector) > 0').get()).toEqual({ n: 0 });
    expect((await upgraded.search({ query: 'yen carry', mode: 'vector' })).results[0].id).toBe('V-001');
    expect(counting.documents).toBe(0);
    expect(upgraded.status().stale).toBe(false);
  });

  it('codes written by an older quantiser are re-encoded from the stored vectors on open', async () => {
    const index = new SearchIndex(store.db, new HashNgramEmbedder());
    await fsWith(index).writeFile('/memory/views/V-001.md', note('V-001', 'Copper squeeze', 'LME stocks fell.'), pm);
    const good = index.blocks.codeOf(ridOf('V-001'));
    // The note's code sits in a slot patch (a single write), or in its block once folded: spoil both.
    store.db.exec(
      "UPDATE search_blocks SET codes = zeroblob(length(codes)); UPDATE search_slot_patches SET code = zeroblob(length(code)); UPDATE search_state SET value = 'old' WHERE key = 'block_code'",
    );
    const reopened = new SearchIndex(store.db, new HashNgramEmbedder());
    const now = reopened.blocks.codeOf(ridOf('V-001'))!;
    // From the int8 copy rather than the float: a handful of near-zero projections may flip.
    let differ = 0;
    for (let i = 0; i < now.length; i++) for (let b = 0; b < 8; b++) differ += ((now[i] ^ good![i]) >> b) & 1;
    expect(differ).toBeLessThan(16);
    expect((await reopened.search({ query: 'copper squeeze', mode: 'vector' })).results[0].id).toBe('V-001');
    expect(store.db.prepare("SELECT value FROM search_state WHERE key = 'block_code'").get()).toEqual({ value: CODE_VERSION });
  });
});
