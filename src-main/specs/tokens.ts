import { countTokens } from 'gpt-tokenizer/encoding/o200k_base';

/**
 * Tokens of a text under o200k_base, a real BPE vocabulary (pure JS, offline). Every size Forge
 * shows for a spec package (documents, windows, dumps, the bench) comes from here, so the figures
 * the PM compares are counted the same way, not estimated from characters.
 */
export function countSpecTokens(text: string): number {
  if (text.length === 0) return 0;
  return countTokens(text);
}
