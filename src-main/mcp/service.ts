import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { AppError } from '../common/errors';
import { prepareDataDir } from '../config/paths';
import type { Model } from '../llm';
import type { Db } from '../store';
import { ArtifactStore } from './artifacts';
import { TtlCache } from './cache';
import { CallLog } from './calls';
import { CACHE_TTL_SECONDS, defaultContractsDir, MCP_FILES, readMcpEnv, type ContractName } from './config';
import { ConnectionFolder, FolderProjects, type ClientProject, type SpecReader } from './folders';
import { readHostLock } from './host-lock';
import { LocalSource } from './local';
import { runPlanner, type PlannerProgress, type PlannerRequest, type PlannerResult } from './planner';
import { ProjectStore } from './projects';
import { RemoteSource } from './remote';
import { Scratchpad } from './scratchpad';
import type { SharedDataPort, SharedFetchAnswer } from './shared-data';
import type { BuildSnapshot, GovernanceSource, ProjectContext, ProjectContract, ProjectSource } from './source';
import { TokenFile } from './token';
import type { GovernanceTool } from './tool-kit';

/**
 * Everything the governance server shares between its connections: the contract source (local or
 * remote, chosen once), projects, artifacts, the scratchpad, the planner and the call log.
 * Built by `forge mcp`, by the app's host, or by a test; no module-level state.
 */

export type { ClientProject, ConnectionFolder } from './folders';

export interface McpServiceOptions {
  /** The workspace folder: token, artifacts, forge.db, host lock. */
  dataDir: string;
  /** Contracts folder for local mode (default: <workDir>/Forge/Contracts if present, else Forge's own). */
  contractsDir?: string;
  /** Where the scratchpad lives (default: the process's working directory). */
  workDir?: string;
  /** 'auto' (default): FORGEGUARD_LOCAL, then FORGEGUARD_URL, then a running app's lock file, else local. */
  mode?: 'auto' | 'local' | 'remote';
  remoteUrl?: string;
  remoteToken?: string;
  /** On a desk: the person's API token the remote calls are made as (default: FORGE_DESK_TOKEN). */
  deskToken?: string;
  env?: Record<string, string | undefined>;
  /** An open workspace database (the app passes its own); otherwise forge.db is opened on first use. */
  db?: Db;
  /** The planner's model, looked up per run so a key added in Settings works at once. */
  model?: () => Model | undefined;
  /** More tools to offer (e.g. the analyst's read and search when the PM allows it). */
  extraTools?: () => GovernanceTool[];
  /**
   * The PM's data sources behind the per-source share switch (`forge_fetch`): the host passes its
   * registry's (registrySharing). Remote mode asks the app; without either, forge_fetch says so.
   */
  sharedData?: () => SharedDataPort | undefined;
  cacheTtlSeconds?: number;
  /** Reads a project folder in any spec format (default: the spec reader in src-main/specs). */
  readSpec?: SpecReader;
  /** Watch the contracts folder for changes (default true). */
  watch?: boolean;
  now?: () => number;
}

export interface McpService {
  readonly mode: 'local' | 'remote';
  readonly source: GovernanceSource;
  readonly projects: ProjectSource;
  /** Local mode only: the store behind project tools (for the app's own procedures). */
  projectStore(): Promise<ProjectStore>;
  readonly artifacts: ArtifactStore;
  readonly scratchpad: Scratchpad;
  readonly calls: CallLog;
  readonly token: TokenFile;
  readonly cache: TtlCache;
  readonly dataDir: string;
  readonly workDir: string;
  planner?: (request: PlannerRequest, onProgress: (p: PlannerProgress) => void, signal?: AbortSignal) => Promise<PlannerResult>;
  extraTools(): GovernanceTool[];
  /** The data sources the PM shares with attached IDEs; undefined in local `forge mcp` (no registry, no keys there). */
  sharedData(): SharedDataPort | undefined;
  /** Project folders IDEs work on (MCP roots, or forge_set_session(project_dir)); read only, never written. */
  readonly folders: FolderProjects;
  /** A new connection's view of the folders (its roots). */
  connectionFolder(): ConnectionFolder;
  /** Live MCP connections (for the status screen), with the project each client is on. */
  readonly connections: Map<string, { transport: string; client?: string; since: string; project?: () => ClientProject }>;
  cacheClear(): number;
  close(): void;
}

/** A vendor answer can take a while (retries with back-off): longer than a contract read. */
const REMOTE_FETCH_TIMEOUT_MS = 90_000;

function chooseContractsDir(options: McpServiceOptions, workDir: string): string {
  if (options.contractsDir) return options.contractsDir;
  const project = join(workDir, 'Forge', 'Contracts');
  return existsSync(project) ? project : defaultContractsDir();
}

