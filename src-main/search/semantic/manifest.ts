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

/**
 * Where the files are fetched from. The bytes are pinned by size and SHA-256 below, not by this
 * name: if the files at `main` ever change, the download refuses them (a checksum error) rather
 * than installing a model whose vectors would not match the index.
 */
export const MINILM_REVISION = 'main';

/**
 * Sizes and SHA-256 of Xenova/all-MiniLM-L6-v2 (int8 ONNX export). Taken from published manifests
 * of projects that pin the same files, agreeing with each other where they overlap (the model and
 * tokenizer.json in two independent ones). They could not be re-derived here — the weights cannot
 * be downloaded on the machines this was built on — so the first real download is also their
 * check: a mismatch is refused with a clear error, and "Use a folder…" remains for air-gapped desks.
 */
export const MINILM_MANIFEST: ModelManifest = {
  name: 'all-MiniLM-L6-v2',
  embedderId: 'local-minilm-l6-v2-384',
  dims: 384,
  licence: 'Apache-2.0',
  baseUrl: `https://huggingface.co/Xenova/all-MiniLM-L6-v2/resolve/${MINILM_REVISION}`,
  files: [
    { path: 'config.json', size: 650, sha256: '7135149f7cffa1a573466c6e4d8423ed73b62fd2332c575bf738a0d033f70df7' },
    { path: 'tokenizer.json', size: 711_661, sha256: 'da0e79933b9ed51798a3ae27893d3c5fa4a201126cef75586296df9b4d2c62a0' },
    { path: 'tokenizer_config.json', size: 366, sha256: '9261e7d79b44c8195c1cada2b453e55b00aeb81e907a6664974b4d7776172ab3' },
    { path: 'onnx/model_quantized.onnx', size: 22_972_370, sha256: 'afdb6f1a0e45b715d0bb9b11772f032c399babd23bfc31fed1c170afc848bdb1' },
  ],
};

/** True when every file has a checksum to verify against. */
export function isPinned(manifest: ModelManifest): boolean {
  return manifest.files.every((f) => typeof f.sha256 === 'string' && /^[0-9a-f]{64}$/.test(f.sha256));
}
