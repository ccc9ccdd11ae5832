import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';
import { type EmbedKind, EmbedderError, type EmbedderStall, EmbedderTimeoutError, l2normalize, ModelStoppedError, type Embedder } from '../embedder';
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
  /**
   * How long the worker may go without answering (loading the model, or one batch) before it is
   * taken as hung: it is stopped, the request fails, and the next request starts a new worker.
   */
  timeoutMs?: number;
  /** The worker's code; tests wrap WORKER_SOURCE to make a model that hangs or fails on a text. */
  workerSource?: string;
}

/**
 * One batch of up to 32 notes on a CPU model, on a machine busy with other work, takes seconds;
 * a minute without a word means the model is stuck (a native call that never returns).
 */
export const DEFAULT_EMBED_TIMEOUT_MS = 60_000;
/** A thread stuck in native code may never end: close() waits this long for it, then lets it go. */
const TERMINATE_WAIT_MS = 5000;

interface Pending {
  worker: Worker;
  resolve: (v: Float32Array[]) => void;
  reject: (e: Error) => void;
}

/**
 * A sentence-embedding model run locally through transformers.js on onnxruntime-node, inside a
 * worker thread so tokenising and inference never block the main thread (the app and the API stay
 * responsive while a reindex embeds thousands of notes). The worker starts on the first request
 * and is terminated by `close()`; a crash fails the requests in flight and the next call restarts it.
 * A worker that goes `timeoutMs` without answering is stopped the same way (issue 26): a memory
 * write never waits on a hung model longer than that; the note is saved and queued for its vector.
 */
export class LocalModelEmbedder implements Embedder {
  readonly id: string;
  readonly dims: number;
  private worker: Worker | null = null;
  private pending = new Map<number, Pending>();
  private nextId = 1;
  private watchdog: ReturnType<typeof setTimeout> | null = null;
  private stall: EmbedderStall | null = null;
  readonly timeoutMs: number;

  constructor(private readonly options: LocalModelEmbedderOptions) {
    this.id = options.id;
    this.dims = options.dims;
    this.timeoutMs = options.timeoutMs ?? DEFAULT_EMBED_TIMEOUT_MS;
  }

  lastStall(): EmbedderStall | null {
    return this.stall && { ...this.stall };
  }

  async embed(input: string[], kind: EmbedKind = 'document'): Promise<Float32Array[]> {
    if (input.length === 0) return [];
    const prompt = (kind === 'query' ? this.options.prompts?.query : this.options.prompts?.document) ?? '';
    const texts = prompt ? input.map((t) => prompt + t) : input;
    const worker = this.start();
    const id = this.nextId++;
    const vectors = await new Promise<Float32Array[]>((resolve, reject) => {
      this.pending.set(id, { worker, resolve, reject });
      worker.ref(); // work in flight keeps the process alive until it answers
      worker.postMessage({ id, texts });
      if (!this.watchdog) this.kick();
    });
    if (this.stall) this.stall.recovered = true;
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
    this.failAll(null, new EmbedderError('the local model was closed', { retryable: true }));
    if (!worker) return;
    let wait: ReturnType<typeof setTimeout> | undefined;
    await Promise.race([
      worker.terminate().catch(() => undefined),
      new Promise((resolve) => {
        wait = setTimeout(resolve, TERMINATE_WAIT_MS);
      }),
    ]);
    clearTimeout(wait);
  }

  /** (Re)starts the stall timer while requests are in flight; every word from the worker calls it. */
  private kick(): void {
    if (this.watchdog) clearTimeout(this.watchdog);
    this.watchdog = null;
    const worker = this.worker;
    if (!worker || ![...this.pending.values()].some((p) => p.worker === worker)) return;
    this.watchdog = setTimeout(() => {
      this.watchdog = null;
      this.hung(worker);
    }, this.timeoutMs);
    this.watchdog.unref();
  }

  /** The worker stopped answering: fail its requests, stop it, and start afresh on the next request. */
  private hung(worker: Worker): void {
    if (this.worker === worker) this.worker = null;
    this.stall = { at: new Date().toISOString(), timeoutMs: this.timeoutMs, restarts: (this.stall?.restarts ?? 0) + 1, recovered: false };
    const s = Math.round(this.timeoutMs / 100) / 10;
    this.failAll(
      worker,
      new EmbedderTimeoutError(
        `The local model did not answer within ${s} s; Forge stopped it and starts it again for the next note. The note is saved and searchable by keywords; its meaning vector is added when the model answers.`,
      ),
    );
    worker.unref();
    // Not awaited: a thread stuck in a native call may never end. It is let go; a new one serves the next request.
    void worker.terminate().catch(() => undefined);
  }

  private start(): Worker {
    if (this.worker) return this.worker;
    const worker = new Worker(this.options.workerSource ?? WORKER_SOURCE, {
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
    worker.on('message', (msg: { id: number; vectors?: Float32Array[]; error?: string; progress?: number }) => {
      // Any word from the worker (an answer, or a batch done) shows it is alive: the stall timer restarts.
      if (msg.progress !== undefined) {
        if (this.worker === worker) this.kick();
        return;
      }
      const p = this.pending.get(msg.id);
      if (!p) return;
      this.pending.delete(msg.id);
      if (![...this.pending.values()].some((q) => q.worker === worker)) worker.unref();
      if (this.worker === worker) this.kick();
      if (msg.error !== undefined) p.reject(new EmbedderError(`The local model could not embed: ${msg.error}`, { retryable: false }));
      else p.resolve(msg.vectors ?? []);
    });
    worker.on('error', (e) => {
      if (this.worker === worker) this.worker = null;
      this.failAll(worker, new ModelStoppedError(`the local model stopped: ${e.message}`));
    });
    worker.on('exit', () => {
      if (this.worker === worker) this.worker = null;
      this.failAll(worker, new ModelStoppedError('the local model stopped'));
    });
    this.worker = worker;
    return worker;
  }

  /** Fails the requests sent to `worker` (all of them when null); a restarted worker's requests are not its predecessor's. */
  private failAll(worker: Worker | null, error: EmbedderError): void {
    for (const [id, p] of [...this.pending]) {
      if (worker && p.worker !== worker) continue;
      this.pending.delete(id);
      p.reject(error);
    }
    this.kick();
  }
}
