import { existsSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ModelFolderError } from './errors';
import type { ModelManifest } from './manifest';

/** Written into a model folder once every downloaded file has passed its checksum. */
export const INSTALLED_MARKER = '.forge-installed.json';

const REQUIRED = ['config.json', 'tokenizer.json', 'tokenizer_config.json'];
/** The ONNX files transformers.js loads, by precision: in `onnx/` (Hugging Face exports) or beside config.json. */
const ONNX_NAMES = { q8: 'model_quantized.onnx', fp32: 'model.onnx' } as const;

/** How token vectors become one sentence vector (sentence-transformers' Pooling module). */
export type Pooling = 'mean' | 'cls' | 'last_token';

/** Texts the model was trained to see before a query or a document (sentence-transformers' prompts). */
export interface ModelPrompts {
  query: string;
  document: string;
}

export interface ModelFolder {
  folder: string;
  /** Which ONNX file to load (the quantised one when both are present). */
  dtype: 'q8' | 'fp32';
  /** Where the ONNX file sits: `onnx` (the usual export) or `` (beside config.json). */
  subfolder: 'onnx' | '';
  /** MiniLM averages its tokens; bge models take the [CLS] token: read from the folder, mean when it says nothing. */
  pooling: Pooling;
  prompts: ModelPrompts;
}

/** Where a downloaded model lives: `<dataDir>/models/<model name>/`. */
export function modelFolderIn(dataDir: string, manifest: ModelManifest): string {
  return join(dataDir, 'models', manifest.name);
}

/**
 * Checks that a folder holds a loadable sentence-embedding model (a folder a PM pointed at on an
 * air-gapped desk, or a finished download) and reads how it pools and prompts. Throws
 * ModelFolderError naming what is missing or what Forge cannot run.
 */
export function validateModelFolder(folder: string): ModelFolder {
  if (!existsSync(folder) || !statSync(folder).isDirectory()) throw new ModelFolderError(folder, ['the folder itself']);
  const missing = REQUIRED.filter((f) => !isNonEmptyFile(join(folder, f)));
  const onnx = findOnnx(folder);
  if (!onnx) missing.push(`onnx/${ONNX_NAMES.q8} (or ${ONNX_NAMES.fp32}, in onnx/ or beside config.json)`);
  if (missing.length > 0 || !onnx) throw new ModelFolderError(folder, missing);
  for (const f of REQUIRED) readJson(folder, f, true);
  return { folder, ...onnx, pooling: readPooling(folder), prompts: readPrompts(folder) };
}

function findOnnx(folder: string): { dtype: 'q8' | 'fp32'; subfolder: 'onnx' | '' } | null {
  for (const subfolder of ['onnx', ''] as const) {
    for (const dtype of ['q8', 'fp32'] as const) if (isNonEmptyFile(join(folder, subfolder, ONNX_NAMES[dtype]))) return { dtype, subfolder };
  }
  return null;
}

function readJson(folder: string, file: string, required: boolean): Record<string, unknown> | null {
  if (!required && !existsSync(join(folder, file))) return null;
  try {
    const v = JSON.parse(readFileSync(join(folder, file), 'utf8')) as unknown;
    if (v && typeof v === 'object') return v as Record<string, unknown>;
  } catch {
    // reported below
  }
  throw new ModelFolderError(folder, [`a readable ${file} (it is not valid JSON)`]);
}

/** The Pooling module's settings: its folder is named in modules.json (usually 1_Pooling). */
function readPooling(folder: string): Pooling {
  const modules = readJson(folder, 'modules.json', false) as unknown;
  const entry = Array.isArray(modules)
    ? (modules as { type?: unknown; path?: unknown }[]).find((m) => typeof m?.type === 'string' && m.type.endsWith('.Pooling'))
    : undefined;
  const dir = typeof entry?.path === 'string' && !entry.path.includes('..') ? entry.path : '1_Pooling';
  const config = readJson(folder, join(dir, 'config.json'), false);
  if (!config) return 'mean';
  const runs: Record<string, Pooling> = { pooling_mode_mean_tokens: 'mean', pooling_mode_cls_token: 'cls', pooling_mode_lasttoken: 'last_token' };
  const asked = Object.keys(config).filter((k) => k.startsWith('pooling_mode_') && config[k] === true);
  if (!asked.length) return 'mean';
  // Two modes at once are concatenated by sentence-transformers (a vector twice the size): not one Forge runs.
  if (asked.length > 1 || !runs[asked[0]]) {
    throw new ModelFolderError(folder, [`a pooling Forge can run (one of mean, CLS or last token; ${dir}/config.json asks for ${asked.join(' + ')})`]);
  }
  return runs[asked[0]];
}

/** Query and document prompts from config_sentence_transformers.json (e.g. E5's "query: " and "passage: "). */
function readPrompts(folder: string): ModelPrompts {
  const config = readJson(folder, 'config_sentence_transformers.json', false);
  const prompts = config?.prompts && typeof config.prompts === 'object' ? (config.prompts as Record<string, unknown>) : {};
  const text = (...names: (string | null)[]) => {
    for (const n of names) if (n && typeof prompts[n] === 'string') return prompts[n] as string;
    return '';
  };
  const fallback = typeof config?.default_prompt_name === 'string' ? config.default_prompt_name : null;
  return { query: text('query', fallback), document: text('document', 'passage', fallback) };
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
