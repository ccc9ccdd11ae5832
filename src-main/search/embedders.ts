import type { Embedder } from './embedder';
import { HashNgramEmbedder } from './hash-embedder';
import { OpenAICompatibleEmbedder, VoyageEmbedder } from './http-embedder';
import { LocalModelEmbedder } from './semantic/local-embedder';
import type { ModelPrompts, Pooling } from './semantic/model-folder';

/** Settings → Search: `auto` is the local model once installed, else a configured key, else hashed. */
export type EmbedderChoice = 'auto' | 'hash' | 'local-semantic' | 'voyage' | 'openai';

/** An installed local model: a checked download or a folder the PM pointed at. */
export interface LocalModelRef {
  folder: string;
  id: string;
  dims: number;
  dtype: 'q8' | 'fp32';
  /** How the folder says to load and use the model (see validateModelFolder); defaults suit MiniLM. */
  subfolder?: 'onnx' | '';
  pooling?: Pooling;
  prompts?: ModelPrompts;
}

export interface EmbedderKeys {
  voyageApiKey?: string;
  openaiApiKey?: string;
  openaiBaseUrl?: string;
  choice?: EmbedderChoice;
  /** Null or absent when no local model is installed: the local choice then falls back. */
  localModel?: LocalModelRef | null;
  /** How long the local model may go without answering before it is restarted (DEFAULT_EMBED_TIMEOUT_MS). */
  localTimeoutMs?: number;
}

/**
 * The embedder a workspace should use. An explicit choice wins when it can run (its key is set,
 * its model installed); otherwise, and for `auto`: the local model, then Voyage, then
 * OpenAI-compatible, then the hashed embedder (keyword-like, no download) — never a pretend model.
 */
export function chooseEmbedder(keys: EmbedderKeys): Embedder {
  const local = () => (keys.localModel ? new LocalModelEmbedder({ ...keys.localModel, timeoutMs: keys.localTimeoutMs }) : null);
  const voyage = () => (keys.voyageApiKey ? new VoyageEmbedder({ apiKey: keys.voyageApiKey }) : null);
  const openai = () =>
    keys.openaiApiKey ? new OpenAICompatibleEmbedder({ apiKey: keys.openaiApiKey, ...(keys.openaiBaseUrl ? { baseURL: keys.openaiBaseUrl } : {}) }) : null;
  switch (keys.choice) {
    case 'hash':
      return new HashNgramEmbedder(384);
    case 'local-semantic':
      return local() ?? voyage() ?? openai() ?? new HashNgramEmbedder(384);
    case 'voyage':
      return voyage() ?? local() ?? openai() ?? new HashNgramEmbedder(384);
    case 'openai':
      return openai() ?? local() ?? voyage() ?? new HashNgramEmbedder(384);
    default:
      return local() ?? voyage() ?? openai() ?? new HashNgramEmbedder(384);
  }
}
