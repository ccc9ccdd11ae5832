import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { EventMessage } from '../../api/events';
import { EnvSecretStore } from '../../config/secrets';
import { MINILM_MANIFEST } from '../../search';
import { writeTinyModel } from '../../search/semantic/testing/tiny-model';
import { createCore, type Core } from '../core';

/**
 * Settings → Search through the real core: the local model's status, a folder pointed at by path,
 * the embedder choice, and the reindex that follows a switch. No weights can be downloaded here,
 * so the model is the tiny one the tests build (see search/semantic/testing).
 */
let dataDir: string;
let core: Core;
let events: EventMessage[];

beforeEach(() => {
  dataDir = mkdtempSync(join(tmpdir(), 'forge-search-model-'));
  core = createCore({ dataDir, mode: 'test', secrets: new EnvSecretStore({}) });
  events = [];
  core.context.events.subscribe((m) => events.push(m));
});

afterEach(async () => {
  await core.close();
  rmSync(dataDir, { recursive: true, force: true });
});

const ok = <T>(r: { ok: true; value: T } | { ok: false; error: { code: string; message: string } }): T => {
  if (!r.ok) throw new Error(`${r.error.code}: ${r.error.message}`);
  return r.value;
};

describe('search/model/* and search/embedder', () => {
  it('says "not installed" and uses the hashed embedder when no model is present (nothing pretends)', async () => {
    const status = ok(await core.invoke('search/model-status', {}));
    expect(status).toMatchObject({ model: 'all-MiniLM-L6-v2', installed: false, source: null, choice: 'auto', active: 'hash-ngram-384', downloading: false });
  });

  it('offers the download (the files are pinned) and refuses bytes that do not match the pins, installing nothing', async () => {
    expect(ok(await core.invoke('search/model-status', {})).downloadable).toBe(true);
    // A mirror serving the right sizes but the wrong bytes: a tampered or truncated copy.
    const sizes = new Map(MINILM_MANIFEST.files.map((f) => [`/${f.path}`, f.size ?? 0]));
    const server = createServer((req, res) => {
      const size = sizes.get(req.url ?? '');
      if (size === undefined) return void res.writeHead(404).end();
      res.writeHead(200, { 'content-length': String(size) }).end(Buffer.alloc(size, 7));
    });
    await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
    // The way a desk points Forge at its internal mirror.
    process.env.FORGE_MODEL_BASE_URL = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const mirrored = createCore({ dataDir: join(dataDir, 'mirrored'), mode: 'test', secrets: new EnvSecretStore({}) });
    delete process.env.FORGE_MODEL_BASE_URL;
    try {
      const r = await mirrored.invoke('search/model-download', {});
      expect(r.ok).toBe(false);
      if (!r.ok) expect(r.error.message).toMatch(/checksum|SHA-256|does not match/i);
      const status = ok(await mirrored.invoke('search/model-status', {}));
      expect(status.installed).toBe(false);
      expect(status.active).toBe('hash-ngram-384');
    } finally {
      await mirrored.close();
      server.close();
    }
  });

  it('a folder pointed at by path becomes the embedder, and a reindex moves every note to it', async () => {
    await core.invoke('memory/write', {
      path: '/memory/views/V-001.md',
      content: '# V-001 — Car sales rising\nstatus: active\n---\n## SUMMARY\nCar sales rising.\n',
    });
    const folder = join(dataDir, 'offline', 'minilm');
    writeTinyModel(folder, { words: ['sales', 'rising'], synonyms: [['car', 'automobile']] });
    const status = ok(await core.invoke('search/model-folder', { path: folder }));
    expect(status).toMatchObject({ installed: true, source: 'folder', folder, active: 'local-minilm-384' });
    expect(core.context.settings.get().semanticModelPath).toBe(folder);
    expect(ok(await core.invoke('search/status', {})).stale).toBe(true);
    const rebuilt = ok(await core.invoke('search/reindex', {}));
    expect(rebuilt.embedder).toBe('local-minilm-384');
    expect(events.some((e) => e.event === 'search/reindex-progress')).toBe(true);
    const found = ok(await core.invoke('memory/search', { scope: '/memory/', query: 'automobile', max_results: 3 }));
    expect(found.results[0]?.id).toBe('V-001');
  });

  it('refuses a folder without a model (naming what is missing) and does not save it', async () => {
    const r = await core.invoke('search/model-folder', { path: join(dataDir, 'empty') });
    expect(r.ok).toBe(false);
    if (!r.ok) {
      expect(r.error.code).toBe('invalid_input');
      expect(r.error.message).toMatch(/not a model folder/);
    }
    expect(core.context.settings.get().semanticModelPath).toBeUndefined();
  });

  it('choosing "keyword-like" uses the hashed embedder even with a model installed, and auto goes back to the model', async () => {
    const folder = join(dataDir, 'minilm');
    writeTinyModel(folder, { words: ['cash'] });
    ok(await core.invoke('search/model-folder', { path: folder }));
    expect(ok(await core.invoke('search/embedder', { embedder: 'hash' })).active).toBe('hash-ngram-384');
    expect(core.context.settings.get().searchEmbedder).toBe('hash');
    expect(ok(await core.invoke('search/embedder', { embedder: 'auto' })).active).toBe('local-minilm-384');
  });

  it('Cancel with no download running says so', async () => {
    expect(ok(await core.invoke('search/model-cancel', {}))).toEqual({ cancelled: false });
  });
});
