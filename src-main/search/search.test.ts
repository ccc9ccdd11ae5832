import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ForgeFS } from '../fs';
import { Store } from '../store';
import { l2normalize, type Embedder } from './embedder';
import { HashNgramEmbedder, tokenize } from './hash-embedder';
import { BlockIndex } from './block-store';
import { OpenAICompatibleEmbedder } from './http-embedder';
import { SearchIndex } from './search-index';

let dir: string;
let store: Store;
let clock: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'forge-search-'));
  store = Store.open(join(dir, 'forge.db'));
  clock = '2026-06-01T12:00:00.000Z';
});
afterEach(() => {
  store.close();
  rmSync(dir, { recursive: true, force: true });
});

function fsWith(index: SearchIndex) {
  return new ForgeFS({ store, skillsDir: join(dir, 'skills'), indexer: index, now: () => clock });
}
const pm = { actor: 'pm' as const };
const view = (id: string, title: string, status: string, body: string, extra = '') =>
  `# ${id} — ${title}\nstatus: ${status}\nconfidence: 0.6\nscope: global rates\n${extra}---\n## SUMMARY\n${body}\n`;
const pk = (id: string, title: string, weight: number, body: string) => `# ${id} — ${title}\nweight: ${weight}\ncategory: sizing\n---\n## LESSON\n${body}\n`;

