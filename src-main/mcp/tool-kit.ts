import { z } from 'zod';
import type { SpecPackage } from '../specs/types';
import type { ArtifactStore } from './artifacts';
import type { CallLog } from './calls';
import { ARTIFACT_TYPES, CONTRACT_NAMES, type ContractName, isContractName } from './config';
import { defineMcpTool, type McpToolDef, type ToolOutput } from './define';
import type { ConnectionFolder } from './folders';
import type { PlannerProgress, PlannerRequest, PlannerResult } from './planner';
import type { Scratchpad } from './scratchpad';
import type { McpSession } from './session';
import type { SharedDataPort } from './shared-data';
import type { GovernanceSource, ProjectSource } from './source';

/**
 * What every governance tool is declared with: the context a call runs in, the `tool()` helper,
 * the argument schemas several tools share, the two failures a tool can raise, and the small
 * helpers that resolve a project, a folder, a contract or a phase. The tools themselves are in
 * tools-contracts.ts, tools-session.ts, tools-project.ts and tools-shared.ts; tools.ts assembles
 * them and holds dispatch. Apart so those files depend on this one and never on tools.ts.
 */

export interface ToolContext {
  source: GovernanceSource;
  projects: ProjectSource;
  artifacts: ArtifactStore;
  session: McpSession;
  scratchpad: Scratchpad;
  planner?: (request: PlannerRequest, onProgress: (p: PlannerProgress) => void, signal?: AbortSignal) => Promise<PlannerResult>;
  /** Set by the transport when the client asked for progress notifications. */
  progress?: (p: PlannerProgress) => void;
  signal?: AbortSignal;
  calls?: CallLog;
  transport?: string;
  /** The data sources the PM shares with attached IDEs (absent in local `forge mcp`). */
  data?: SharedDataPort;
  /**
   * The user's spec package a build (or a project) works from. When set, the registry tools
   * describe that package — its documents, its phases by its own ids — instead of the contracts
   * folder; without it they serve the governance contracts as before.
   */
  specPackage?: () => SpecPackage | Promise<SpecPackage>;
  /** The project folder this connection's IDE has open (MCP roots) or named with forge_set_session(project_dir). */
  folder?: ConnectionFolder;
}

export type Tool = McpToolDef<z.ZodObject, ToolContext>;
/** A governance tool as the rest of Forge names it (the service adds its own, e.g. the app's). */
export type GovernanceTool = Tool;
export const tool = <S extends z.ZodObject>(def: McpToolDef<S, ToolContext>) => defineMcpTool(def) as unknown as Tool;

export const empty = z.object({}).strict();
export const contractName = z.enum(CONTRACT_NAMES).describe('Logical contract name, e.g. "blueprint", "physics", "boundaries".');
export const documentName = z.string().min(1).max(300).describe('A document id from forge_list_contracts (e.g. "blueprint", "specs/001-x/plan.md").');
// A JSON number is read in its shortest decimal form (3.1 → "3.1"); "3.10" ≠ "3.1", so such an id goes as a string.
export const phaseId = z
  .union([z.string().min(1).max(40), z.number().finite().min(0).max(9999)])
  .describe(
    'The phase as the plan numbers it, e.g. 1, "3.1" or 3.1. A number is read in its shortest decimal form (3.1 → "3.1"), so a phase written "3.10" must be sent as the string "3.10".',
  );
export const artifactType = z.enum(ARTIFACT_TYPES).describe(`Artifact kind: ${ARTIFACT_TYPES.join(', ')}.`);
export const projectId = z.string().min(1).max(64).describe('Project id, e.g. "macro-dashboard".');
export const key = z.string().min(1).max(200);

/** Local `forge mcp` has no registry and none of the PM's keys (they stay in the app's keychain). */
export const FETCH_NEEDS_APP =
  "forge_fetch is not available in this mode: the PM's data sources and keys live in the Forge app. Start Forge (the desktop app or `forge serve`) and restart this MCP server so it attaches to the app (or run `forge mcp --remote URL`).";

export const PHASES_BLOCKED =
  'The phases contract is not served whole: it is too large for a context window. Call forge_get_phase_window(phase_number) to get one phase and the next.';

export function projectOf(ctx: ToolContext, given?: string): string {
  const id = given ?? ctx.session.get().project_id;
  if (!id) {
    const why = ctx.folder?.problem();
    throw new ToolError(
      `No project given: pass project_id, or call forge_set_session(project_id or project_dir) once so later calls can omit it.${why ? ` ${why}` : ''}`,
    );
  }
  return id;
}

/** The project folder a project tool reads (named, the session's, or the IDE's root), once the client's roots are known. */
export async function folderOf(ctx: ToolContext, given?: string) {
  if (!ctx.folder) return null;
  await ctx.folder.ready();
  const h = ctx.folder.resolve(given ?? ctx.session.get().project_id);
  return h ? { h, folders: ctx.folder.folders } : null;
}

/** A failure the client should read and act on (an isError result, not a protocol error). */
export class ToolError extends Error {}

/** A call to a name that is no tool: the server answers it as a protocol error (-32602). */
export class UnknownToolError extends Error {
  constructor(readonly tool: string) {
    super(`Unknown tool: ${tool.slice(0, 80)}. Call tools/list to see the tools; forge_summary gives an overview.`);
  }
}

/** The package of this build or project, when there is one. */
export const packageOf = async (ctx: ToolContext): Promise<SpecPackage | undefined> => (ctx.specPackage ? await ctx.specPackage() : undefined);

/** The governance contracts take only their 15 names; anything else is told which exist. */
export const contractNamed = (name: string): ContractName => {
  if (isContractName(name)) return name;
  throw new ToolError(`There is no contract "${name.slice(0, 100)}". The contracts are: ${CONTRACT_NAMES.join(', ')}.`);
};

/**
 * A phase id of phases.md or a planner project's plan, as the plan writes it (0, 1, 3.1): digits and
 * dots, refused here in a sentence rather than sent on to the app's API (remote mode) as a bad path.
 */
export const planPhase = (id: string): string => {
  if (!/^\d{1,4}(?:\.\d{1,4}){0,3}$/.test(id))
    throw new ToolError(`"${id.slice(0, 40)}" is not a phase of this plan: a phase id is written with digits and dots, e.g. 1 or 3.1.`);
  return id;
};

export const loadContract = async (ctx: ToolContext, name: ContractName): Promise<ToolOutput> => {
  if (name === 'phases') throw new ToolError(PHASES_BLOCKED);
  const c = await ctx.source.loadContract(name);
  return c.format === 'markdown' ? String(c.content) : { name: c.name, file: c.file, format: c.format, content: c.content as Record<string, unknown> };
};
