// The lead's part: the build runner, its store and the forge tools.
export { BuildManager } from './runner';
export { DEFAULT_BUILDER_SETTINGS } from './build-host';
export { toolsFor, systemFor, fixedTokens } from './build-context';
export { DEFAULT_ALLOWED_COMMANDS, PROJECT_TOOLS, runProjectTests, workspaceListing } from './workspace';
export type { ProjectToolContext } from './workspace';
export type { BuilderDeps, BuilderSettings } from './build-host';
export { BuildStore } from './store';
export type { BuildRun, RunnerState } from './store-rows';
export { forgeTools, BUILDER_FORGE_TOOLS } from './forge-tools';
export { prepareBuild, checkWorkDir, readBuildPackage, readContracts, CONTRACTS_FOLDER } from './prepare';

// The builder's texts and checks: markers, messages to the models, compaction, the deterministic audit.
export { parseMarkers, MARKER, STOP_CODES } from './markers';
export type { ParsedMarkers, PlanItem, SignOff } from './markers';
export { projectBrief } from './project-brief';
export { firstMessage, phaseAdvanceMessage, signOffRejected, stopAnswered, unknownStopCode, nudge, markersInCodeBlock } from './messages';
export type { ContractText, FirstMessageInput, PhaseAdvanceInput } from './messages';
export { recoveryRequest, recoveryPlanFrom, recoveryPlanMessage, RECOVERY_PLANNER_PROMPT } from './recovery-messages';
export type { RecoveryRequestInput, RecoveryPlan } from './recovery-messages';
export { AUDITOR_PROMPT, auditRequest, parseAuditorFindings } from './audit-messages';
export type { AuditRequestInput } from './audit-messages';
export {
  compactionDecision,
  contractsRead,
  describeContractsRead,
  phaseWindowLabel,
  compactConversation,
  transcriptForSummary,
  conversationProblems,
  COMPACTION_PROMPT,
} from './compaction';
export type { CompactionDecision, CompactionDecisionInput, CompactOptions, CompactResult } from './compaction';
export { checkLayerBoundaries, checkContractLeaks, summariseFindings, blocksAdvance, SHINGLE_WORDS } from './audit';
