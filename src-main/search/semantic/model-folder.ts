import { existsSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ModelFolderError } from './errors';
import type { ModelManifest } from './manifest';

/** Written into a model folder once every downloaded file has passed its checksum. */
export const INSTALLED_MARKER = '.forge-installed.json';

const REQUIRED = ['config.json', 'tokenizer.json', 'tokenizer_config.json'];
const ONNX_FILES = { q8: 'onnx/model_quantized.onnx', fp32: 'onnx/model.onnx' } as const;

export interface ModelFolder {
  folder: string;
  /** Which ONNX file to load (the quantised one when both are present). */
  dtype: 'q8' | 'fp32';
}

/** Where a downloaded model lives: `<dataDir>/models/<model name>/`. */
export function modelFolderIn(dataDir: string, manifest: ModelManifest): string {
  return join(dataDir, 'models', manifest.name);
}

/**
 * Checks that a folder holds a loadable sentence-embedding model (a folder a PM pointed at on an
 * air-gapped desk, or a finished download). Throws ModelFolderError naming what is missing.
 */
export function validateModelFolder(folder: string): ModelFolder {
  if (!existsSync(folder) || !statSync(folder).isDirectory()) throw new ModelFolderError(folder, ['the folder itself']);
  const missing = REQUIRED.filter((f) => !isNonEmptyFile(join(folder, f)));
  const dtype = isNonEmptyFile(join(folder, ONNX_FILES.q8)) ? 'q8' : isNonEmptyFile(join(folder, ONNX_FILES.fp32)) ? 'fp32' : null;
  if (!dtype) missing.push(`${ONNX_FILES.q8} (or ${ONNX_FILES.fp32})`);
  if (missing.length > 0) throw new ModelFolderError(folder, missing);
  for (const f of REQUIRED) {
    try {
      JSON.parse(readFileSync(join(folder, f), 'utf8'));
    } catch {
      throw new ModelFolderError(folder, [`a readable ${f} (it is not valid JSON)`]);
    }
  }
  return { folder, dtype: dtype as 'q8' | 'fp32' };
}

/** True when a download finished and passed its checksums (the marker is written last). */
export function isDownloaded(folder: string, manifest: ModelManifest): boolean {
  if (!existsSync(join(folder, INSTALLED_MARKER))) return false;
  return manifest.files.every((f) => isNonEmptyFile(join(folder, f.path)));
}

export function writeInstalledMarker(folder: string, manifest: ModelManifest): void {
  const body = { model: manifest.name, files: manifest.files.map((f) => ({ path: f.path, sha256: f.sha256 })), at: new Date().toISOString() };
  writeFileSync(join(folder, INSTALLED_MARKER), JSON.stringify(body, null, 2) + '\n');
}

function isNonEmptyFile(path: string): boolean {
  try {
    const s = statSync(path);
    return s.isFile() && s.size > 0;
  } catch {
    return false;
  }
}
