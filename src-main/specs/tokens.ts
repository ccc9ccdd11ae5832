import { createRequire } from 'node:module';

/**
 * Tokens of a text under o200k_base, a real BPE vocabulary (pure JS, offline). Every size Forge
 * shows for a spec package (documents, windows, dumps, the bench) comes from here, so the figures
 * the PM compares are counted the same way, not estimated from characters.
 *
 * The vocabulary is loaded on the first count, not when this module is imported: it takes longer to
 * load than the rest of `forge mcp` together, and an IDE times that process from spawn to
 * `initialize` — most sessions never ask for a token count.
 */
type Encoder = { countTokens(text: string): number };
let encoder: Encoder | undefined;

function o200k(): Encoder {
  encoder ??= createRequire(import.meta.url)('gpt-tokenizer/encoding/o200k_base') as Encoder;
  return encoder;
}

export function countSpecTokens(text: string): number {
  if (text.length === 0) return 0;
  return o200k().countTokens(text);
}
