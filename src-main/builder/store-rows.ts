import type { BuildMode, BuildStatus, BuildSummary, StopCode } from '../api/builds';
import type { Db } from '../store';
import type { WorkspaceSnapshot } from './workspace';

/**
 * The shapes of a saved build: the runner's state (a JSON column), the PM's command settings kept
 * beside it, the build_runs row and the BuildRun / BuildSummary read from it. Apart from store.ts
 * (the writes) so that the runner's pieces, which only read these types, and the detail read
 * (store-detail.ts) share one definition of how a row becomes a run.
 */

/** The runner's bookkeeping between turns, saved with the run (JSON) so a resume continues it. */
export interface RunnerState {
  /** Model turns so far (one model call each). */
  turns: number;
  /** Kept for builds saved before the per-phase window gate (the old first-turn reminder's flag); unused. */
  gateChecked: boolean;
  /** Failing test → consecutive failed runs since it last passed or since recovery was asked. */
  fixAttempts: Record<string, number>;
  /** Workspace snapshot (path → hash and line count) when the current phase started, for the diff summary. */
  phaseStart: WorkspaceSnapshot | null;
  /** Plain-text answers waiting to be sent (STOP answers, gate reminders). */
  pending: string[];
  /** Nudges sent in a row without progress (bounded so a stuck model cannot loop forever). */
  idleNudges: number;
  /** Contracts the builder has read (mirrored in the scratchpad). */
  contractsRead: string[];
  /** Set while compaction waits for a TASK DONE or sign-off boundary. */
  compactionPending: boolean;
  /** The turn count at the last Resume: the turn limit counts from there. */
  resumedAtTurn: number;
  /**
   * The phase whose window has been read since that phase started (null: none yet). Writes and
   * commands are refused while it is not the current phase; it resets at every phase start.
   */
  windowRead: string | null;
  /** Stored phase number → the plan's own id ("3.1"), for plans not numbered 0, 1, 2 … */
  phaseIds?: Record<string, string>;
  /** The spec-kit/Kiro feature or OpenSpec change the build was started on (absent: the package's default). */
  feature?: string;
}

export const initialRunnerState = (): RunnerState => ({
  turns: 0,
  gateChecked: false,
  fixAttempts: {},
  phaseStart: null,
  pending: [],
  idleNudges: 0,
  contractsRead: [],
  compactionPending: false,
  resumedAtTurn: 0,
  windowRead: null,
});

/** The PM's choices about a build's commands, kept beside the runner's state (same JSON column, its own key). */
export interface CommandSettings {
  /** "Allow network for this build": the sandbox keeps the host's network (package installs). Default off. */
  allowNetwork: boolean;
  /** Command classes (`tests`, `npm install`, `git`, …) the PM let run unconfined on a machine without the sandbox. */
  approvedClasses: string[];
}

export const COMMANDS_KEY = 'commands';

export function runnerStateOf(json: string): RunnerState {
  const { [COMMANDS_KEY]: _commands, ...saved } = JSON.parse(json) as Partial<RunnerState> & { [COMMANDS_KEY]?: unknown };
  return { ...initialRunnerState(), ...saved };
}

export interface NewBuild {
  id: string;
  workDir: string;
  projectName: string;
  projectId: string | null;
  mode: BuildMode;
  mini: boolean;
  model: string;
  limitTokens: number;
  fixedTokens: number;
  phases: { number: number; name: string }[];
}

export interface RunRow {
  id: string;
  work_dir: string;
  project_name: string;
  project_id: string | null;
  mode: BuildMode;
  mini: number;
  model: string;
  status: BuildStatus;
  current_phase: number;
  stop_code: StopCode | null;
  stop_reason: string | null;
  stop_at: string | null;
  error: string | null;
  input_tokens: number;
  output_tokens: number;
  cost_usd: number | null;
  fixed_tokens: number;
  conversation_tokens: number;
  limit_tokens: number;
  state: string;
  created_at: string;
  updated_at: string;
}

export interface BuildRun {
  id: string;
  workDir: string;
  projectName: string;
  projectId: string | null;
  mode: BuildMode;
  mini: boolean;
  model: string;
  status: BuildStatus;
  currentPhase: number;
  stop: { code: StopCode; reason: string; at: string } | null;
  error: string | null;
  limitTokens: number;
  fixedTokens: number;
  conversationTokens: number;
  state: RunnerState;
}

/** A build_runs row as the runner reads it. */
export function runOf(r: RunRow): BuildRun {
  return {
    id: r.id,
    workDir: r.work_dir,
    projectName: r.project_name,
    projectId: r.project_id,
    mode: r.mode,
    mini: r.mini === 1,
    model: r.model,
    status: r.status,
    currentPhase: r.current_phase,
    stop: r.stop_code ? { code: r.stop_code, reason: r.stop_reason ?? '', at: r.stop_at ?? r.updated_at } : null,
    error: r.error,
    limitTokens: r.limit_tokens,
    fixedTokens: r.fixed_tokens,
    conversationTokens: r.conversation_tokens,
    state: runnerStateOf(r.state),
  };
}

/** A build_runs row as the Builds screen lists it (with its phase count). */
export function summaryOf(db: Db, r: RunRow): BuildSummary {
  const phases = db.prepare('SELECT count(*) AS n FROM build_phases WHERE build_id = ?').get(r.id) as { n: number };
  return {
    id: r.id,
    workDir: r.work_dir,
    projectName: r.project_name,
    mode: r.mode,
    mini: r.mini === 1,
    model: r.model,
    status: r.status,
    currentPhase: r.current_phase,
    totalPhases: phases.n,
    createdAt: r.created_at,
    updatedAt: r.updated_at,
    inputTokens: r.input_tokens,
    outputTokens: r.output_tokens,
    costUsd: r.cost_usd,
    error: r.error,
  };
}
