import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ForgeFS } from '../../fs';
import { Store } from '../../store';
import { MAX_EMBED_ATTEMPTS } from '../embed-queue';
import { OpenAICompatibleEmbedder } from '../http-embedder';
import { SearchIndex } from '../search-index';
import { LocalModelEmbedder, type LocalModelEmbedderOptions } from './local-embedder';
import { writeTinyModel } from './testing/tiny-model';
import { WORKER_SOURCE } from './worker-source';

/*
 * Issue 26: a local model that hangs stalled every memory write (no timeout), and one note the
 * model cannot embed kept every note queued behind it from its vector. These run the real worker
 * thread and the tiny ONNX model; the worker is wrapped so one text blocks the thread for good (a
 * native call that never returns) and another fails the way a tokenizer error does.
 */

const HANG = 'hangs-the-model';
const POISON = 'poisons-the-model';
const WRAPPED_WORKER = `
const port = require('node:worker_threads').parentPort;
const realOn = port.on.bind(port);
port.on = (event, handler) => realOn(event, event !== 'message' ? handler : (msg) => {
  if (msg.texts.some((t) => t.includes('${HANG}'))) {
    const cell = new Int32Array(new SharedArrayBuffer(4));
    for (;;) Atomics.wait(cell, 0, 0);
  }
  if (msg.texts.some((t) => t.includes('${POISON}'))) return port.postMessage({ id: msg.id, error: 'the tokenizer cannot read this text' });
  handler(msg);
});
${WORKER_SOURCE}`;

const root = mkdtempSync(join(tmpdir(), 'forge-model-stall-'));
const folder = join(root, 'tiny-model');
let dir: string;
let store: Store;
const embedders: LocalModelEmbedder[] = [];

beforeAll(() => writeTinyModel(folder, { words: ['cash', 'rates', 'bond', 'yields', 'curve', 'steepener'] }));
afterAll(() => rmSync(root, { recursive: true, force: true }));
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'forge-model-stall-ws-'));
  store = Store.open(join(dir, 'forge.db'));
});
afterEach(async () => {
  for (const e of embedders.splice(0)) await e.close();
  store.close();
  rmSync(dir, { recursive: true, force: true });
});

function model(o: Partial<LocalModelEmbedderOptions> = {}): LocalModelEmbedder {
  // Generous: loading the model on a machine at load 10 must not read as a hang.
  const e = new LocalModelEmbedder({ folder, id: 'local-tiny-384', dims: 384, workerSource: WRAPPED_WORKER, timeoutMs: 8000, ...o });
  embedders.push(e);
  return e;
}

const pm = { actor: 'pm' as const };
const view = (id: string, body: string) => `# ${id} — ${id} note\nstatus: active\nconfidence: 0.6\n---\n## SUMMARY\n${body}\n`;
const queue = () =>
  store.db.prepare('SELECT id, attempts, last_error FROM search_queue ORDER BY id').all() as { id: string; attempts: number; last_error: string }[];

describe('a hung local model', () => {
  it('does not stall a memory write: the note is saved and keyword-searchable, the worker is replaced, and status says what happened', async () => {
    const embedder = model();
    const index = new SearchIndex(store.db, embedder);
    const fs = new ForgeFS({ store, skillsDir: join(dir, 'skills'), indexer: index });
    await fs.writeFile('/memory/views/V-001.md', view('V-001', 'cash rates'), pm);
    expect(index.status().indexed).toBe(1);

    // Before the fix this write waited forever on the blocked thread.
    await fs.writeFile('/memory/views/V-002.md', view('V-002', `curve steepener ${HANG}`), pm);
    expect(fs.exists('/memory/views/V-002.md')).toBe(true);
    expect(queue().map((q) => q.id)).toEqual(['V-002']);
    const status = index.status();
    expect(status.modelStall).toMatchObject({ timeoutMs: 8000, restarts: 1, recovered: false });
    expect(status.modelStall?.message).toContain('stopped answering (no answer in 8 s)');

    // While it is out, writes do not wait again: queued at once.
    await fs.writeFile('/memory/views/V-003.md', view('V-003', 'bond yields'), pm);
    expect(queue().map((q) => q.id)).toEqual(['V-002', 'V-003']);

    // A search does not wait on it either: keyword results, and it says why.
    const hits = await index.search({ scope: '/memory/', query: 'steepener' });
    expect(hits.results.map((h) => h.id)).toContain('V-002');
    expect(hits.degraded).toContain('stopped answering');

    // A fresh worker answers (the old thread is still blocked: it was let go, not waited on).
    const [v] = await embedder.embed(['bond yields']);
    expect(v.length).toBe(384);
    expect(index.status().modelStall?.recovered).toBe(true);
  }, 120_000);
});