describe('index maintenance in the write transaction', () => {
  it('a saved View is searchable at once, with its path, header lines and component scores', async () => {
    const index = new SearchIndex(store.db, new HashNgramEmbedder());
    const fs = fsWith(index);
    await fs.writeFile('/memory/views/V-001.md', view('V-001', 'Curve steepener into Fed cuts', 'active', '2s10s steepens as the Fed cuts.'), pm);
    await fs.writeFile('/memory/views/V-002.md', view('V-002', 'Long copper on China stimulus', 'active', 'LME inventories falling.'), pm);
    const r = await index.search({ scope: '/memory/views/', query: 'curve steepener', now: new Date(clock) });
    expect(r.results[0].path).toBe('/memory/views/V-001.md');
    expect(r.results[0].header.split('\n')[0]).toBe('# V-001 — Curve steepener into Fed cuts');
    expect(r.results[0].keyword).toBeGreaterThan(0);
    expect(r.results[0].vector).toBeGreaterThan(r.results[1]?.vector ?? 0);
    expect(r.formatted).toMatch(/^Search: 'curve steepener' in \/memory\/views\/ \(2 results\)\n\n {2}\[\d\.\d\d\] \/memory\/views\/V-001\.md\n# V-001/);
    const row = store.db.prepare('SELECT embedder FROM search_entries').all();
    expect(row).toEqual([{ embedder: 'hash-ngram-384' }, { embedder: 'hash-ngram-384' }]);
  });

  it('if the index write fails, the memory write is rolled back too (nothing half-saved)', async () => {
    const index = new SearchIndex(store.db, new HashNgramEmbedder());
    const fs = fsWith(index);
    store.db.exec('DROP TABLE search_blocks');
    await expect(fs.writeFile('/memory/views/V-001.md', view('V-001', 'Short duration', 'active', 'x'), pm)).rejects.toThrow();
    expect(fs.exists('/memory/views/V-001.md')).toBe(false);
  });

  it('a deleted record disappears from search results', async () => {
    const index = new SearchIndex(store.db, new HashNgramEmbedder());
    const fs = fsWith(index);
    await fs.writeFile('/memory/views/V-001.md', view('V-001', 'Yen carry unwind', 'active', 'USDJPY lower.'), pm);
    await fs.deleteFile('/memory/views/V-001.md', pm);
    const r = await index.search({ scope: '/memory/', query: 'yen carry' });
    expect(r.results).toEqual([]);
    expect(r.formatted).toBe("No results found in /memory/ for 'yen carry'");
    expect(store.db.prepare('SELECT count(*) AS n FROM search_entries').get()).toEqual({ n: 0 });
  });
});

describe('the in-memory bit codes stay in step with the database', () => {
  it('a rolled-back rewrite leaves search finding the committed text, and memory matches the blocks on disk', async () => {
    const index = new SearchIndex(store.db, new HashNgramEmbedder());
    const fs = fsWith(index);
    await fs.writeFile('/memory/views/V-001.md', view('V-001', 'Gold miners rerating', 'active', 'Gold miners lag bullion.'), pm);
    await fs.writeFile('/memory/views/V-002.md', view('V-002', 'Short Aussie dollar', 'active', 'AUD terms of trade falling.'), pm);
    expect((await index.search({ scope: '/memory/', query: 'gold miners' })).results[0].id).toBe('V-001');
    const before = index.blocks.codeOf((store.db.prepare("SELECT rid FROM memory_records WHERE id = 'V-001'").get() as { rid: number }).rid);
    const rewrite = view('V-001', 'Aussie dollar terms of trade', 'active', 'AUD lower.');
    await expect(
      fs.transaction(
        (tx) => {
          tx.writeFile('/memory/views/V-001.md', rewrite, pm);
          throw new Error('PM cancelled');
        },
        { prepare: [{ path: '/memory/views/V-001.md', content: rewrite }] },
      ),
    ).rejects.toThrow('PM cancelled');
    const rid = (store.db.prepare("SELECT rid FROM memory_records WHERE id = 'V-001'").get() as { rid: number }).rid;
    // What a fresh process would read from the blocks on disk.
    const stored = () => new BlockIndex(store.db).codeOf(rid);
    expect(index.blocks.codeOf(rid)).toEqual(stored());
    // A committed rewrite is picked up too.
    await fs.writeFile('/memory/views/V-001.md', view('V-001', 'Gold miners rerating', 'active', 'Gold miners lag bullion; adding.'), pm);
    expect(index.blocks.codeOf(rid)).toEqual(stored());
    const after = await index.search({ scope: '/memory/', query: 'gold miners', mode: 'vector', weights: { semantic: 1, recency: 0 } });
    expect(after.results[0].id).toBe('V-001');
    expect(after.results[0].title).toBe('Gold miners rerating');
    expect(before).not.toBeNull();
  });
});

describe('ranking', () => {
  it('blends recency: of two equally relevant notes the newer ranks first, by the 1/(1+age/30) rule', async () => {
    const index = new SearchIndex(store.db, new HashNgramEmbedder());
    const fs = fsWith(index);
    clock = '2026-01-01T00:00:00.000Z';
    await fs.writeFile('/memory/observations/O-001.md', `# O-001 — Bund swap spreads tighten\nsource: desk\n---\nBund swap spreads tighter again.\n`, pm);
    clock = '2026-05-31T00:00:00.000Z';
    await fs.writeFile('/memory/observations/O-002.md', `# O-002 — Bund swap spreads tighten\nsource: desk\n---\nBund swap spreads tighter again.\n`, pm);
    const r = await index.search({ scope: '/memory/observations/', query: 'bund swap spreads', now: new Date('2026-06-30T00:00:00.000Z') });
    expect(r.results.map((x) => x.id)).toEqual(['O-002', 'O-001']);
    expect(r.results[0].recency).toBeCloseTo(1 / (1 + 30 / 30), 3);
    expect(r.results[1].recency).toBeCloseTo(1 / (1 + 180 / 30), 3);
    expect(r.results[0].score).toBeCloseTo(0.7 * r.results[0].semantic + 0.3 * r.results[0].recency, 3);
    // With recency weighted out, the two (differing only by id) are near-tied on meaning alone.
    const flat = await index.search({ scope: '/memory/observations/', query: 'bund swap spreads', weights: { semantic: 1, recency: 0 } });
    expect(Math.abs(flat.results[0].semantic - flat.results[1].semantic)).toBeLessThan(0.02);
  });

  it('applies filters: status pushed into sqlite-vec, weight>= checked in SQL, scope by folder', async () => {
    const index = new SearchIndex(store.db, new HashNgramEmbedder());
    const fs = fsWith(index);
    await fs.writeFile('/memory/views/V-001.md', view('V-001', 'Oil upside on OPEC cuts', 'active', 'Brent backwardation.'), pm);
    await fs.writeFile('/memory/views/V-002.md', view('V-002', 'Oil downside on demand', 'closed', 'Brent contango.'), pm);
    await fs.writeFile('/memory/pk/PK-001.md', pk('PK-001', 'Size oil trades smaller', 0.8, 'Oil gaps on OPEC headlines.'), pm);
    await fs.writeFile('/memory/pk/PK-002.md', pk('PK-002', 'Oil stops too tight', 0.2, 'Oil stops get run.'), pm);
    const active = await index.search({ scope: '/memory/views/', query: 'oil brent', filters: 'status:active' });
    expect(active.results.map((x) => x.id)).toEqual(['V-001']);
    const heavy = await index.search({ scope: '/memory/pk/', query: 'oil', filters: 'weight>=0.4' });
    expect(heavy.results.map((x) => x.id)).toEqual(['PK-001']);
    const all = await index.search({ scope: '/memory/', query: 'oil', maxResults: 10 });
    expect(all.results.map((x) => x.id).sort()).toEqual(['PK-001', 'PK-002', 'V-001', 'V-002']);
    const byId = await index.search({ scope: '/memory/pk/PK-00', query: 'oil', maxResults: 10 });
    expect(byId.results.every((x) => x.category === 'pk')).toBe(true);
  });

  it('a status change moves the record in or out of a status filter', async () => {
    const index = new SearchIndex(store.db, new HashNgramEmbedder());
    const fs = fsWith(index);
    await fs.writeFile('/memory/views/V-001.md', view('V-001', 'Gold breakout', 'active', 'Real yields falling.'), pm);
    await fs.writeFile('/memory/views/V-001.md', view('V-001', 'Gold breakout', 'closed', 'Real yields falling.'), pm);
    const r = await index.search({ scope: '/memory/views/', query: 'gold', filters: 'status:active' });
    expect(r.results).toEqual([]);
    const closed = await index.search({ scope: '/memory/views/', query: 'gold', filters: 'status:closed' });
    expect(closed.results.map((x) => x.id)).toEqual(['V-001']);
  });
});

describe('bad input never escapes as an unexpected exception', () => {
  const cases: [string, Record<string, unknown>, RegExp][] = [
    ['empty query', { scope: '/memory/', query: '   ' }, /empty/],
    ['100 KB query', { scope: '/memory/', query: 'rates '.repeat(17_000) }, /characters long/],
    ['unknown scope', { scope: '/memory/nonsense/', query: 'rates' }, /no memory folder "nonsense"/],
    ['scope outside memory', { scope: '/etc/', query: 'rates' }, /not a search scope/],
    ['filter syntax error', { scope: '/memory/', query: 'rates', filters: 'weight>=heavy' }, /column 9.*not a number/],
    ['punctuation only', { scope: '/memory/', query: '?!#' }, /no words/],
  ];
  for (const [name, req, msg] of cases) {
    it(`${name} → invalid_input with a message that says what to do`, async () => {
      const index = new SearchIndex(store.db, new HashNgramEmbedder());
      const err = await index.search(req as never).catch((e) => e);
      expect(err.code).toBe('invalid_input');
      expect(err.message).toMatch(msg);
    });
  }

  it('text with lone surrogates or control characters is cleaned and searched', async () => {
    const index = new SearchIndex(store.db, new HashNgramEmbedder());
    const fs = fsWith(index);
    await fs.writeFile('/memory/views/V-001.md', view('V-001', 'Swiss franc strength', 'active', 'SNB intervention.'), pm);
    const r = await index.search({ scope: '/memory/', query: 'swiss\uD800 franc\u0001' });
    expect(r.query).toBe('swiss franc');
    expect(r.results[0].id).toBe('V-001');
  });
});

describe('a failing embedder keeps writes safe and queues re-embedding', () => {
  let server: Server;
  let failing = true;
  afterEach(async () => {
    server.closeAllConnections();
    await new Promise((r) => server.close(r));
  });

  it('HTTP 500 on write: the note is saved, queued, keyword-searchable, and indexed once the provider recovers', async () => {
    failing = true;
    server = createServer((req, res) => {
      let raw = '';
      req.on('data', (c) => (raw += c));
      req.on('end', () => {
        if (failing) return void res.writeHead(500).end('{"error":"down"}');
        const body = JSON.parse(raw);
        const local = new HashNgramEmbedder(16);
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ data: body.input.map((t: string, i: number) => ({ index: i, embedding: Array.from(local.embedOne(t)) })) }));
      });
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
    const embedder = new OpenAICompatibleEmbedder({ apiKey: 'k', baseURL: base, dims: 16, maxRetries: 1, retryBaseMs: 1 });
    const index = new SearchIndex(store.db, embedder);
    const fs = fsWith(index);
    await fs.writeFile('/memory/views/V-001.md', view('V-001', 'EM FX carry basket', 'active', 'Long MXN BRL vs funding in JPY.'), pm);
    expect(fs.exists('/memory/views/V-001.md')).toBe(true);
    expect(index.status()).toMatchObject({ queued: 1, indexed: 0, embedder: 'openai:text-embedding-3-small:16' });
    expect(index.status().lastError).toMatch(/HTTP 500/);

    const degraded = await index.search({ scope: '/memory/', query: 'carry basket' });
    expect(degraded.results.map((x) => x.id)).toEqual(['V-001']);
    expect(degraded.degraded).toMatch(/keywords only/);

    expect((await index.drainQueue()).indexed).toBe(0);
    failing = false;
    expect(await index.drainQueue()).toEqual({ indexed: 1, remaining: 0 });
    expect(index.status()).toMatchObject({ queued: 0, indexed: 1, stale: false });
    const full = await index.search({ scope: '/memory/', query: 'carry basket' });
    expect(full.degraded).toBeNull();
    expect(full.results[0].vector).toBeGreaterThan(0);
  });
});

