export { defineTool, runTool, toAnthropicTool, toModelTool, inputJsonSchema } from './define';
export type { ToolDefinition, ToolAnnotations, ToolResult } from './define';
export type { AnalystToolContext, ReviewGate } from './context';
export { analystTools } from './analyst-tools';
export type { AnalystTool, AnalystToolsOptions } from './analyst-tools';
export { dispatchTool, subAgentToolFactory, runScriptTool, type TaskBoard } from './dispatch';
export { collectTool, formatTask } from './collect';
export { reviewTool, reviewerToolFactory } from './review';
export { readTool, defaultDepth, formatListing, MAX_READ_CHARS } from './read';
export { searchTool } from './search';
export { writeTool } from './write';
export { fetchTool, capSummary, SUMMARY_TOKEN_CAP } from './fetch';
export { compactTool, enforceWordLimit, COMPACT_MAX_WORDS } from './compact';
export { applyWrite } from './write-pipeline';
export type { WriteOutcome, WriteOptions } from './write-pipeline';
export { approveExpression, rejectExpression } from './approval';
export { closeOnExit } from './close-on-exit';
export { rewriteRecord } from './rewrite';
export type { ApprovalResult } from './approval';
export {
  isTrustedActor,
  landingStatus,
  limitsFromConstraints,
  limitsInForce,
  checkExpressionHeader,
} from './expressions';
