import { describe, expect, it } from 'vitest';
import { chooseEmbedder, type LocalModelRef } from '../embedders';

// Which embedder Settings → Search ends up with. Constructing embedders starts nothing (the local
// model's worker starts on the first embed), so these run without a model file.
const local: LocalModelRef = { folder: '/models/all-MiniLM-L6-v2', id: 'local-minilm-l6-v2-384', dims: 384, dtype: 'q8' };

describe('chooseEmbedder', () => {
  it('auto: the local model once installed, even with a Voyage key (the default once installed)', () => {
    expect(chooseEmbedder({ localModel: local, voyageApiKey: 'k' }).id).toBe('local-minilm-l6-v2-384');
  });

  it('auto without a model: the configured key, else the hashed keyword-like embedder', () => {
    expect(chooseEmbedder({ voyageApiKey: 'k' }).id).toMatch(/^voyage/);
    expect(chooseEmbedder({ localModel: null }).id).toBe('hash-ngram-384');
  });

  it('a chosen local model that is not installed falls back to the hashed one rather than pretending', () => {
    expect(chooseEmbedder({ choice: 'local-semantic', localModel: null }).id).toBe('hash-ngram-384');
  });

  it('an explicit "hash" wins over an installed model and keys', () => {
    expect(chooseEmbedder({ choice: 'hash', localModel: local, voyageApiKey: 'k' }).id).toBe('hash-ngram-384');
  });

  it('an explicit "openai" with its key wins over the local model', () => {
    expect(chooseEmbedder({ choice: 'openai', openaiApiKey: 'k', localModel: local }).id).not.toBe('local-minilm-l6-v2-384');
    expect(chooseEmbedder({ choice: 'openai', localModel: local }).id).toBe('local-minilm-l6-v2-384');
  });
});
