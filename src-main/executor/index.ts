export { TaskExecutor } from './executor';
export { DEFAULT_CONCURRENCY, DEFAULT_BUDGET, type TaskExecutorOptions, type TaskBudget, type TaskListener } from './task-host';
export { grantTools, SUBAGENT_BASE_TOOLS, SUBAGENT_GRANTABLE } from './grants';
export { TaskStore, type TaskListFilter } from './task-store';
export { checkTaskId, TASK_ID, type DispatchInput } from './spec';
export { abortable } from './retry';
export { SkillCache } from './skill-cache';
export { findCycle, Semaphore } from './graph';
export { buildSubAgentSystem, buildSubAgentMessage, resolveRef, refToPath, extractOutputSummary, type TaskFiles } from './context';
export { parseVerdict, STANDARD_VALIDATION_PROMPT, CONTRASTIVE_VALIDATION_PROMPT, validationUserMessage } from './validation';
export {
  parseSynthesis,
  planSynthesisUpdates,
  SynthesisContractError,
  SYNTHESIS_BLOCKS,
  viewUpdateSchema,
  expressionImplicationSchema,
  newExpressionSchema,
  processKnowledgeSchema,
  type SynthesisBlock,
  type SynthesisContract,
  type ViewUpdate,
  type ExpressionImplication,
  type NewExpression,
  type NewProcessKnowledge,
  type ProposedMemoryUpdate,
} from './synthesis';
export {
  completeSynthesis,
  synthesisRepairMessage,
  synthesisReport,
  type SynthesisWrite,
  type SynthesisWriteOutcome,
  type SynthesisWriter,
} from './synthesis-step';
export {
  Reviewer,
  ReviewLedger,
  reviewKey,
  parseReviewVerdict,
  relevantCalibration,
  relevantPk,
  REVIEW_PROMPT,
  CALIBRATION_CATEGORIES,
  type ReviewVerdict,
  type ReviewResult,
  type ReviewerOptions,
  type ReviewFiles,
} from './review';
export {
  isTerminal,
  TERMINAL_STATUSES,
  type TaskSpec,
  type TaskStatus,
  type TaskFailure,
  type TaskRecord,
  type TaskEvent,
  type Verdict,
  type ValidationResult,
  type NamedTool,
  type ToolGrant,
  type SubAgentLoop,
  type SubAgentLoopOptions,
  type SubAgentLoopResult,
  type SubAgentLoopEvent,
} from './types';
