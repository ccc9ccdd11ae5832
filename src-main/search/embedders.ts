import type { Embedder } from './embedder';
import { HashNgramEmbedder } from './hash-embedder';
import { OpenAICompatibleEmbedder, VoyageEmbedder } from './http-embedder';

export interface EmbedderKeys {
  voyageApiKey?: string;
  openaiApiKey?: string;
  openaiBaseUrl?: string;
}

/** The embedder a workspace should use: Voyage when its key is set, else OpenAI-compatible, else the offline default. */
export function chooseEmbedder(keys: EmbedderKeys): Embedder {
  if (keys.voyageApiKey) return new VoyageEmbedder({ apiKey: keys.voyageApiKey });
  if (keys.openaiApiKey) return new OpenAICompatibleEmbedder({ apiKey: keys.openaiApiKey, ...(keys.openaiBaseUrl ? { baseURL: keys.openaiBaseUrl } : {}) });
  return new HashNgramEmbedder(384);
}
