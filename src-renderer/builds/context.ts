import type { BuildDetail } from '../../src-main/api/builds';

/**
 * The context meter's figures: how much of the model's window the fixed part (system prompt and
 * tool definitions, sent every turn) and the conversation take, where compaction kicks in, and
 * where past compactions cut the conversation down.
 */

export interface ContextShares {
  /** Shares of the limit, 0..1, for the bar's segments; scaled down together when over the limit. */
  fixed: number;
  conversation: number;
  free: number;
  usedTokens: number;
  /** Used / limit, unclamped (1.2 = 20% over). */
  usedShare: number;
  over: boolean;
}

export function contextShares(c: Pick<BuildDetail['context'], 'fixedTokens' | 'conversationTokens' | 'limitTokens'>): ContextShares {
  const fixedTokens = Math.max(0, c.fixedTokens);
  const conversationTokens = Math.max(0, c.conversationTokens);
  const usedTokens = fixedTokens + conversationTokens;
  const limit = Math.max(1, c.limitTokens);
  const usedShare = usedTokens / limit;
  // Over the limit the bar is full: both segments shrink in proportion so it never overflows.
  const scale = usedShare > 1 ? 1 / usedShare : 1;
  const fixed = (fixedTokens / limit) * scale;
  const conversation = (conversationTokens / limit) * scale;
  return { fixed, conversation, free: Math.max(0, 1 - fixed - conversation), usedTokens, usedShare, over: usedShare > 1 };
}

/** Each compaction as a mark on the bar (where the context stood before it) and a line of the list. */
export function compactionMarks(
  c: Pick<BuildDetail['context'], 'limitTokens' | 'compactions'>,
): { at: string; turn: number; share: number; saved: number; label: string }[] {
  const limit = Math.max(1, c.limitTokens);
  return c.compactions.map((x) => ({
    at: x.at,
    turn: x.turn,
    share: Math.min(1, Math.max(0, x.beforeTokens / limit)),
    saved: Math.max(0, x.beforeTokens - x.afterTokens),
    label: `turn ${x.turn}: ${shortTokens(x.beforeTokens)} → ${shortTokens(x.afterTokens)}`,
  }));
}

/** "850", "12.3k", "1.2M": compact enough for a bar's legend. */
export function shortTokens(n: number): string {
  if (n >= 1_000_000) return `${(n / 1_000_000).toFixed(1)}M`;
  if (n >= 1000) return `${(n / 1000).toFixed(1)}k`;
  return String(Math.round(n));
}

export function percent(share: number): string {
  return `${Math.round(share * 1000) / 10}%`;
}
