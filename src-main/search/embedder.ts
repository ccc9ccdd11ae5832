import { AppError } from '../common/errors';

/** Whether a text is stored (document) or asked (query); some providers embed the two differently. */
export type EmbedKind = 'document' | 'query';

/**
 * Turns texts into vectors of a fixed size. `id` names the model and size exactly: every stored
 * vector records it, so a change of embedder is detectable and the index can be rebuilt.
 */
export interface Embedder {
  readonly id: string;
  readonly dims: number;
  embed(texts: string[], kind?: EmbedKind): Promise<Float32Array[]>;
  /** The last time the embedder gave up on a request that never answered (a hung local model), if ever. */
  lastStall?(): EmbedderStall | null;
}

/** A request the embedder gave up on: Settings → Search says when, after how long, and what Forge did. */
export interface EmbedderStall {
  at: string;
  timeoutMs: number;
  /** How many times the model was stopped and restarted for not answering. */
  restarts: number;
  /** A later request was answered: the model works again. */
  recovered: boolean;
}

/**
 * After the model hung, requests that someone waits on (a memory write, a search) do not wait on it
 * again for this long — each would wait the whole timeout — until a background request is answered.
 */
export const STALL_COOL_OFF_MS = 5 * 60_000;

/** The embedder's unrecovered stall within the cool-off, if any: callers then skip it rather than wait. */
export function stalledNow(embedder: Embedder, now = Date.now()): EmbedderStall | null {
  const stall = embedder.lastStall?.() ?? null;
  return stall && !stall.recovered && now - Date.parse(stall.at) < STALL_COOL_OFF_MS ? stall : null;
}

/** An embedder that could not produce vectors (network, provider error, bad reply). */
export class EmbedderError extends AppError {
  readonly status?: number;
  readonly retryable: boolean;
  /** The provider's retry-after hint, when it sent one. */
  readonly retryAfterMs?: number;
  constructor(message: string, options: { status?: number; retryable: boolean; retryAfterMs?: number; cause?: unknown }) {
    super('unavailable', message, { cause: options.cause });
    this.name = 'EmbedderError';
    this.status = options.status;
    this.retryable = options.retryable;
    this.retryAfterMs = options.retryAfterMs;
  }
}

/**
 * The local model itself stopped on a request (crashed, or hung and was stopped): unlike a provider
 * that is down, this can be the note's doing, so a note that does it alone counts a failed attempt.
 */
export class ModelStoppedError extends EmbedderError {
  constructor(message: string) {
    super(message, { retryable: true });
    this.name = 'ModelStoppedError';
  }
}

/** The local model did not answer within its timeout: it was stopped, the note waits in the queue. */
export class EmbedderTimeoutError extends ModelStoppedError {
  constructor(message: string) {
    super(message);
    this.name = 'EmbedderTimeoutError';
  }
}

/** Scales a vector to unit length in place (a zero vector stays zero). */
export function l2normalize(v: Float32Array): Float32Array {
  let s = 0;
  for (let i = 0; i < v.length; i++) s += v[i] * v[i];
  if (s > 0) {
    const inv = 1 / Math.sqrt(s);
    for (let i = 0; i < v.length; i++) v[i] *= inv;
  }
  return v;
}

export function dot(a: Float32Array, b: Float32Array): number {
  let s = 0;
  for (let i = 0; i < a.length; i++) s += a[i] * b[i];
  return s;
}

/** Sign-quantises a vector into packed bits (bit i set when v[i] > 0), the layout of sqlite-vec `bit[n]`. */
export function toBits(v: Float32Array): Uint8Array {
  const out = new Uint8Array(Math.ceil(v.length / 8));
  for (let i = 0; i < v.length; i++) if (v[i] > 0) out[i >> 3] |= 1 << (i & 7);
  return out;
}