describe('a note the model cannot embed', () => {
  it('no longer holds back the notes queued behind it; it is parked after repeated failures, listed, and Retry queues it again', async () => {
    // Notes written while the model could not load at all are queued for later.
    const broken = model({ folder: join(root, 'no-such-model'), workerSource: undefined });
    const index = new SearchIndex(store.db, broken);
    const fs = new ForgeFS({ store, skillsDir: join(dir, 'skills'), indexer: index });
    await fs.writeFile('/memory/views/V-001.md', view('V-001', `cash ${POISON}`), pm);
    for (const id of ['V-002', 'V-003', 'V-004']) await fs.writeFile(`/memory/views/${id}.md`, view(id, 'bond yields curve'), pm);
    expect(queue()).toHaveLength(4);

    index.useEmbedder(model());
    const first = await index.drainQueue();
    // Before the fix the whole batch failed: none of the three good notes got a vector.
    expect(first.indexed).toBe(3);
    expect(queue()).toEqual([{ id: 'V-001', attempts: 1, last_error: expect.stringContaining('the tokenizer cannot read this text') }]);

    for (let i = 1; i < MAX_EMBED_ATTEMPTS; i++) await index.drainQueue();
    const parked = index.status();
    expect([parked.queued, parked.parked]).toEqual([0, 1]);
    expect(parked.parkedNotes).toEqual([
      expect.objectContaining({ category: 'views', id: 'V-001', attempts: MAX_EMBED_ATTEMPTS, lastError: expect.stringContaining('tokenizer') }),
    ]);
    // Parked: a later pass leaves it alone.
    await index.drainQueue();
    expect(queue()[0]!.attempts).toBe(MAX_EMBED_ATTEMPTS);

    expect(index.retryParked()).toBe(1);
    expect([index.status().queued, index.status().parked]).toEqual([1, 0]);
    // Rewritten without the bad text, it embeds.
    await fs.writeFile('/memory/views/V-001.md', view('V-001', 'cash'), pm);
    expect(queue()).toEqual([]);
    expect(index.status().indexed).toBe(4);
  }, 120_000);
});

describe('a rebuild with a note the model cannot embed', () => {
  it('finishes: the other notes get their vectors and the bad one waits in the queue with its error', async () => {
    // Before, the whole rebuild failed at that note's batch, and the PM could never finish it.
    const index = new SearchIndex(store.db, model());
    const fs = new ForgeFS({ store, skillsDir: join(dir, 'skills'), indexer: index });
    await fs.writeFile('/memory/views/V-001.md', view('V-001', 'cash rates'), pm);
    await fs.writeFile('/memory/views/V-002.md', view('V-002', 'bond yields'), pm);
    // Written while another embedder was in use; the rebuild meets the bad text then.
    index.useEmbedder(model({ id: 'local-tiny-b-384' }));
    await fs.writeFile('/memory/views/V-003.md', view('V-003', `curve ${POISON}`), pm);
    const r = await index.reindex();
    expect([r.done, r.total]).toEqual([3, 3]);
    expect(store.db.prepare("SELECT count(*) AS n FROM search_entries WHERE embedder = 'local-tiny-b-384'").get()).toEqual({ n: 2 });
    expect(queue()).toEqual([{ id: 'V-003', attempts: 1, last_error: expect.stringContaining('tokenizer') }]);
  }, 120_000);
});

describe('an embedding provider that is down', () => {
  it('parks nothing: an outage is no note’s fault, so the notes wait with the error and no attempt counted', async () => {
    // If this failed, a few hours offline would park every note written meanwhile.
    const server = createServer((_req, res) => {
      res.writeHead(503, { 'content-type': 'text/plain' });
      res.end('overloaded');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const down = new OpenAICompatibleEmbedder({
        apiKey: 'sk-test',
        baseURL: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`,
        maxRetries: 0,
      });
      const index = new SearchIndex(store.db, down);
      const fs = new ForgeFS({ store, skillsDir: join(dir, 'skills'), indexer: index });
      for (const id of ['V-001', 'V-002']) await fs.writeFile(`/memory/views/${id}.md`, view(id, 'bond yields'), pm);
      for (let i = 0; i < MAX_EMBED_ATTEMPTS + 1; i++) await index.drainQueue();
      expect(queue()).toEqual([
        { id: 'V-001', attempts: 0, last_error: expect.stringContaining('HTTP 503') },
        { id: 'V-002', attempts: 0, last_error: expect.stringContaining('HTTP 503') },
      ]);
      expect(index.status().parked).toBe(0);
    } finally {
      server.close();
    }
  }, 60_000);
});
