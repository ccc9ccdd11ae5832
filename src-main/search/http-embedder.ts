import { retryWithBackoff } from '../common/retry';
import { retryAfterMs } from '../common/retry-after';
import { EmbedderError, l2normalize, type EmbedKind, type Embedder } from './embedder';

export interface HttpEmbedderOptions {
  apiKey: string;
  model?: string;
  /** Vector size the provider returns for this model (checked on every reply). */
  dims?: number;
  baseURL?: string;
  batchSize?: number;
  maxRetries?: number;
  timeoutMs?: number;
  /** First backoff delay; doubles on each retry. */
  retryBaseMs?: number;
}

/**
 * Shared machinery for embedding APIs: batching, timeouts, retries with exponential backoff on
 * 429/5xx and network errors (honouring retry-after), and strict checking of the reply.
 */
abstract class HttpEmbedder implements Embedder {
  abstract readonly id: string;
  readonly dims: number;
  protected readonly opts: Required<Omit<HttpEmbedderOptions, 'dims'>>;
  protected abstract readonly provider: string;

  constructor(defaults: { model: string; dims: number; baseURL: string; batchSize: number }, o: HttpEmbedderOptions) {
    if (!o.apiKey) throw new EmbedderError('No API key is set for the embedding provider: add it in Settings.', { retryable: false });
    this.dims = o.dims ?? defaults.dims;
    this.opts = {
      apiKey: o.apiKey,
      model: o.model ?? defaults.model,
      baseURL: (o.baseURL ?? defaults.baseURL).replace(/\/+$/, ''),
      batchSize: o.batchSize ?? defaults.batchSize,
      maxRetries: o.maxRetries ?? 3,
      timeoutMs: o.timeoutMs ?? 30_000,
      retryBaseMs: o.retryBaseMs ?? 500,
    };
  }

  protected abstract body(texts: string[], kind: EmbedKind): unknown;

  async embed(texts: string[], kind: EmbedKind = 'document'): Promise<Float32Array[]> {
    const out: Float32Array[] = [];
    for (let i = 0; i < texts.length; i += this.opts.batchSize) {
      out.push(...(await this.embedBatch(texts.slice(i, i + this.opts.batchSize), kind)));
    }
    return out;
  }

  private async embedBatch(texts: string[], kind: EmbedKind): Promise<Float32Array[]> {
    // Providers reject empty strings; a single space embeds to a neutral vector.
    const input = texts.map((t) => (t.trim() ? t : ' '));
    return retryWithBackoff(() => this.post(input, kind), {
      attempts: this.opts.maxRetries + 1,
      baseDelayMs: this.opts.retryBaseMs,
      retryAfter: { maxMs: 60_000, beyond: 'cap' },
      classify: (e) => (e instanceof EmbedderError ? { retry: e.retryable, retryAfterMs: e.retryAfterMs } : { retry: false }),
    });
  }

  private async post(input: string[], kind: EmbedKind): Promise<Float32Array[]> {
    const url = `${this.opts.baseURL}/embeddings`;
    let res: Response;
    try {
      res = await fetch(url, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${this.opts.apiKey}` },
        body: JSON.stringify(this.body(input, kind)),
        signal: AbortSignal.timeout(this.opts.timeoutMs),
      });
    } catch (cause) {
      const timedOut = (cause as Error)?.name === 'TimeoutError';
      throw new EmbedderError(
        timedOut
          ? `${this.provider} did not answer within ${this.opts.timeoutMs} ms; the note is saved and will be indexed when it answers.`
          : `Could not reach ${this.provider} at ${this.opts.baseURL}: ${(cause as Error)?.message ?? cause}`,
        { retryable: true, cause },
      );
    }
    if (!res.ok) {
      const text = (await res.text().catch(() => '')).slice(0, 300);
      const retryable = res.status === 429 || res.status >= 500;
      throw new EmbedderError(
        res.status === 401 || res.status === 403
          ? `${this.provider} rejected the API key (HTTP ${res.status}): check it in Settings.`
          : `${this.provider} answered HTTP ${res.status}${text ? `: ${text}` : ''}`,
        { status: res.status, retryable, retryAfterMs: retryAfter(res.headers) },
      );
    }
    let json: { data?: { embedding?: unknown; index?: number }[] };
    try {
      json = (await res.json()) as typeof json;
    } catch (cause) {
      throw new EmbedderError(`${this.provider} sent a reply that is not JSON.`, { retryable: true, cause });
    }
    const data = json?.data;
    if (!Array.isArray(data) || data.length !== input.length) {
      throw new EmbedderError(`${this.provider} returned ${Array.isArray(data) ? data.length : 'no'} vectors for ${input.length} texts.`, { retryable: false });
    }
    const out = new Array<Float32Array>(input.length);
    data.forEach((d, i) => {
      const e = d?.embedding;
      if (!Array.isArray(e) || e.length !== this.dims || !e.every((x) => typeof x === 'number' && Number.isFinite(x))) {
        throw new EmbedderError(
          `${this.provider} returned a vector of ${Array.isArray(e) ? e.length : 0} numbers; ${this.opts.model} was configured for ${this.dims}.`,
          { retryable: false },
        );
      }
      out[typeof d.index === 'number' ? d.index : i] = l2normalize(Float32Array.from(e as number[]));
    });
    return out;
  }
}

/** The server's wait, capped: a provider asking for more than a minute is not waited out here. */
function retryAfter(h: Headers): number | undefined {
  const ms = retryAfterMs(h);
  return ms !== undefined && ms > 0 ? Math.min(ms, 60_000) : undefined;
}

/** Voyage AI embeddings (`voyage-3-lite`, 512 dims, by default). */
export class VoyageEmbedder extends HttpEmbedder {
  readonly id: string;
  protected readonly provider = 'Voyage AI';
  constructor(o: HttpEmbedderOptions) {
    super({ model: 'voyage-3-lite', dims: 512, baseURL: 'https://api.voyageai.com/v1', batchSize: 128 }, o);
    this.id = `voyage:${this.opts.model}:${this.dims}`;
  }
  protected body(texts: string[], kind: EmbedKind) {
    return { model: this.opts.model, input: texts, input_type: kind };
  }
}

/** Any OpenAI-compatible `/v1/embeddings` endpoint (`text-embedding-3-small`, 1536 dims, by default). */
export class OpenAICompatibleEmbedder extends HttpEmbedder {
  readonly id: string;
  protected readonly provider: string;
  private readonly sendDims: boolean;
  constructor(o: HttpEmbedderOptions) {
    super({ model: 'text-embedding-3-small', dims: 1536, baseURL: 'https://api.openai.com/v1', batchSize: 256 }, o);
    this.provider = o.baseURL ? `the embeddings server` : 'OpenAI';
    this.sendDims = o.dims !== undefined;
    this.id = `openai:${this.opts.model}:${this.dims}`;
  }
  protected body(texts: string[]) {
    return { model: this.opts.model, input: texts, encoding_format: 'float', ...(this.sendDims ? { dimensions: this.dims } : {}) };
  }
}
