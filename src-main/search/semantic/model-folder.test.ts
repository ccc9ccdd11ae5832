import { mkdirSync, mkdtempSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { dot } from '../embedder';
import { findInstalledModel } from './installed';
import { LocalModelEmbedder } from './local-embedder';
import { validateModelFolder } from './model-folder';
import { writeTinyModel } from './testing/tiny-model';

// Folders laid out as sentence-transformers publishes them (modules.json, 1_Pooling/config.json,
// config_sentence_transformers.json), holding the tiny real model the tests build.
const root = mkdtempSync(join(tmpdir(), 'forge-model-folder-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

let n = 0;
function folderWith(extra: Record<string, unknown>, options: { clsLike?: string; sepLike?: string } = {}): string {
  const folder = join(root, `model-${++n}`);
  writeTinyModel(folder, { words: ['cash', 'rates', 'bond', 'yields'], ...options });
  for (const [name, value] of Object.entries(extra)) {
    mkdirSync(join(folder, name, '..'), { recursive: true });
    writeFileSync(join(folder, name), JSON.stringify(value));
  }
  return folder;
}
const MODULES = [
  { idx: 0, name: '0', path: '', type: 'sentence_transformers.models.Transformer' },
  { idx: 1, name: '1', path: '1_Pooling', type: 'sentence_transformers.models.Pooling' },
  { idx: 2, name: '2', path: '2_Normalize', type: 'sentence_transformers.models.Normalize' },
];
const pooling = (mode: string) => ({ word_embedding_dimension: 384, [`pooling_mode_${mode}`]: true });

async function withEmbedder<T>(folder: string, fn: (e: LocalModelEmbedder) => Promise<T>): Promise<T> {
  const model = findInstalledModel(root, folder);
  if (!model) throw new Error(`${folder} was not taken as a model`);
  const embedder = new LocalModelEmbedder(model);
  try {
    return await fn(embedder);
  } finally {
    await embedder.close();
  }
}

describe('a sentence-transformers model folder', () => {
  it('without pooling settings (MiniLM as exported to ONNX) is averaged over its tokens, with no prompts', () => {
    expect(validateModelFolder(folderWith({}))).toMatchObject({ pooling: 'mean', prompts: { query: '', document: '' }, subfolder: 'onnx', dtype: 'q8' });
  });

  it("whose Pooling module says CLS (bge models) is pooled by its [CLS] token, not averaged (else its vectors would be another model's)", async () => {
    const cls = folderWith({ 'modules.json': MODULES, '1_Pooling/config.json': pooling('cls_token') }, { clsLike: 'bond' });
    expect(validateModelFolder(cls).pooling).toBe('cls');
    // Its vectors are not a mean-pooled model's: another embedder id, so an index is rebuilt, never mixed.
    expect(findInstalledModel(root, cls)?.id).toMatch(/^local-model-\d+-384-cls$/);
    await withEmbedder(cls, async (e) => {
      const [cash, rates] = await e.embed(['cash', 'rates yields']);
      // [CLS] carries the sentence for such a model: here it is the same token in both texts.
      expect(dot(cash, rates)).toBeCloseTo(1, 5);
    });
    const mean = folderWith({ 'modules.json': MODULES, '1_Pooling/config.json': pooling('mean_tokens') }, { clsLike: 'bond' });
    await withEmbedder(mean, async (e) => {
      const [cash, rates] = await e.embed(['cash', 'rates yields']);
      expect(dot(cash, rates)).toBeLessThan(0.9);
    });
  });

  it("whose Pooling module says last token takes each text's own last token, also in a batch of texts of different lengths", async () => {
    const folder = folderWith({ 'modules.json': MODULES, '1_Pooling/config.json': pooling('lasttoken') }, { sepLike: 'bond' });
    expect(validateModelFolder(folder).pooling).toBe('last_token');
    await withEmbedder(folder, async (e) => {
      // Every text ends in [SEP]: padded into one batch, the shorter text's last position would be padding.
      const [short, long] = await e.embed(['cash', 'rates yields cash rates yields']);
      expect(Math.sqrt(dot(short, short))).toBeCloseTo(1, 5);
      expect(dot(short, long)).toBeCloseTo(1, 5);
    });
  });

  it('with prompts (E5-style "query: ") puts the query prompt before queries only, and the document prompt before notes', async () => {
    const folder = folderWith({ 'config_sentence_transformers.json': { prompts: { query: 'bond ', passage: 'cash ' }, default_prompt_name: null } });
    expect(validateModelFolder(folder).prompts).toEqual({ query: 'bond ', document: 'cash ' });
    expect(findInstalledModel(root, folder)?.id).toMatch(/^local-model-\d+-384-p[0-9a-f]{8}$/);
    await withEmbedder(folder, async (e) => {
      const [asQuery] = await e.embed(['yields'], 'query');
      const [asNote] = await e.embed(['yields'], 'document');
      const [bondYields, cashYields] = await e.embed(['bond yields', 'cash yields'], 'document');
      // The document prompt was added to 'bond yields' too, so compare against a prompt-free folder.
      const plain = folderWith({});
      await withEmbedder(plain, async (p) => {
        const [expectedQuery, expectedNote] = await p.embed(['bond yields', 'cash yields']);
        expect(dot(asQuery, expectedQuery)).toBeCloseTo(1, 5);
        expect(dot(asNote, expectedNote)).toBeCloseTo(1, 5);
      });
      expect(dot(bondYields, cashYields)).toBeLessThan(1);
    });
  });

  it('with model.onnx beside config.json (a flat export) loads it from there', async () => {
    const folder = folderWith({});
    renameSync(join(folder, 'onnx', 'model_quantized.onnx'), join(folder, 'model.onnx'));
    rmSync(join(folder, 'onnx'), { recursive: true });
    expect(validateModelFolder(folder)).toMatchObject({ subfolder: '', dtype: 'fp32' });
    await withEmbedder(folder, async (e) => {
      const [v] = await e.embed(['cash rates']);
      expect(Math.sqrt(dot(v, v))).toBeCloseTo(1, 5);
    });
  });

  it('asking for a pooling Forge cannot run (max over tokens) is refused with a typed error that names it', () => {
    const folder = folderWith({ 'modules.json': MODULES, '1_Pooling/config.json': pooling('max_tokens') });
    expect(() => validateModelFolder(folder)).toThrow(
      expect.objectContaining({ code: 'invalid_input', message: expect.stringMatching(/pooling_mode_max_tokens/) }),
    );
    // Two modes at once make a vector of twice the size: refused rather than half-read.
    const both = folderWith({ 'modules.json': MODULES, '1_Pooling/config.json': { ...pooling('cls_token'), pooling_mode_mean_tokens: true } });
    expect(() => validateModelFolder(both)).toThrow(/pooling_mode_mean_tokens \+ pooling_mode_cls_token|pooling_mode_cls_token \+ pooling_mode_mean_tokens/);
  });

  it('with a pooling config that is not JSON is refused, naming the file', () => {
    const folder = folderWith({ 'modules.json': MODULES });
    mkdirSync(join(folder, '1_Pooling'), { recursive: true });
    writeFileSync(join(folder, '1_Pooling', 'config.json'), '{not json');
    expect(() => validateModelFolder(folder)).toThrow(/1_Pooling\/config.json/);
  });
});
