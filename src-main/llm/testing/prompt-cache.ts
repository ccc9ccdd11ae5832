import { createHash } from 'node:crypto';
import { TOKEN_OVERHEAD, countToolTokens, countTokens } from '../tokens';

/**
 * Prompt-cache accounting as the Messages API documents it, for the mock server:
 *   - the prompt is one prefix in the order tools → system → messages, cut into blocks;
 *   - a block with cache_control is a breakpoint: the prefix up to and including it is written;
 *   - a later request reads the longest cached prefix ending at a block boundary within 20 blocks
 *     before any of its breakpoints (cache_read_input_tokens); the rest up to its last cacheable
 *     breakpoint is written (cache_creation_input_tokens); what follows is input_tokens;
 *   - a prefix shorter than the model's minimum (1024 tokens Opus/Sonnet, 2048 Haiku) is not cached;
 *   - entries live 5 minutes (1 hour with ttl "1h"), refreshed on every hit; at most 4 breakpoints.
 * The cache is per model (and per API key, as caches are per organisation).
 */
export interface PrefixBlock {
  /** Hash of the whole prefix up to and including this block (cache_control excluded). */
  hash: string;
  tokens: number;
  breakpoint: boolean;
  ttlMs: number;
}

export interface CacheAccount {
  inputTokens: number;
  cacheCreationTokens: number;
  cacheReadTokens: number;
}

export const CACHE_LOOKBACK_BLOCKS = 20;
export const FIVE_MINUTES_MS = 5 * 60_000;
const ONE_HOUR_MS = 60 * 60_000;

export class TooManyBreakpointsError extends Error {}

export function defaultMinCacheableTokens(model: string): number {
  return /haiku/.test(model) ? 2048 : 1024;
}

type Json = Record<string, unknown>;

/** Cuts a request body into prefix blocks with token counts and chained hashes. */
export function flattenPrompt(body: Json): PrefixBlock[] {
  const parts: { key: unknown; tokens: number; cc: unknown }[] = [];
  const tools = Array.isArray(body.tools) ? (body.tools as Json[]) : [];
  tools.forEach((t, i) => {
    const { cache_control, ...rest } = t;
    parts.push({ key: ['tool', rest], tokens: countToolTokens(rest as never) + (i === 0 ? TOKEN_OVERHEAD.toolsPreamble : 0), cc: cache_control });
  });
  const system = body.system;
  if (typeof system === 'string' && system) parts.push({ key: ['system', system], tokens: countTokens(system), cc: undefined });
  if (Array.isArray(system)) {
    for (const b of system as Json[]) {
      const { cache_control, ...rest } = b;
      parts.push({ key: ['system', rest], tokens: countTokens(String(rest.text ?? '')), cc: cache_control });
    }
  }
  const messages = Array.isArray(body.messages) ? (body.messages as Json[]) : [];
  for (const m of messages) {
    const blocks: Json[] = typeof m.content === 'string' ? [{ type: 'text', text: m.content }] : ((m.content as Json[]) ?? []);
    blocks.forEach((b, i) => {
      const { cache_control, ...rest } = b;
      const tokens = TOKEN_OVERHEAD.block + blockTokens(rest) + (i === 0 ? TOKEN_OVERHEAD.message : 0);
      parts.push({ key: [m.role, i === 0, rest], tokens, cc: cache_control });
    });
  }
  let hash = '';
  return parts.map((p) => {
    hash = createHash('sha1').update(hash).update(JSON.stringify(p.key)).digest('hex');
    const cc = p.cc as { type?: string; ttl?: string } | undefined;
    return { hash, tokens: p.tokens, breakpoint: cc?.type === 'ephemeral', ttlMs: cc?.ttl === '1h' ? ONE_HOUR_MS : FIVE_MINUTES_MS };
  });
}

function blockTokens(b: Json): number {
  if (b.type === 'text') return countTokens(String(b.text ?? ''));
  if (b.type === 'tool_use') return countTokens(String(b.name ?? '')) + countTokens(JSON.stringify(b.input ?? {}));
  if (b.type === 'tool_result') {
    const c = b.content;
    if (typeof c === 'string') return countTokens(c);
    if (Array.isArray(c)) return (c as Json[]).reduce((n, x) => n + countTokens(String(x.text ?? '')), 0);
    return 0;
  }
  return countTokens(JSON.stringify(b));
}

export function totalTokens(blocks: PrefixBlock[]): number {
  return blocks.reduce((n, b) => n + b.tokens, 0);
}

export class PromptCache {
  private readonly entries = new Map<string, number>(); // key → expiry (ms on the injected clock)

  constructor(
    private readonly clock: () => number = Date.now,
    private readonly minTokens: (model: string) => number = defaultMinCacheableTokens,
  ) {}

  /** Accounts one request and updates the cache, as the API would. */
  account(scope: string, model: string, blocks: PrefixBlock[]): CacheAccount {
    const now = this.clock();
    const bps = blocks.flatMap((b, i) => (b.breakpoint ? [i] : []));
    if (bps.length > 4) throw new TooManyBreakpointsError(`A maximum of 4 blocks with cache_control may be provided. Found ${bps.length}.`);
    const cum: number[] = [];
    blocks.forEach((b, i) => {
      cum.push((cum[i - 1] ?? 0) + b.tokens);
    });
    const total = cum[cum.length - 1] ?? 0;
    const keyOf = (i: number) => `${scope}|${model}|${blocks[i]!.hash}`;

    let readEnd = -1;
    for (const bp of bps) {
      for (let p = bp; p >= Math.max(0, bp - CACHE_LOOKBACK_BLOCKS); p--) {
        if (p <= readEnd) break;
        const exp = this.entries.get(keyOf(p));
        if (exp !== undefined && exp > now) {
          readEnd = p;
          break;
        }
      }
    }
    if (readEnd >= 0) this.entries.set(keyOf(readEnd), now + blocks[readEnd]!.ttlMs);
    const read = readEnd >= 0 ? cum[readEnd]! : 0;

    const min = this.minTokens(model);
    const writable = bps.filter((bp) => cum[bp]! >= min && bp > readEnd);
    for (const bp of writable) this.entries.set(keyOf(bp), now + blocks[bp]!.ttlMs);
    const lastWrite = writable.length ? writable[writable.length - 1]! : -1;
    const creation = lastWrite > readEnd ? cum[lastWrite]! - read : 0;
    return { cacheReadTokens: read, cacheCreationTokens: creation, inputTokens: total - read - creation };
  }

  clear(): void {
    this.entries.clear();
  }

  get size(): number {
    return this.entries.size;
  }
}
