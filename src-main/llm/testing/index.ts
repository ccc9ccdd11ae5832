export { startMockAnthropicServer } from './mock-anthropic-server';
export type { MockAnthropicOptions, MockAnthropicServer, MockContent, MockFault, MockReply, MockStep, RecordedRequest } from './mock-anthropic-server';
export { PromptCache, flattenPrompt, totalTokens, defaultMinCacheableTokens, CACHE_LOOKBACK_BLOCKS, FIVE_MINUTES_MS } from './prompt-cache';
export type { CacheAccount, PrefixBlock } from './prompt-cache';
