import type { BuildLogEntry, BuildSummary, CommandConsentRequest } from '../api/builds';
import type { Model } from '../llm/types';
import type { ArtifactStore, LocalSource, ProjectStore } from '../mcp';
import type { BuildStore } from './store';
import { type CommandSandbox, DEFAULT_ALLOWED_COMMANDS } from './workspace';

/**
 * What a build runs on: the settings, the collaborators the core hands the BuildManager, and the
 * small host the manager gives the turn, sign-off and compaction pieces (turn.ts, sign-off.ts,
 * compact-run.ts). Kept apart from runner.ts so those pieces depend on this interface, not on the
 * manager's class — the lifecycle and one turn change for different reasons.
 */

export interface BuilderSettings {
  useMcpContracts: boolean;
  allowedCommands: readonly string[];
  contextLimitTokens: number;
  compactAtShare: number;
}

export const DEFAULT_BUILDER_SETTINGS: BuilderSettings = {
  useMcpContracts: true,
  allowedCommands: [...DEFAULT_ALLOWED_COMMANDS],
  contextLimitTokens: 150_000,
  compactAtShare: 0.7,
};

export interface BuilderDeps {
  store: BuildStore;
  projects: () => Promise<ProjectStore>;
  artifacts: ArtifactStore;
  /** The builder's model (the `builder` role unless a build names a model). Throws when none is configured. */
  model: () => Model;
  /** Models for the side jobs — compaction (`compact`), the auditor (`review`), the recovery planner (`planner`). */
  helperModel?: (role: 'compact' | 'review' | 'planner') => Model | undefined;
  /** The model id a build uses when none is given. */
  defaultModelId: () => string;
  settings: () => BuilderSettings;
  onChanged?: (summary: BuildSummary) => void;
  onLog?: (buildId: string, entry: BuildLogEntry) => void;
  /** Turns per build before it is failed as stuck (default 600). */
  maxTurns?: number;
  /** Where bubblewrap lives (default: `bwrap` on PATH); null: none, so commands need the PM's consent. */
  bwrapPath?: string | null;
  /** A command waits for the PM's Allow or Deny (no sandbox on this machine). */
  onCommandConsent?: (buildId: string, request: CommandConsentRequest) => void;
}

/** What one turn, a sign-off or a compaction needs from the BuildManager that drives it. */
export interface BuildHost {
  readonly deps: BuilderDeps;
  /** Contract readers per working directory (each caches parsed contracts, checked against file times). */
  readonly sources: Map<string, LocalSource>;
  log(id: string, kind: BuildLogEntry['kind'], text: string, extra?: { tool?: string; isError?: boolean }): void;
  changed(id: string): BuildSummary;
  /** How this build's commands are confined: the sandbox with its network switch, or the PM's consent where there is none. */
  sandboxFor(id: string, signal: AbortSignal): CommandSandbox;
}
