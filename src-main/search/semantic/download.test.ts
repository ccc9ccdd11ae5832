import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { dot } from '../embedder';
import { downloadModel, type DownloadProgress } from './download';
import { findInstalledModel } from './installed';
import { LocalModelEmbedder } from './local-embedder';
import type { ModelManifest } from './manifest';
import { INSTALLED_MARKER, isDownloaded, modelFolderIn } from './model-folder';
import { tinyModelFiles } from './testing/tiny-model';

// The download path against a real HTTP server on 127.0.0.1 serving the tiny model's files the
// way huggingface.co's resolve URLs do (200 with Content-Length, 206 for a Range request).
const files = tinyModelFiles({ words: ['cash', 'rates', 'bond', 'yields'], synonyms: [['car', 'automobile']] });
const sha = (b: Uint8Array) => createHash('sha256').update(b).digest('hex');
const ONNX = 'onnx/model_quantized.onnx';

type Fault = 'drop-midway' | 'ignore-range' | 'slow';
let faults = new Map<string, Fault[]>();
const requests: { path: string; range: string | undefined }[] = [];
let server: Server;
let baseUrl: string;
const roots: string[] = [];

function serve(req: IncomingMessage, res: ServerResponse): void {
  const path = decodeURIComponent((req.url ?? '/').replace(/^\/resolve\/main\//, ''));
  requests.push({ path, range: req.headers.range });
  const body = files[path];
  if (!body) {
    res.writeHead(404).end('Entry not found');
    return;
  }
  const fault = faults.get(path)?.shift();
  const range = /^bytes=(\d+)-$/.exec(req.headers.range ?? '');
  if (range && fault !== 'ignore-range') {
    const start = Number(range[1]);
    res.writeHead(206, {
      'Content-Length': body.length - start,
      'Content-Range': `bytes ${start}-${body.length - 1}/${body.length}`,
      'Content-Type': 'application/octet-stream',
    });
    res.end(Buffer.from(body.subarray(start)));
    return;
  }
  res.writeHead(200, { 'Content-Length': body.length, 'Content-Type': 'application/octet-stream', 'Accept-Ranges': 'bytes' });
  if (fault === 'drop-midway') {
    // Half the bytes, then the connection dies: what a train Wi-Fi does to a 23 MB file.
    res.write(Buffer.from(body.subarray(0, Math.floor(body.length / 2))), () => setTimeout(() => res.socket?.destroy(), 20));
    return;
  }
  if (fault === 'slow') {
    res.write(Buffer.from(body.subarray(0, 1024)));
    setTimeout(() => res.end(Buffer.from(body.subarray(1024))), 2000);
    return;
  }
  res.end(Buffer.from(body));
}

function manifest(overrides: Partial<Record<string, string>> = {}): ModelManifest {
  return {
    name: 'tiny-model',
    embedderId: 'local-tiny-384',
    dims: 384,
    licence: 'test-only',
    baseUrl: `${baseUrl}/resolve/main`,
    files: Object.entries(files).map(([path, bytes]) => ({ path, size: bytes.length, sha256: overrides[path] ?? sha(bytes) })),
  };
}

function dataDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'forge-model-dl-'));
  roots.push(dir);
  return dir;
}

