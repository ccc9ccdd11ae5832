export type {
  ChatMessage,
  ContentBlock,
  Model,
  ModelCallRequest,
  ModelResult,
  ModelRouter,
  ModelStreamEvent,
  StopReason,
  SystemBlock,
  TextBlock,
  ToolCall,
  ToolDefinition,
  ToolResultBlock,
  ToolUseBlock,
  Usage,
} from './types';
export { addUsage, emptyUsage, systemBlocks, textOf } from './types';
export { ModelError, ScriptDivergedError, missingApiKeyError } from './errors';
export type { ModelErrorKind, ModelErrorOptions } from './errors';
export { DEFAULT_RETRY, RetryingModel, backoffMs, sleep, withRetries } from './retry';
export type { RetryNotice, RetryPolicy } from './retry';
export { AnthropicModel, toModelError } from './anthropic-model';
export type { AnthropicModelOptions } from './anthropic-model';
export { toAnthropicParams, MAX_CACHE_BREAKPOINTS } from './anthropic-request';
export { ScriptedModel, loadScenario, parseScenario, scenarioSchema } from './scripted-model';
export type { Scenario, ScenarioInput, ScriptedModelOptions } from './scripted-model';
export { costOf, defaultPriceTable, priceFor } from './pricing';
export type { ModelPrice, PriceTable } from './pricing';
export { countContextTokens, countTokens, countToolTokens, TOKEN_OVERHEAD } from './tokens';
export type { ContextTokens } from './tokens';
