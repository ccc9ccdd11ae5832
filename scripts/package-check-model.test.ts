import { linkSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { parse } from 'yaml';
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LocalModelEmbedder } from '../src-main/search/semantic/local-embedder';
import { writeTinyModel } from '../src-main/search/semantic/testing/tiny-model';
import { WORKER_SOURCE } from '../src-main/search/semantic/worker-source';
import { checkTarget, type Target } from './package-check';

/**
 * The installers leave out onnxruntime-web, other platforms' onnxruntime binaries, transformers'
 * browser bundles and more. This stages exactly the node_modules files this machine's installer
 * would carry (hard links, so nothing is copied) and runs the app's own embedding worker against
 * them: if a filter dropped something transformers.js needs at run time, the model fails to load here.
 */
const root = join(__dirname, '..');
const hostOs = ({ linux: 'linux', darwin: 'mac', win32: 'win' } as const)[process.platform as 'linux' | 'darwin' | 'win32'];
const host: Target | undefined = hostOs ? { os: hostOs, arch: process.arch } : undefined;
const config = parse(readFileSync(join(root, 'electron-builder.yml'), 'utf8'));
const shipped = host && (config[host.os]?.target ?? []).some((t: { arch: string[] }) => t.arch.includes(host.arch));

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'forge-packaged-model-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe.runIf(shipped)('the local model loads from what this platform’s installer carries', () => {
  it('embeds with the packaged node_modules only (transformers.js, onnxruntime-node, the sharp stub)', async () => {
    const report = await checkTarget(root, config, host as Target, { requireBuilt: false });
    const staged = join(dir, 'app');
    for (const { path, source } of report.contents) {
      if (!path.startsWith('node_modules/') || !source) continue;
      mkdirSync(dirname(join(staged, path)), { recursive: true });
      linkSync(source, join(staged, path));
    }
    // sharp is the stub, and no sharp binary is there to be found instead.
    expect(JSON.parse(readFileSync(join(staged, 'node_modules/sharp/package.json'), 'utf8')).version).toBe('0.0.0-forge');
    expect(report.contents.filter((c) => c.path.startsWith('node_modules/@img/'))).toEqual([]);
    const transformers = join(staged, 'node_modules/@huggingface/transformers/dist/transformers.node.cjs');
    const folder = join(dir, 'tiny-model');
    writeTinyModel(folder, { words: ['cash', 'rates', 'bond'], synonyms: [] });
    // The app's own worker, pointed at the staged transformers.js instead of the checkout's.
    const workerSource = WORKER_SOURCE.replace('workerData.transformersPath', JSON.stringify(transformers));
    expect(workerSource).not.toBe(WORKER_SOURCE);
    const embedder = new LocalModelEmbedder({ folder, id: 'local-tiny-384', dims: 384, workerSource });
    try {
      // If this fails, the installed app's meaning search cannot load its model ("Cannot find module …").
      const [v] = await embedder.embed(['cash rates']);
      expect(v).toHaveLength(384);
      expect(Math.abs(v.reduce((a, x) => a + x * x, 0) - 1)).toBeLessThan(1e-3);
    } finally {
      await embedder.close();
    }
  }, 300_000);
});
