import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';
import { type EmbedKind, EmbedderError, l2normalize, type Embedder } from '../embedder';
import type { ModelPrompts, Pooling } from './model-folder';
import { WORKER_SOURCE } from './worker-source';

export interface LocalModelEmbedderOptions {
  /** The model folder (config.json, tokenizer files, onnx/…). */
  folder: string;
  /** Recorded with every vector, e.g. `local-minilm-l6-v2-384`. */
  id: string;
  dims: number;
  /** Which ONNX file to load: `q8` → model_quantized.onnx, `fp32` → model.onnx. */
  dtype?: 'q8' | 'fp32';
  /** The folder inside `folder` holding the ONNX file: `onnx` (default) or `` (beside config.json). */
  subfolder?: 'onnx' | '';
  /** From the folder's Pooling module (validateModelFolder); mean by default, as MiniLM. */
  pooling?: Pooling;
  /** Prepended to queries and to documents, where the model was trained with prompts. */
  prompts?: ModelPrompts;
  /** Texts per model call inside the worker. */
  batchSize?: number;
}

interface Pending {
  resolve: (v: Float32Array[]) => void;
  reject: (e: Error) => void;
}

/**
 * A sentence-embedding model run locally through transformers.js on onnxruntime-node, inside a
 * worker thread so tokenising and inference never block the main thread (the app and the API stay
 * responsive while a reindex embeds thousands of notes). The worker starts on the first request
 * and is terminated by `close()`; a crash fails the requests in flight and the next call restarts it.
 */
export class LocalModelEmbedder implements Embedder {
  readonly id: string;
  readonly dims: number;
  private worker: Worker | null = null;
  private pending = new Map<number, Pending>();
  private nextId = 1;

  constructor(private readonly options: LocalModelEmbedderOptions) {
    this.id = options.id;
    this.dims = options.dims;
  }

  async embed(input: string[], kind: EmbedKind = 'document'): Promise<Float32Array[]> {
    if (input.length === 0) return [];
    const prompt = (kind === 'query' ? this.options.prompts?.query : this.options.prompts?.document) ?? '';
    const texts = prompt ? input.map((t) => prompt + t) : input;
    const worker = this.start();
    const id = this.nextId++;
    const vectors = await new Promise<Float32Array[]>((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      worker.ref(); // work in flight keeps the process alive until it answers
      worker.postMessage({ id, texts });
    });
    if (vectors.some((v) => !v.every(Number.isFinite))) {
      throw new EmbedderError('The local model returned vectors that are not numbers (NaN): the model file is damaged.', { retryable: false });
    }
    // Unit length, so cosine is a dot product; a text with no known token stays the zero vector.
    return vectors.map((v) => l2normalize(v));
  }

  /** Stops the worker; requests in flight fail with an EmbedderError. */
  async close(): Promise<void> {
    const worker = this.worker;
    this.worker = null;
    this.failAll('the local model was closed');
    if (worker) await worker.terminate();
  }

  private start(): Worker {
    if (this.worker) return this.worker;
    const worker = new Worker(WORKER_SOURCE, {
      eval: true,
      workerData: {
        folder: this.options.folder,
        dims: this.dims,
        dtype: this.options.dtype ?? 'q8',
        subfolder: this.options.subfolder ?? 'onnx',
        pooling: this.options.pooling ?? 'mean',
        // transformers.js takes the last position of a padded batch as the last token: one text at a time.
        batchSize: this.options.pooling === 'last_token' ? 1 : (this.options.batchSize ?? 32),
        transformersPath: createRequire(import.meta.url).resolve('@huggingface/transformers'),
      },
    });
    // An idle model must not keep `forge` (or a test run) from exiting.
    worker.unref();
    worker.on('message', (msg: { id: number; vectors?: Float32Array[]; error?: string }) => {
      const p = this.pending.get(msg.id);
      if (!p) return;
      this.pending.delete(msg.id);
      if (this.pending.size === 0) this.worker?.unref();
      if (msg.error !== undefined) p.reject(new EmbedderError(`The local model could not embed: ${msg.error}`, { retryable: false }));
      else p.resolve(msg.vectors ?? []);
    });
    worker.on('error', (e) => {
      if (this.worker === worker) this.worker = null;
      this.failAll(`the local model stopped: ${e.message}`);
    });
    worker.on('exit', () => {
      if (this.worker === worker) this.worker = null;
      this.failAll('the local model stopped');
    });
    this.worker = worker;
    return worker;
  }

  private failAll(reason: string): void {
    for (const p of this.pending.values()) p.reject(new EmbedderError(reason, { retryable: true }));
    this.pending.clear();
  }
}
