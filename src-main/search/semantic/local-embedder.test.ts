import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dot } from '../embedder';
import { LocalModelEmbedder } from './local-embedder';
import { writeTinyModel } from './testing/tiny-model';

// A real ONNX model built by the test (see testing/onnx-writer.ts), loaded by transformers.js on
// onnxruntime-node inside the worker thread: the same load → tokenise → pool → normalise path
// all-MiniLM-L6-v2 takes, without downloading weights.
const root = mkdtempSync(join(tmpdir(), 'forge-semantic-'));
const folder = join(root, 'tiny-model');
let embedder: LocalModelEmbedder;

beforeAll(() => {
  writeTinyModel(folder, { words: ['cash', 'rates', 'bond', 'yields', 'curve', 'steepener'], synonyms: [['car', 'automobile']] });
  embedder = new LocalModelEmbedder({ folder, id: 'local-tiny-384', dims: 384 });
});

afterAll(async () => {
  await embedder.close();
  rmSync(root, { recursive: true, force: true });
});

const norm = (v: Float32Array) => Math.sqrt(dot(v, v));

describe('LocalModelEmbedder (tiny model in a worker thread)', () => {
  it('loads the model and returns unit-length 384-dimension vectors (else cosine scores would be skewed)', async () => {
    const [a, b] = await embedder.embed(['cash rates', 'bond yields curve']);
    expect(a).toBeInstanceOf(Float32Array);
    expect(a.length).toBe(384);
    expect(norm(a)).toBeCloseTo(1, 5);
    expect(norm(b)).toBeCloseTo(1, 5);
  });

  it('embeds identical texts identically and different texts differently (else search could not tell notes apart)', async () => {
    const [a, b, c] = await embedder.embed(['bond yields', 'bond yields', 'cash rates']);
    expect(Array.from(a)).toEqual(Array.from(b));
    expect(dot(a, c)).toBeLessThan(0.9);
  });

  it('gives a batch the same vectors as one-at-a-time calls (padding in a batch must not change a note’s vector)', async () => {
    const texts = ['cash', 'bond yields curve steepener', 'rates'];
    const batch = await embedder.embed(texts);
    for (let i = 0; i < texts.length; i++) {
      const [single] = await embedder.embed([texts[i]]);
      for (let d = 0; d < 384; d++) expect(batch[i][d]).toBeCloseTo(single[d], 5);
    }
  });

  it('embeds synonyms the model knows to the same point (the mean-pooled meaning, not the spelling)', async () => {
    const [car, automobile, cash] = await embedder.embed(['car', 'automobile', 'cash']);
    expect(dot(car, automobile)).toBeCloseTo(1, 5);
    expect(dot(car, cash)).toBeLessThan(0.5);
  });

  it('answers concurrent requests in order without mixing them up (the request queue)', async () => {
    const [x, y] = await Promise.all([embedder.embed(['cash']), embedder.embed(['bond'])]);
    const [cash, bond] = await embedder.embed(['cash', 'bond']);
    expect(dot(x[0], cash)).toBeCloseTo(1, 5);
    expect(dot(y[0], bond)).toBeCloseTo(1, 5);
  });

  it('keeps the main thread free while the worker embeds (the app must not freeze during a reindex)', async () => {
    let ticks = 0;
    const timer = setInterval(() => ticks++, 1);
    await embedder.embed(Array.from({ length: 400 }, (_, i) => `cash rates bond yields curve ${i % 7 === 0 ? 'steepener' : ''}`));
    clearInterval(timer);
    expect(ticks).toBeGreaterThan(0);
  });

  it('fails with a typed error (not a crash) when the folder holds no model', async () => {
    const broken = new LocalModelEmbedder({ folder: join(root, 'nothing-here'), id: 'local-missing-384', dims: 384 });
    const error = await broken.embed(['cash']).catch((e: unknown) => e);
    await broken.close();
    expect((error as { name: string }).name).toBe('EmbedderError');
    expect((error as { code: string }).code).toBe('unavailable');
    expect((error as Error).message).toMatch(/local model could not embed/);
  });

  it('refuses a model whose vectors are not the size the index expects', async () => {
    const wrong = new LocalModelEmbedder({ folder, id: 'local-tiny-512', dims: 512 });
    const error = await wrong.embed(['cash']).catch((e: unknown) => e);
    await wrong.close();
    expect((error as Error).message).toMatch(/384-dimension vectors, expected 512/);
  });
});
