import { createHash } from 'node:crypto';
import { createReadStream, createWriteStream, existsSync, mkdirSync, renameSync, rmSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { once } from 'node:events';
import { ModelChecksumError, ModelDownloadError } from './errors';
import { isPinned, type ModelManifest } from './manifest';
import { INSTALLED_MARKER, writeInstalledMarker } from './model-folder';

export interface DownloadProgress {
  /** The file being fetched, e.g. `onnx/model_quantized.onnx`. */
  file: string;
  /** Bytes on disk across all files, of `total` (the manifest's sizes). */
  done: number;
  total: number;
}

export interface DownloadOptions {
  manifest: ModelManifest;
  /** The model folder, normally `<dataDir>/models/<model>/`. */
  folder: string;
  /** Overrides the manifest's base URL (tests; a company mirror). */
  baseUrl?: string;
  signal?: AbortSignal;
  onProgress?: (p: DownloadProgress) => void;
  /** Attempts per file when the connection drops midway (each resumes from what is on disk). */
  attempts?: number;
}

/**
 * Downloads the model's files into `folder`, each through a `.part` file that an interrupted
 * download resumes with an HTTP Range request (or restarts cleanly when the server ignores it).
 * Every file must match its pinned SHA-256: a mismatch deletes it and fails. The installed marker
 * is written last, so a cancelled or failed download is never mistaken for an installed model.
 */
export async function downloadModel(options: DownloadOptions): Promise<{ folder: string }> {
  const { manifest, folder, signal } = options;
  if (!isPinned(manifest)) {
    throw new ModelDownloadError(
      `This build has no pinned checksums for ${manifest.name}, so it cannot check a download. Put the model files in a folder and use "Use a folder…" instead.`,
      'unpinned',
    );
  }
  const base = (options.baseUrl ?? manifest.baseUrl).replace(/\/+$/, '');
  mkdirSync(folder, { recursive: true });
  // A new download invalidates the old install until every file is checked again.
  rmSync(join(folder, INSTALLED_MARKER), { force: true });

  const total = manifest.files.reduce((n, f) => n + (f.size ?? 0), 0);
  const finished = new Map<string, number>();
  // `current` counts the file in flight; finished files count in full.
  const report = (file: string, current: number) => {
    let done = current;
    for (const n of finished.values()) done += n;
    options.onProgress?.({ file, done, total });
  };

  for (const file of manifest.files) {
    const target = join(folder, file.path);
    const expected = file.sha256 as string;
    mkdirSync(dirname(target), { recursive: true });
    if (existsSync(target) && (await sha256Of(target)) === expected) {
      finished.set(file.path, statSync(target).size);
      report(file.path, 0);
      continue;
    }
    const part = `${target}.part`;
    await fetchWithResume(`${base}/${file.path}`, part, options.attempts ?? 3, signal, (n) => report(file.path, n));
    const actual = await sha256Of(part);
    if (actual !== expected) {
      rmSync(part, { force: true });
      throw new ModelChecksumError(file.path, expected, actual);
    }
    renameSync(part, target);
    finished.set(file.path, statSync(target).size);
    report(file.path, 0);
  }
  writeInstalledMarker(folder, manifest);
  return { folder };
}

async function fetchWithResume(url: string, part: string, attempts: number, signal: AbortSignal | undefined, onBytes: (n: number) => void): Promise<void> {
  let lastError: unknown;
  for (let attempt = 1; attempt <= attempts; attempt++) {
    if (signal?.aborted) throw cancelled();
    const have = existsSync(part) ? statSync(part).size : 0;
    let res: Response;
    try {
      res = await fetch(url, { signal, headers: have > 0 ? { Range: `bytes=${have}-` } : {} });
    } catch (e) {
      if (signal?.aborted) throw cancelled();
      lastError = e;
      continue;
    }
    if (res.status === 416 && have > 0) {
      // The part is already whole (or longer than the file): the checksum decides; start over if it fails.
      await res.body?.cancel();
      return;
    }
    if (res.status !== 200 && res.status !== 206) {
      await res.body?.cancel();
      lastError = new ModelDownloadError(`The model server answered ${res.status} for ${url}.`, 'http');
      if (res.status >= 500 || res.status === 429) continue;
      throw lastError;
    }
    // 206 from where we stopped: append. A 200 (Range ignored) or a range that starts elsewhere: restart the file.
    const resumes = res.status === 206 && contentRangeStart(res.headers.get('content-range')) === have;
    if (res.status === 206 && !resumes) {
      await res.body?.cancel();
      rmSync(part, { force: true });
      continue;
    }
    const out = createWriteStream(part, { flags: resumes ? 'a' : 'w' });
    let written = resumes ? have : 0;
    try {
      for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) {
        if (!out.write(chunk)) await once(out, 'drain');
        written += chunk.length;
        onBytes(written);
      }
      out.end();
      await once(out, 'finish');
      return;
    } catch (e) {
      out.end();
      await once(out, 'close').catch(() => undefined);
      if (signal?.aborted) throw cancelled();
      lastError = e; // the connection dropped midway: the next attempt resumes from `written`
    }
  }
  throw new ModelDownloadError(`The model download from ${url} kept failing: ${(lastError as Error)?.message ?? lastError}`, 'network', { cause: lastError });
}

function contentRangeStart(header: string | null): number | null {
  const m = header?.match(/^bytes (\d+)-/);
  return m ? Number(m[1]) : null;
}

function cancelled(): ModelDownloadError {
  return new ModelDownloadError('The model download was cancelled.', 'cancelled');
}

async function sha256Of(path: string): Promise<string> {
  const hash = createHash('sha256');
  for await (const chunk of createReadStream(path)) hash.update(chunk as Buffer);
  return hash.digest('hex');
}
