import { AppError } from '../common/errors';
import { TtlCache } from './cache';
import { CACHE_TTL_SECONDS, REMOTE_TIMEOUT_MS, type ContractName } from './config';
import type { PhaseWindow } from './phases';
import type {
  BuildSnapshot,
  ContractListing,
  Governance,
  GovernanceSource,
  GovernanceSummary,
  Invariants,
  LoadedContract,
  ProjectContext,
  ProjectContract,
  ProjectSource,
} from './source';

/**
 * Every read proxied to a running Forge app over its local HTTP API (`POST /api/mcp/...` with
 * the app's bearer token). Cached like local reads under `api:{path}`; a stopped or slow app is a
 * clear error after a few seconds, never a hang.
 */

export interface RemoteSourceOptions {
  url: string;
  token?: string;
  /**
   * On a desk: a person's API token (FORGE_DESK_TOKEN), sent as `x-forge-session` so every call is
   * made as them. Never logged, printed or put in an error message.
   */
  deskToken?: string;
  cache?: TtlCache;
  timeoutMs?: number;
}

export class RemoteUnavailableError extends AppError {
  constructor(message: string) {
    super('unavailable', message);
    this.name = 'RemoteUnavailableError';
  }
}

export class RemoteSource implements GovernanceSource, ProjectSource {
  readonly mode = 'remote' as const;
  readonly location: string;
  readonly cache: TtlCache;
  private readonly token?: string;
  private readonly deskToken?: string;
  private readonly timeoutMs: number;

  constructor(options: RemoteSourceOptions) {
    this.location = options.url.replace(/\/+$/, '');
    this.token = options.token;
    this.deskToken = options.deskToken;
    this.cache = options.cache ?? new TtlCache({ ttlSeconds: CACHE_TTL_SECONDS });
    this.timeoutMs = options.timeoutMs ?? REMOTE_TIMEOUT_MS;
  }

  /** One procedure call; the envelope's error comes back as the same AppError code. */
  async call<T>(procedure: string, input: Record<string, unknown> = {}, options: { timeoutMs?: number; signal?: AbortSignal } = {}): Promise<T> {
    const timeoutMs = options.timeoutMs ?? this.timeoutMs;
    let res: Response;
    try {
      res = await fetch(`${this.location}/api/${procedure}`, {
        method: 'POST',
        headers: this.headers(),
        body: JSON.stringify(input),
        signal: options.signal ? AbortSignal.any([AbortSignal.timeout(timeoutMs), options.signal]) : AbortSignal.timeout(timeoutMs),
      });
    } catch (e) {
      const why = (e as Error).name === 'TimeoutError' ? `did not answer within ${timeoutMs / 1000} s` : 'is not reachable';
      throw new RemoteUnavailableError(
        `The Forge app at ${this.location} ${why}. Start it (forge serve or the desktop app), or run the MCP server in local mode with FORGEGUARD_LOCAL=1.`,
      );
    }
    if (res.status === 401) throw await this.refused();
    let body: { ok?: boolean; value?: unknown; error?: { code?: string; message?: string } };
    try {
      body = (await res.json()) as typeof body;
    } catch {
      throw new RemoteUnavailableError(
        `The server at ${this.location} answered ${res.status} without Forge's JSON: is FORGEGUARD_URL pointing at a Forge app?`,
      );
    }
    if (body.ok) return body.value as T;
    const code = (body.error?.code ?? 'internal') as AppError['code'];
    throw new AppError(code, body.error?.message ?? `The Forge app answered ${res.status}.`);
  }

  private headers(): Record<string, string> {
    return {
      'content-type': 'application/json',
      ...(this.token ? { authorization: `Bearer ${this.token}` } : {}),
      ...(this.deskToken ? { 'x-forge-session': this.deskToken } : {}),
    };
  }

  /**
   * Why a 401: the server's own token, or (on a desk) the person. desk/status needs no person, so
   * if it answers that this is a desk, the server token was good and the person is what is missing.
   */
  private async refused(): Promise<AppError> {
    let desk = false;
    try {
      const res = await fetch(`${this.location}/api/desk/status`, {
        method: 'POST',
        headers: this.headers(),
        body: '{}',
        signal: AbortSignal.timeout(this.timeoutMs),
      });
      desk = res.ok && ((await res.json()) as { value?: { desk?: boolean } }).value?.desk === true;
    } catch {
      // Unreachable now or not Forge's JSON: report the token, as before.
    }
    if (!desk) {
      return new AppError(
        'unauthorized',
        `The Forge app at ${this.location} refused the token. Restart \`forge mcp\` so it reads the app's current token, or set FORGEGUARD_TOKEN.`,
      );
    }
    if (!this.deskToken) {
      return new AppError(
        'unauthorized',
        `The Forge at ${this.location} serves a desk, where every call is made by a signed-in person. Set FORGE_DESK_TOKEN to an API token of yours from the Desk screen (Your API tokens → New token) in this MCP server's environment, then restart it.`,
      );
    }
    return new AppError(
      'unauthorized',
      `The desk at ${this.location} refused the API token in FORGE_DESK_TOKEN (revoked, expired, or its person disabled). Make a new one on the Desk screen (Your API tokens), put it in FORGE_DESK_TOKEN, then restart this MCP server.`,
    );
  }

  private cached<T>(path: string, procedure: string, input: Record<string, unknown> = {}): Promise<T> {
    return this.cache.getOrLoad(`api:${path}`, () => this.call<T>(procedure, input));
  }

  loadContract(name: ContractName): Promise<LoadedContract> {
    return this.cached(`/forge/contracts/${name}`, 'mcp/contract', { name });
  }
  listContracts(): Promise<ContractListing[]> {
    return this.cached('/forge/contracts', 'mcp/contracts');
  }
  getInvariants(): Promise<Invariants> {
    return this.cached('/forge/invariants', 'mcp/invariants');
  }
  async getSummary(toolNames: string[]): Promise<GovernanceSummary> {
    const remote = await this.cached<GovernanceSummary>('/forge/summary', 'mcp/summary');
    return { ...remote, mode: 'remote', source: this.location, tools: toolNames };
  }
  getGovernance(): Promise<Governance> {
    return this.cached('/forge/governance', 'mcp/governance');
  }
  phaseWindow(phase: number | string): Promise<PhaseWindow> {
    return this.cached(`/forge/phases/${phase}`, 'mcp/phase-window', { phase_number: phase });
  }
  getProjectContext(projectId: string): Promise<ProjectContext> {
    return this.cached(`/api/mcp/context/${projectId}`, 'mcp/project-context', { project_id: projectId });
  }
  getProjectContract(projectId: string, type: ContractName): Promise<ProjectContract> {
    return this.cached(`/api/mcp/context/${projectId}/${type}`, 'mcp/project-contract', { project_id: projectId, contract_type: type });
  }
  getBuildContracts(buildId: string): Promise<BuildSnapshot> {
    // Snapshots never change, so caching them is always safe.
    return this.cached(`/api/mcp/build/${buildId}/contracts`, 'mcp/build-contracts', { build_id: buildId });
  }
  clearCache(): number {
    return this.cache.clear();
  }
  close(): void {
    /* nothing held open */
  }
}