describe('an embedder that never answers', () => {
  it('times out: the write still commits within a second and the note is queued for re-embedding', async () => {
    const server = createServer(() => {
      /* never replies */
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    try {
      const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
      const embedder = new OpenAICompatibleEmbedder({ apiKey: 'k', baseURL: base, dims: 16, timeoutMs: 150, maxRetries: 0 });
      const index = new SearchIndex(store.db, embedder);
      const fs = fsWith(index);
      const t0 = Date.now();
      await fs.writeFile('/memory/pk/PK-001.md', pk('PK-001', 'Do not chase gaps', 0.6, 'Wait for the first hour.'), pm);
      expect(Date.now() - t0).toBeLessThan(1000);
      expect(fs.readFile('/memory/pk/PK-001.md')).toMatch(/Do not chase gaps/);
      expect(index.status()).toMatchObject({ queued: 1, indexed: 0 });
      expect(index.status().lastError).toMatch(/did not answer within 150 ms/);
    } finally {
      server.closeAllConnections();
      await new Promise((r) => server.close(r));
    }
  });
});

describe('switching embedders', () => {
  it('marks the index stale until reindex rebuilds it, reporting progress to the end', async () => {
    const index = new SearchIndex(store.db, new HashNgramEmbedder());
    const fs = fsWith(index);
    for (let i = 1; i <= 5; i++)
      await fs.writeFile(`/memory/observations/O-00${i}.md`, `# O-00${i} — Note ${i}\nsource: desk\n---\nCredit spreads ${i}.\n`, pm);
    expect(index.status().stale).toBe(false);
    index.useEmbedder(new HashNgramEmbedder(256));
    expect(index.status()).toMatchObject({ stale: true, embedder: 'hash-ngram-256', indexed: 0 });
    const seen: number[] = [];
    const done = await index.reindex((p) => seen.push(p.done));
    expect(done).toEqual({ done: 5, total: 5, embedder: 'hash-ngram-256' });
    expect(seen[0]).toBe(0);
    expect(seen.at(-1)).toBe(5);
    expect(index.status()).toMatchObject({ stale: false, indexed: 5, dims: 256 });
    const r = await index.search({ scope: '/memory/', query: 'credit spreads 3' });
    expect(r.results[0].vector).toBeGreaterThan(0);
  });
});

/**
 * An embedder with known meaning: each word maps to a concept (central bank, easing, copper ...),
 * so "central bank loosening" means "Fed cuts" while sharing no word or stem with it. Words it
 * does not know carry no meaning at all, so they can be found by keyword only.
 */
class ConceptEmbedder implements Embedder {
  readonly id = 'test-concepts-16';
  readonly dims = 16;
  private static readonly concepts: Record<string, number> = {
    fed: 0,
    federal: 0,
    central: 0,
    bank: 0,
    fomc: 0,
    cuts: 1,
    cut: 1,
    easing: 1,
    loosening: 1,
    dovish: 1,
    curve: 2,
    steepener: 2,
    steepens: 2,
    '2s10s': 2,
    copper: 3,
    lme: 3,
    metals: 3,
    inventories: 3,
    china: 4,
    stimulus: 4,
    beijing: 4,
    oil: 5,
    brent: 5,
    crude: 5,
  };

  async embed(texts: string[]): Promise<Float32Array[]> {
    return texts.map((text) => {
      const v = new Float32Array(this.dims);
      for (const w of tokenize(text)) {
        const c = ConceptEmbedder.concepts[w];
        if (c !== undefined) v[c] += 1;
      }
      return l2normalize(v);
    });
  }
}

describe('hybrid search needs both halves', () => {
  async function seeded() {
    const index = new SearchIndex(store.db, new ConceptEmbedder());
    const fs = fsWith(index);
    await fs.writeFile('/memory/views/V-001.md', view('V-001', 'Curve steepener into Fed cuts', 'active', '2s10s steepens as the Fed cuts.'), pm);
    await fs.writeFile('/memory/views/V-002.md', view('V-002', 'Long copper on China stimulus', 'active', 'LME inventories falling.'), pm);
    // Written last, so with every score tied it would come last: only its keyword lifts it.
    await fs.writeFile('/memory/views/V-003.md', view('V-003', 'Brent backwardation', 'active', 'Backwardation in Brent deepens.'), pm);
    return index;
  }

  it('finds the Fed-cuts View from a paraphrase that shares no word with it, which keyword search alone cannot', async () => {
    const index = await seeded();
    const query = 'central bank loosening';
    const keywordOnly = await index.search({ scope: '/memory/views/', query, mode: 'keyword' });
    expect(keywordOnly.results.map((x) => x.id)).not.toContain('V-001'); // no shared word or stem
    const hybrid = await index.search({ scope: '/memory/views/', query, maxResults: 3 });
    expect(hybrid.results[0].id).toBe('V-001'); // the vector half found it
    expect(hybrid.results[0].vector).toBeGreaterThan(0.5);
    expect(hybrid.results[0].keyword).toBe(0);
  });

  it('finds a record by a word the embedder does not understand, which vector search alone cannot', async () => {
    const index = await seeded();
    const query = 'backwardation';
    const vectorOnly = await index.search({ scope: '/memory/views/', query, mode: 'vector', maxResults: 3 });
    expect(vectorOnly.results.every((x) => x.vector === 0)).toBe(true); // the word means nothing to it
    const hybrid = await index.search({ scope: '/memory/views/', query, maxResults: 3 });
    expect(hybrid.results[0].id).toBe('V-003'); // the keyword half found it
    expect(hybrid.results[0].keyword).toBe(1);
  });
});