beforeAll(async () => {
  server = createServer(serve);
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterEach(() => {
  faults = new Map();
  requests.length = 0;
});

afterAll(() => {
  server.closeAllConnections();
  server.close();
  for (const r of roots) rmSync(r, { recursive: true, force: true });
});

describe('downloadModel', () => {
  it('downloads every file with progress up to the full size, checks them and marks the model installed', async () => {
    const dir = dataDir();
    const m = manifest();
    const folder = modelFolderIn(dir, m);
    const progress: DownloadProgress[] = [];
    await downloadModel({ manifest: m, folder, onProgress: (p) => progress.push(p) });
    const total = m.files.reduce((n, f) => n + (f.size ?? 0), 0);
    expect(progress.at(-1)).toEqual({ file: ONNX, done: total, total });
    // Progress only goes forward: a bar that jumps back looks broken.
    for (let i = 1; i < progress.length; i++) expect(progress[i].done).toBeGreaterThanOrEqual(progress[i - 1].done);
    expect(readFileSync(join(folder, ONNX)).equals(Buffer.from(files[ONNX]))).toBe(true);
    expect(isDownloaded(folder, m)).toBe(true);
    expect(findInstalledModel(dir, undefined, m)).toMatchObject({ folder, id: 'local-tiny-384', source: 'download', dtype: 'q8' });
  });

  it('resumes a download the server cut midway with a Range request, and the file is whole', async () => {
    const dir = dataDir();
    const m = manifest();
    faults.set(ONNX, ['drop-midway']);
    const folder = modelFolderIn(dir, m);
    await downloadModel({ manifest: m, folder });
    const onnxRequests = requests.filter((r) => r.path === ONNX);
    expect(onnxRequests).toHaveLength(2);
    expect(onnxRequests[1].range).toBe(`bytes=${Math.floor(files[ONNX].length / 2)}-`);
    expect(sha(readFileSync(join(folder, ONNX)))).toBe(sha(files[ONNX]));
    expect(existsSync(join(folder, `${ONNX}.part`))).toBe(false);
  });

  it('restarts the file cleanly when the server ignores Range (no duplicated bytes)', async () => {
    const dir = dataDir();
    const m = manifest();
    faults.set(ONNX, ['drop-midway', 'ignore-range']);
    const folder = modelFolderIn(dir, m);
    await downloadModel({ manifest: m, folder });
    expect(readFileSync(join(folder, ONNX)).length).toBe(files[ONNX].length);
    expect(sha(readFileSync(join(folder, ONNX)))).toBe(sha(files[ONNX]));
  });

  it('refuses a corrupted file (wrong SHA-256): deletes it, throws a typed error, does not mark the model installed', async () => {
    const dir = dataDir();
    const m = manifest({ [ONNX]: 'f'.repeat(64) });
    const folder = modelFolderIn(dir, m);
    const error = await downloadModel({ manifest: m, folder }).catch((e: unknown) => e);
    expect((error as { name: string }).name).toBe('ModelChecksumError');
    expect((error as { file: string }).file).toBe(ONNX);
    expect(existsSync(join(folder, ONNX))).toBe(false);
    expect(existsSync(join(folder, `${ONNX}.part`))).toBe(false);
    expect(existsSync(join(folder, INSTALLED_MARKER))).toBe(false);
    expect(findInstalledModel(dir, undefined, m)).toBeNull();
  });

  it('Cancel stops the download with a cancelled error and leaves no model marked installed', async () => {
    const dir = dataDir();
    const m = manifest();
    faults.set(ONNX, ['slow']);
    const folder = modelFolderIn(dir, m);
    const controller = new AbortController();
    const error = await downloadModel({
      manifest: m,
      folder,
      signal: controller.signal,
      onProgress: (p) => p.file === ONNX && p.done > 0 && controller.abort(),
    }).catch((e: unknown) => e);
    expect((error as { code: string }).code).toBe('cancelled');
    expect(isDownloaded(folder, m)).toBe(false);
    expect(findInstalledModel(dir, undefined, m)).toBeNull();
  });

  it('refuses to download a model whose checksums are not pinned (nothing unchecked is installed)', async () => {
    const m = { ...manifest(), files: manifest().files.map((f) => ({ ...f, sha256: null })) };
    const error = await downloadModel({ manifest: m, folder: join(dataDir(), 'm') }).catch((e: unknown) => e);
    expect((error as { reason: string }).reason).toBe('unpinned');
    expect(requests).toHaveLength(0);
  });

  it('fails with a typed error on a 404 instead of saving the error page as a model file', async () => {
    const m = manifest();
    m.files.push({ path: 'missing.json', size: 10, sha256: 'a'.repeat(64) });
    const folder = join(dataDir(), 'm');
    const error = await downloadModel({ manifest: m, folder }).catch((e: unknown) => e);
    expect((error as { reason: string }).reason).toBe('http');
    expect((error as Error).message).toMatch(/404/);
    expect(isDownloaded(folder, m)).toBe(false);
  });

  it('loads the downloaded model offline, after the server is gone', async () => {
    const dir = dataDir();
    const m = manifest();
    const folder = modelFolderIn(dir, m);
    await downloadModel({ manifest: m, folder });
    // "Later, on a plane": the server is gone for good.
    server.closeAllConnections();
    await new Promise<void>((r) => server.close(() => r()));
    const installed = findInstalledModel(dir, undefined, m);
    expect(installed).not.toBeNull();
    const embedder = new LocalModelEmbedder(installed as NonNullable<typeof installed>);
    try {
      const [car, automobile] = await embedder.embed(['car', 'automobile']);
      expect(dot(car, automobile)).toBeCloseTo(1, 5);
    } finally {
      await embedder.close();
    }
  });
});

describe('a model folder pointed at by path', () => {
  it('is used when it holds the files, and named after the folder so its vectors never mix with another model', () => {
    const dir = dataDir();
    const folder = join(dir, 'MiniLM copy');
    for (const [name, bytes] of Object.entries(files)) {
      const p = join(folder, name);
      rmSync(p, { force: true });
      mkdirSync(join(p, '..'), { recursive: true });
      writeFileSync(p, bytes);
    }
    expect(findInstalledModel(dir, folder)).toMatchObject({ folder, id: 'local-minilm-copy-384', source: 'folder', dims: 384 });
  });

  it('falls back to "not installed" when the folder lacks the model file', () => {
    const dir = dataDir();
    const folder = join(dir, 'half');
    mkdirSync(folder, { recursive: true });
    writeFileSync(join(folder, 'config.json'), '{}');
    expect(findInstalledModel(dir, folder)).toBeNull();
  });
});
