import type { ChatMessage, Model, SystemBlock, Usage } from '../llm/types';

/** What the analyst asked for when it dispatched a sub-agent (seed §3.4). */
export interface TaskSpec {
  id: string;
  skill: string;
  objective: string;
  /** Context refs: ctx_NNN, V-NNN, E-NNN, PK-NNN, task ids, integration_brief; `:summary` / `:header` for less. */
  context: string[];
  notes?: string;
  dependsOn: string[];
  validate: boolean;
  validateContrastive: boolean;
  retryOf?: string;
}

/** The states the Tasks screen shows. `waiting` = waiting on its dependencies. */
export type TaskStatus = 'queued' | 'waiting' | 'running' | 'validating' | 'ok' | 'failed' | 'cancelled';
export const TERMINAL_STATUSES: readonly TaskStatus[] = ['ok', 'failed', 'cancelled'];
export const isTerminal = (s: TaskStatus) => s === 'ok' || s === 'failed' || s === 'cancelled';

/** Why a task failed, so the UI and the analyst can pick words and offer the right remedy. */
export type TaskFailure = 'dependency' | 'skill' | 'model' | 'budget_tokens' | 'budget_time' | 'max_rounds' | 'interrupted' | 'output' | 'internal';

export type Verdict = 'pass' | 'revise' | 'fail' | 'unclear';

export interface ValidationResult {
  contrastive: boolean;
  verdict: Verdict;
  feedback: string;
  /** The strongest counterargument (always asked for in contrastive validation). */
  counterargument: string;
  /** The validator's full answer, kept for the record. */
  raw: string;
}

/** One task as the executor, the collect tool and the Tasks screen see it. */
export interface TaskRecord {
  sessionId: string;
  id: string;
  spec: TaskSpec;
  status: TaskStatus;
  failure: TaskFailure | null;
  error: string | null;
  /** The `## SUMMARY` of the output (what dependants and collect see). */
  summary: string | null;
  /** `/session/results/<id>.md` once the output is stored. */
  resultPath: string | null;
  validation: ValidationResult | null;
  inputTokens: number;
  outputTokens: number;
  costUsd: number | null;
  rounds: number;
  createdAt: string;
  startedAt: string | null;
  finishedAt: string | null;
  updatedAt: string;
}

export interface TaskEvent {
  seq: number;
  sessionId: string;
  taskId: string;
  at: string;
  kind: string;
  detail: string;
}

/** A tool as far as the executor cares: its name (the executor never runs tools itself). */
export interface NamedTool {
  readonly name: string;
}

/** What a sub-agent is granted, handed to the injected tool factory. */
export interface ToolGrant {
  sessionId: string;
  taskId: string;
  skill: string;
  skillDir: string;
  /** Tool names the sub-agent may use: read-only memory plus what the skill's allowed-tools grants. */
  allowed: string[];
  signal: AbortSignal;
}

/** Events of the bounded tool loop the executor cares about (a subset of the agent loop's events). */
export interface SubAgentLoopEvent {
  type: string;
  round?: number;
  usage?: Usage;
  name?: string;
  call?: { name: string };
}

export interface SubAgentLoopOptions<T, C> {
  model: Model;
  role: string;
  system: SystemBlock[];
  messages: ChatMessage[];
  tools: readonly T[];
  toolContext: C;
  maxRounds: number;
  maxTokens?: number;
  signal?: AbortSignal;
  onEvent?: (event: SubAgentLoopEvent) => void;
}

export interface SubAgentLoopResult {
  stop: string;
  text: string;
  rounds: number;
  usage: Usage;
  overheadMs?: number[];
}

/** The agent's bounded tool loop (`runAgent` from src-main/agent), injected so layers stay one-way. */
export type SubAgentLoop<T, C> = (options: SubAgentLoopOptions<T, C>) => Promise<SubAgentLoopResult>;
