export { createMcpService } from './service';
export type { McpService, McpServiceOptions } from './service';
export { createGovernanceServer } from './server';
export { startMcpHttpServer } from './http';
export type { McpHttpOptions, McpHttpServer } from './http';
export { serveStdio } from './stdio';
export { runMcpCli, MCP_USAGE } from './cli';
export { dispatch, listTools, TOOLS, DEPRECATED_SHORTCUTS, ALIASES } from './tools';
export type { ListedTool, ToolCallResult } from './tools';
export { PHASES_BLOCKED, FETCH_NEEDS_APP, ToolError, UnknownToolError } from './tool-kit';
export type { ToolContext, GovernanceTool } from './tool-kit';
export { defineMcpTool, fromAnalystTool, READ } from './define';
export { registrySharing, SHARE_TOGGLE_LABEL, MAX_ANSWER_CHARS } from './shared-data';
export type { SharedDataPort, SharedFetchRequest, SharedFetchAnswer, SharableRegistry, RegistrySharingOptions } from './shared-data';
export type { McpToolDef, ToolOutput } from './define';
export {
  CONTRACT_MAP,
  CONTRACT_NAMES,
  CONTRACT_BRIEFS,
  ARTIFACT_TYPES,
  CACHE_TTL_SECONDS,
  MCP_FILES,
  SERVER_NAME,
  defaultContractsDir,
  isContractName,
  readMcpEnv,
} from './config';
export type { ContractName, ContractFormat, ArtifactType, McpEnv } from './config';
export { TtlCache } from './cache';
export { LocalSource, ContractFileError } from './local';
export { RemoteSource, RemoteUnavailableError } from './remote';
export { ArtifactStore } from './artifacts';
export { ProjectStore, slugify } from './projects';
export type { DocumentToPin, PinnedDocument } from './projects';
export { McpSession } from './session';
export { Scratchpad, SCRATCHPAD_FILE } from './scratchpad';
export { CallLog } from './calls';
export type { CallRecord, ToolStats } from './calls';
export { TokenFile } from './token';
export { writeHostLock, readHostLock, removeHostLock } from './host-lock';
export type { HostLock } from './host-lock';
export { parsePhases, phaseWindow } from './phases';
export type { Phase, PhaseWindow } from './phases';
export { findPhase, packageWindow, phaseIdText, samePhaseId } from './spec-package';
export type { PackageWindow } from './spec-package';
export { runPlanner, planProblems, PlannerGaveUpError } from './planner';
export type { PlannerRequest, PlannerResult, PlannerProgress, PlannerTurn, PlannerDeps } from './planner';
export { builderSystemPrompt, BUILDER_PROMPT_NAME } from './builder-prompt';
export { DEFAULT_GATES, CONSTRAINT_TYPES } from './invariants';
export { configSnippets, mcpStdioCommand, shellCommand, type McpStdioLaunch } from './snippets';
export type {
  GovernanceSource,
  ProjectSource,
  LoadedContract,
  ContractListing,
  Invariants,
  InvariantGate,
  ConstraintType,
  GovernanceSummary,
  Governance,
  ProjectContext,
  ProjectContract,
  ProjectContractRow,
  BuildSnapshot,
  PinnedDocumentListing,
} from './source';
