import { readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * Constants, paths, the contract registry and the environment switches of the governance MCP
 * server. Like the spec's config module it imports no other MCP module, so every other module
 * can depend on it without cycles.
 */

export const SERVER_NAME = 'forge-governance';
export const SERVER_TITLE = 'Forge governance';
/** What the server says it offers in `initialize` (read both by the SDK server and by the stdio front that answers before it loads). */
export const SERVER_CAPABILITIES = { tools: { listChanged: false }, resources: { listChanged: false }, prompts: { listChanged: false } } as const;
export const SERVER_INSTRUCTIONS =
  'Forge governance contracts for this project. Start with forge_summary; read one phase at a time with forge_get_phase_window; keep notes with forge_scratchpad.';
/** Seconds a contract read stays cached (the spec's 300 s). */
export const CACHE_TTL_SECONDS = 300;
export const DEFAULT_ARTIFACT_TTL_HOURS = 24;
/** Largest request body the HTTP transport reads (JSON-RPC messages are small). */
export const MAX_HTTP_BODY_BYTES = 1024 * 1024;
/** Remote reads give up after this long, so a stopped app is an error and never a hang. */
export const REMOTE_TIMEOUT_MS = 5_000;

export type ContractFormat = 'json' | 'yaml' | 'markdown';

/** The 15 logical contract names and the file each lives in. */
export const CONTRACT_MAP = {
  boundaries: { file: 'boundaries.json', format: 'json' },
  physics: { file: 'physics.yaml', format: 'yaml' },
  blueprint: { file: 'blueprint.md', format: 'markdown' },
  builder_contract: { file: 'builder_contract.md', format: 'markdown' },
  builder_directive: { file: 'builder_directive.md', format: 'markdown' },
  manifesto: { file: 'manifesto.md', format: 'markdown' },
  phases: { file: 'phases.md', format: 'markdown' },
  schema: { file: 'schema.md', format: 'markdown' },
  stack: { file: 'stack.md', format: 'markdown' },
  system_prompt: { file: 'system_prompt.md', format: 'markdown' },
  ui: { file: 'ui.md', format: 'markdown' },
  auditor_prompt: { file: 'auditor_prompt.md', format: 'markdown' },
  recovery_planner_prompt: { file: 'recovery_planner_prompt.md', format: 'markdown' },
  remediation: { file: 'Remediation.md', format: 'markdown' },
  desktop_distribution_plan: { file: 'Desktop_Distribution_Plan.md', format: 'markdown' },
} as const satisfies Record<string, { file: string; format: ContractFormat }>;

export type ContractName = keyof typeof CONTRACT_MAP;
export const CONTRACT_NAMES = Object.keys(CONTRACT_MAP) as [ContractName, ...ContractName[]];

export function isContractName(name: unknown): name is ContractName {
  return typeof name === 'string' && Object.hasOwn(CONTRACT_MAP, name);
}

/** One line per contract, so a client can choose what to fetch without fetching everything. */
export const CONTRACT_BRIEFS: Record<ContractName, string> = {
  boundaries: 'Which module may import which (enforced by a test that reads every import).',
  physics: 'The HTTP API of the headless host: every procedure with its input and output.',
  blueprint: 'What Forge is and what each of its three systems does.',
  builder_contract: 'The rules a builder works under: evidence, minimal diffs, sign-off, STOP codes.',
  builder_directive: 'The standing orders for a build of this project: order of work and checks.',
  manifesto: 'The principles every change is judged against.',
  phases: 'The roadmap in numbered phases (read it through forge_get_phase_window).',
  schema: 'The SQLite schema of a workspace, table by table.',
  stack: 'Languages, runtimes and libraries with their exact versions and known traps.',
  system_prompt: 'The builder system prompt: the build loop and critical rules.',
  ui: 'The screens of the workbench and the rules they follow.',
  auditor_prompt: 'Instructions for the auditor that reviews a phase before sign-off.',
  recovery_planner_prompt: 'Instructions for the planner that recovers a failed phase.',
  remediation: 'Known failure modes and how to fix them.',
  desktop_distribution_plan: 'How Forge is packaged, signed, updated and installed offline.',
};

/**
 * Kinds of artifact a client may store. Each names a product of a build step, so listings can
 * be filtered by what they are rather than by guessing from keys.
 */
export const ARTIFACT_TYPES = [
  'plan', // a phase plan or the whole build plan
  'diff', // a change set or patch
  'test_report', // output of a test run
  'audit', // an auditor's findings
  'scout', // notes from exploring a codebase
  'renovation', // a proposed refactor or remediation
  'directive', // generated instructions for a builder
  'note', // anything else worth keeping
] as const;
export type ArtifactType = (typeof ARTIFACT_TYPES)[number];

/** Project contract types stored in SQLite: the 15 names (phases included: it is the plan). */
export const PROJECT_CONTRACT_TYPES = CONTRACT_NAMES;

export interface McpEnv {
  /** `FORGEGUARD_LOCAL=1` forces local mode. */
  forceLocal: boolean;
  /** `FORGEGUARD_URL` points remote mode at a running Forge app. */
  remoteUrl?: string;
  /** `FORGEGUARD_TOKEN` is the bearer token for that app (else the lock file supplies it). */
  remoteToken?: string;
  /** `FORGE_DESK_TOKEN`: on a desk, a person's API token (Desk screen); remote calls are made as them. */
  deskToken?: string;
}

export function readMcpEnv(env: Record<string, string | undefined> = process.env): McpEnv {
  const local = (env.FORGEGUARD_LOCAL ?? '').trim().toLowerCase();
  return {
    forceLocal: local === '1' || local === 'true' || local === 'yes',
    remoteUrl: env.FORGEGUARD_URL?.trim() || undefined,
    remoteToken: env.FORGEGUARD_TOKEN?.trim() || undefined,
    deskToken: env.FORGE_DESK_TOKEN?.trim() || undefined,
  };
}

/** The folder holding Forge's package.json, found by climbing from this file (source or build). */
export function forgePackageRoot(): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  for (let i = 0; i < 8; i++) {
    try {
      if (JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')).name === 'forge-workbench') return dir;
    } catch {
      /* keep climbing */
    }
    dir = dirname(dir);
  }
  return resolve('.');
}

/** Forge's own contracts: the default source in local mode. */
export function defaultContractsDir(): string {
  return join(forgePackageRoot(), 'contracts');
}

/** Files the MCP server keeps in the workspace folder. */
export const MCP_FILES = {
  token: 'mcp-token',
  /** Written by a running app (port + token) so `forge mcp` can find it. */
  hostLock: 'forge-host.json',
  artifacts: 'mcp-artifacts',
  projects: 'projects',
  settings: 'mcp-settings.json',
} as const;
