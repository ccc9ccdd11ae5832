import type { Usage } from './types';

/**
 * US dollars per million tokens. Cache writes (5-minute TTL) cost 1.25× the input price and cache
 * reads 0.1×, as Anthropic bills them; an entry may override either multiplier.
 * Prices are a snapshot of the public list for each model family; the PM can override them
 * (pass a table to `costOf`) when Anthropic changes its prices.
 */
export interface ModelPrice {
  inputPerMTok: number;
  outputPerMTok: number;
  cacheWriteMultiplier?: number;
  cacheReadMultiplier?: number;
}

export type PriceTable = Record<string, ModelPrice>;

const opus: ModelPrice = { inputPerMTok: 5, outputPerMTok: 25 };
const sonnet: ModelPrice = { inputPerMTok: 3, outputPerMTok: 15 };
const haiku: ModelPrice = { inputPerMTok: 1, outputPerMTok: 5 };

/** Exact ids first; `family:<name>` entries price any id containing that name. */
export const defaultPriceTable: PriceTable = {
  'claude-opus-4-1': { inputPerMTok: 15, outputPerMTok: 75 },
  'claude-opus-4-0': { inputPerMTok: 15, outputPerMTok: 75 },
  'claude-haiku-3-5': { inputPerMTok: 0.8, outputPerMTok: 4 },
  'family:opus': opus,
  'family:sonnet': sonnet,
  'family:haiku': haiku,
};

export function priceFor(model: string, table: PriceTable = defaultPriceTable): ModelPrice | undefined {
  const exact = table[model];
  if (exact) return exact;
  // Dated ids (claude-sonnet-4-5-20250929) price like their alias.
  const undated = model.replace(/-\d{8}$/, '');
  if (table[undated]) return table[undated];
  for (const [key, price] of Object.entries(table)) {
    if (key.startsWith('family:') && model.includes(key.slice('family:'.length))) return price;
  }
  return undefined;
}

/** Cost in US dollars of one call's usage; null when the model is not in the table. */
export function costOf(model: string, usage: Omit<Usage, 'costUsd'>, table: PriceTable = defaultPriceTable): number | null {
  const p = priceFor(model, table);
  if (!p) return null;
  const write = p.cacheWriteMultiplier ?? 1.25;
  const read = p.cacheReadMultiplier ?? 0.1;
  const dollars =
    usage.inputTokens * p.inputPerMTok +
    usage.cacheWriteTokens * p.inputPerMTok * write +
    usage.cacheReadTokens * p.inputPerMTok * read +
    usage.outputTokens * p.outputPerMTok;
  return dollars / 1_000_000;
}
