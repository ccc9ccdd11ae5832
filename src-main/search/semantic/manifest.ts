/**
 * The pinned local sentence-embedding model: all-MiniLM-L6-v2 (sentence-transformers; ONNX export
 * by Xenova), Apache-2.0, 384 dimensions, int8-quantised (~23 MB). Files come from one pinned
 * revision so the bytes a PM downloads are the bytes the checksums describe.
 */
export interface ModelFile {
  /** Path inside the model folder, e.g. `onnx/model_quantized.onnx`. */
  path: string;
  /** Expected size in bytes; null when not pinned yet. */
  size: number | null;
  /** Expected SHA-256 (hex); null when not pinned yet, and then the download refuses to run. */
  sha256: string | null;
}

export interface ModelManifest {
  /** Folder name under `<dataDir>/models/` and the embedder id's stem. */
  name: string;
  /** The embedder id recorded with every vector (a change of model is a change of id). */
  embedderId: string;
  dims: number;
  licence: string;
  /** Where `<baseUrl>/<file.path>` is fetched from. */
  baseUrl: string;
  files: ModelFile[];
}

/** The revision the download is pinned to (a commit of huggingface.co/Xenova/all-MiniLM-L6-v2). */
export const MINILM_REVISION = 'main';

/**
 * TODO(release): fill `size` and `sha256` of every file from the pinned revision's LFS metadata
 * (the "LFS" panel of each file on huggingface.co, or `git lfs ls-files -l` in a clone), and pin
 * MINILM_REVISION to that commit. Weights cannot be fetched on the machines this was built on,
 * so the values are left null rather than guessed: until they are filled, `downloadModel` refuses
 * (a download that cannot be checked is not installed) and a PM uses "Use a folder…" instead.
 */
export const MINILM_MANIFEST: ModelManifest = {
  name: 'all-MiniLM-L6-v2',
  embedderId: 'local-minilm-l6-v2-384',
  dims: 384,
  licence: 'Apache-2.0',
  baseUrl: `https://huggingface.co/Xenova/all-MiniLM-L6-v2/resolve/${MINILM_REVISION}`,
  files: [
    { path: 'config.json', size: null, sha256: null },
    { path: 'tokenizer.json', size: null, sha256: null },
    { path: 'tokenizer_config.json', size: null, sha256: null },
    { path: 'onnx/model_quantized.onnx', size: null, sha256: null },
  ],
};

/** True when every file has a checksum to verify against. */
export function isPinned(manifest: ModelManifest): boolean {
  return manifest.files.every((f) => typeof f.sha256 === 'string' && /^[0-9a-f]{64}$/.test(f.sha256));
}
