import type { ContractFormat, ContractName } from './config';
import type { PhaseWindow } from './phases';

/**
 * What the tools need from wherever contracts live. Local (a folder on disk) and remote (a
 * running Forge app) both implement it and never import each other; the tools pick one.
 */

export interface LoadedContract {
  name: ContractName;
  file: string;
  format: ContractFormat;
  /** Parsed JSON/YAML, or the raw markdown text. */
  content: unknown;
}

export interface ContractListing {
  name: ContractName;
  file: string;
  format: ContractFormat;
  available: boolean;
  brief: string;
}

export type ConstraintType = 'monotonic_up' | 'monotonic_down' | 'equal' | 'gte' | 'lte';

export interface InvariantGate {
  name: string;
  constraint: ConstraintType;
  /** The starting value (for monotonic gates) or the bound (for equal/gte/lte). */
  default: number;
  description: string;
  /** The command or test that measures it. */
  measuredBy: string;
}

export interface Invariants {
  constraint_types: Record<ConstraintType, string>;
  gates: InvariantGate[];
  source: string;
}

export interface GovernanceSummary {
  framework: string;
  mode: 'local' | 'remote';
  source: string;
  contracts: ContractListing[];
  layers: { name: string; path: string; may_import: string[] }[];
  invariants: string[];
  endpoints: string[];
  tools: string[];
}

export interface Governance {
  builder_contract: unknown;
  boundaries: unknown;
  stack: unknown;
  invariants: Invariants;
}

export interface GovernanceSource {
  readonly mode: 'local' | 'remote';
  /** The folder or URL it reads from, for status screens and error messages. */
  readonly location: string;
  loadContract(name: ContractName): Promise<LoadedContract>;
  listContracts(): Promise<ContractListing[]>;
  getInvariants(): Promise<Invariants>;
  getSummary(toolNames: string[]): Promise<GovernanceSummary>;
  getGovernance(): Promise<Governance>;
  /** One phase of phases.md and the next, by the plan's own id (2, "3.1"); the whole file is never sent to a client. */
  phaseWindow(phase: number | string): Promise<PhaseWindow>;
  clearCache(): number;
  close(): void;
}

export interface ProjectContractRow {
  contract_type: ContractName;
  version: number;
  updated_at: string;
  size: number;
}

export interface ProjectContext {
  project_id: string;
  name: string;
  description: string;
  created_at: string;
  updated_at: string;
  contracts: ProjectContractRow[];
  builds: { build_id: string; status: string; created_at: string; contract_count: number }[];
}

export interface ProjectContract {
  project_id: string;
  contract_type: ContractName;
  version: number;
  updated_at: string;
  content: string;
}

export interface BuildSnapshot {
  build_id: string;
  project_id: string;
  pinned_at: string;
  contracts: { contract_type: ContractName; version: number; content: string }[];
  /**
   * Every document of the build's spec package (any format), pinned when the build started, by its
   * own path in the package, with its SHA-256 and size in tokens (text: ProjectStore.buildDocuments).
   * Absent from an app that predates it.
   */
  documents?: PinnedDocumentListing[];
}

export interface PinnedDocumentListing {
  /** The document's path in the package, e.g. `specs/001-photo-albums/spec.md`. */
  doc_id: string;
  kind: string;
  content_hash: string;
  tokens: number;
}

/** Project-scoped reads: SQLite locally, the app's API remotely. */
export interface ProjectSource {
  getProjectContext(projectId: string): Promise<ProjectContext>;
  getProjectContract(projectId: string, type: ContractName): Promise<ProjectContract>;
  getBuildContracts(buildId: string): Promise<BuildSnapshot>;
}