export function createMcpService(options: McpServiceOptions): McpService {
  // `forge mcp` may be the first to touch the data folder (token, artifacts, forge.db): owner-only.
  prepareDataDir(options.dataDir);
  const env = readMcpEnv(options.env ?? process.env);
  const workDir = options.workDir ?? process.cwd();
  const cache = new TtlCache({ ttlSeconds: options.cacheTtlSeconds ?? CACHE_TTL_SECONDS, now: options.now });

  let mode: 'local' | 'remote' = 'local';
  let remote: { url: string; token?: string } | undefined;
  if (options.mode === 'remote' || (options.mode !== 'local' && !env.forceLocal)) {
    const url = options.remoteUrl ?? env.remoteUrl;
    if (url) remote = { url, token: options.remoteToken ?? env.remoteToken ?? readHostLock(options.dataDir)?.token };
    else {
      const lock = readHostLock(options.dataDir);
      if (lock) remote = { url: lock.url, token: lock.token };
    }
    if (remote) mode = 'remote';
    else if (options.mode === 'remote') {
      throw new AppError('unavailable', 'Remote mode needs a running Forge app: start it, or pass --remote URL (or set FORGEGUARD_URL).');
    }
  }

  let db = options.db;
  let ownsDb = false;
  let store: Promise<ProjectStore> | undefined;
  // The database (native module, sqlite-vec, migrations) is opened on first use only.
  const projectStore = (): Promise<ProjectStore> => {
    store ??= (async () => {
      if (!db) {
        const { openDatabase } = await import('../store');
        db = openDatabase(join(options.dataDir, 'forge.db'));
        ownsDb = true;
      }
      return new ProjectStore(db);
    })();
    return store;
  };

  let source: GovernanceSource;
  let projects: ProjectSource;
  if (mode === 'remote' && remote) {
    const r = new RemoteSource({ url: remote.url, token: remote.token, deskToken: options.deskToken ?? env.deskToken, cache });
    source = r;
    projects = r;
  } else {
    source = new LocalSource({ dir: chooseContractsDir(options, workDir), cache, watch: options.watch });
    // Opened lazily: most sessions never touch projects, and `forge mcp` must start fast.
    projects = {
      getProjectContext: async (id: string): Promise<ProjectContext> => (await projectStore()).getProjectContext(id),
      getProjectContract: async (id: string, type: ContractName): Promise<ProjectContract> => (await projectStore()).getProjectContract(id, type),
      getBuildContracts: async (id: string): Promise<BuildSnapshot> => (await projectStore()).getBuildContracts(id),
    };
  }

  // The spec reader is loaded on first use: most sessions never open a project folder.
  const readSpec: SpecReader = options.readSpec ?? (async (dir, opts) => (await import('../specs')).readSpecPackage(dir, opts));
  const folders = new FolderProjects(readSpec, async (id) => {
    if (mode === 'local' && !db && !existsSync(join(options.dataDir, 'forge.db'))) return false;
    try {
      await projects.getProjectContext(id);
      return true;
    } catch {
      return false;
    }
  });

  const service: McpService = {
    mode,
    source,
    projects,
    projectStore: async () => {
      if (mode === 'remote') throw new AppError('unavailable', 'Projects are kept by the Forge app this server is attached to.');
      return projectStore();
    },
    artifacts: new ArtifactStore(join(options.dataDir, MCP_FILES.artifacts), options.now),
    scratchpad: new Scratchpad(workDir),
    calls: new CallLog(),
    token: new TokenFile(options.dataDir),
    cache,
    dataDir: options.dataDir,
    workDir,
    extraTools: () => options.extraTools?.() ?? [],
    sharedData: () => options.sharedData?.(),
    folders,
    connectionFolder: () => new ConnectionFolder(folders),
    connections: new Map(),
    cacheClear: () => cache.clear(),
    close() {
      source.close();
      if (ownsDb) db?.close();
    },
  };

  if (mode === 'remote' && remote) {
    const r = source as RemoteSource;
    service.planner = (request) => r.call<PlannerResult>('mcp/run-planner', { ...request });
    // The app holds the registry, the keys and the share switches: a fetch is the app's, never this process's.
    const viaApp: SharedDataPort = {
      fetch: (request, signal) => r.call<SharedFetchAnswer>('mcp/fetch', { ...request }, { timeoutMs: REMOTE_FETCH_TIMEOUT_MS, signal }),
    };
    service.sharedData = () => options.sharedData?.() ?? viaApp;
  } else if (options.model) {
    const getModel = options.model;
    service.planner = (request, onProgress, signal) => {
      const model = getModel();
      if (!model) {
        throw new AppError('unavailable', 'The planner needs a model: set an Anthropic API key in Forge (Settings → API keys) or ANTHROPIC_API_KEY.');
      }
      return runPlanner(
        {
          model,
          plansDir: join(options.dataDir, MCP_FILES.projects),
          readContract: async (name) => {
            const c = await source.loadContract(name as ContractName);
            return typeof c.content === 'string' ? c.content : JSON.stringify(c.content, null, 2);
          },
          savePlan: async (projectId, projectName, request, plan) => {
            const s = await projectStore();
            s.ensureProject({ id: projectId, name: projectName, description: request.slice(0, 500) });
            return s.saveContract(projectId, 'phases', plan, 'planner').version;
          },
        },
        request,
        onProgress,
        signal,
      );
    };
  }
  return service;
}
