import { existsSync, readFileSync, watch, type FSWatcher } from 'node:fs';
import { join } from 'node:path';
import { AppError, NotFoundError } from '../common/errors';
import { TtlCache } from './cache';
import { CACHE_TTL_SECONDS, CONTRACT_BRIEFS, CONTRACT_MAP, CONTRACT_NAMES, type ContractName } from './config';
import { DEFAULT_GATES, invariantsOf, parseGates } from './invariants';
import { phaseWindow, type PhaseWindow } from './phases';
import type { ContractListing, Governance, GovernanceSource, GovernanceSummary, Invariants, LoadedContract } from './source';

/**
 * Contracts read from a folder on disk (the repo's `contracts/`, or a project's
 * `Forge/Contracts/`). Reads are cached for 300 s; a change to a file in the folder drops the
 * entries that depend on it at once (fs.watch), and the cache re-checks mtimes as a safety net.
 */

const AGGREGATE_KEYS = ['list_contracts', 'summary', 'governance', 'invariants'];
export const INVARIANTS_FILE = 'invariants.json';

export class ContractFileError extends AppError {
  constructor(file: string, problem: string) {
    super('unavailable', `The contract file ${file} ${problem}`);
    this.name = 'ContractFileError';
  }
}

export interface LocalSourceOptions {
  dir: string;
  cache?: TtlCache;
  /** Watch the folder for changes (default true); tests of the mtime safety net turn it off. */
  watch?: boolean;
}

export class LocalSource implements GovernanceSource {
  readonly mode = 'local' as const;
  readonly location: string;
  readonly cache: TtlCache;
  private watcher?: FSWatcher;

  constructor(options: LocalSourceOptions) {
    this.location = options.dir;
    this.cache = options.cache ?? new TtlCache({ ttlSeconds: CACHE_TTL_SECONDS });
    if (options.watch !== false && existsSync(options.dir)) {
      try {
        this.watcher = watch(options.dir, (_event, filename) => this.onFileChanged(filename ? String(filename) : undefined));
        this.watcher.on('error', () => this.stopWatching());
        this.watcher.unref();
      } catch {
        // No watcher (e.g. too many watches): the mtime check still keeps reads fresh.
      }
    }
  }

  private onFileChanged(filename: string | undefined): void {
    if (!filename) {
      this.cache.clear();
      return;
    }
    const name = CONTRACT_NAMES.find((n) => CONTRACT_MAP[n].file === filename);
    const prefixes = [...AGGREGATE_KEYS];
    if (name) prefixes.push(`contract:${name}`, `phases_text`);
    this.cache.invalidate({ prefixes });
  }

  private stopWatching(): void {
    this.watcher?.close();
    this.watcher = undefined;
  }

  private pathOf(name: ContractName): string {
    return join(this.location, CONTRACT_MAP[name].file);
  }

  private readText(name: ContractName): string {
    const file = CONTRACT_MAP[name].file;
    try {
      return readFileSync(this.pathOf(name), 'utf8');
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code === 'ENOENT') {
        throw new NotFoundError(
          `The contract "${name}" is missing: there is no ${file} in ${this.location}. Add the file or call forge_list_contracts to see which contracts exist.`,
        );
      }
      throw new ContractFileError(file, `could not be read: ${(e as Error).message}`);
    }
  }

  private async parse(name: ContractName, text: string): Promise<unknown> {
    const { file, format } = CONTRACT_MAP[name];
    try {
      if (format === 'json') return JSON.parse(text);
      // Loaded on first use: the YAML parser is not needed to start the server.
      if (format === 'yaml') return (await import('yaml')).parse(text);
      return text;
    } catch (e) {
      throw new ContractFileError(file, `is not valid ${format.toUpperCase()}: ${(e as Error).message.split('\n')[0]}. Fix the file in ${this.location}.`);
    }
  }

  loadContract(name: ContractName): Promise<LoadedContract> {
    return this.cache.getOrLoad(
      `contract:${name}`,
      async () => ({ name, file: CONTRACT_MAP[name].file, format: CONTRACT_MAP[name].format, content: await this.parse(name, this.readText(name)) }),
      [this.pathOf(name)],
    );
  }

  async phaseWindow(phase: number | string): Promise<PhaseWindow> {
    const text = await this.cache.getOrLoad('phases_text', () => this.readText('phases'), [this.pathOf('phases')]);
    return phaseWindow(text, phase);
  }

  listContracts(): Promise<ContractListing[]> {
    return this.cache.getOrLoad('list_contracts', () =>
      CONTRACT_NAMES.map((name) => ({
        name,
        file: CONTRACT_MAP[name].file,
        format: CONTRACT_MAP[name].format,
        available: existsSync(this.pathOf(name)),
        brief: CONTRACT_BRIEFS[name],
      })),
    );
  }

  getInvariants(): Promise<Invariants> {
    const file = join(this.location, INVARIANTS_FILE);
    return this.cache.getOrLoad('invariants', () => {
      if (!existsSync(file)) return invariantsOf(DEFAULT_GATES, 'built-in defaults');
      let raw: unknown;
      try {
        raw = JSON.parse(readFileSync(file, 'utf8'));
      } catch (e) {
        throw new ContractFileError(INVARIANTS_FILE, `is not valid JSON: ${(e as Error).message}`);
      }
      try {
        return invariantsOf(parseGates(raw, INVARIANTS_FILE), INVARIANTS_FILE);
      } catch (e) {
        throw new ContractFileError(INVARIANTS_FILE, `is malformed: ${(e as Error).message}`);
      }
    }, [file]);
  }

  async getSummary(toolNames: string[]): Promise<GovernanceSummary> {
    return this.cache.getOrLoad('summary', async () => {
      const contracts = await this.listContracts();
      const invariants = await this.getInvariants();
      const layers = await this.optional('boundaries', (b) => {
        const modules = (b as { modules?: Record<string, { path?: string; mayImport?: string[] }> }).modules ?? {};
        return Object.entries(modules).map(([name, m]) => ({ name, path: String(m.path ?? ''), may_import: m.mayImport ?? [] }));
      });
      const endpoints = await this.optional('physics', (p) => Object.keys((p as { paths?: Record<string, unknown> }).paths ?? {}));
      return {
        framework: 'Forge governance: contracts a builder reads on demand, invariant gates checked at every phase sign-off.',
        mode: this.mode,
        source: this.location,
        contracts,
        layers: layers ?? [],
        invariants: invariants.gates.map((g) => g.name),
        endpoints: endpoints ?? [],
        tools: toolNames,
      };
    }, [...CONTRACT_NAMES.map((n) => this.pathOf(n)), join(this.location, INVARIANTS_FILE)]);
  }

  getGovernance(): Promise<Governance> {
    return this.cache.getOrLoad(
      'governance',
      async () => ({
        builder_contract: (await this.loadContract('builder_contract')).content,
        boundaries: (await this.loadContract('boundaries')).content,
        stack: (await this.loadContract('stack')).content,
        invariants: await this.getInvariants(),
      }),
      [this.pathOf('builder_contract'), this.pathOf('boundaries'), this.pathOf('stack'), join(this.location, INVARIANTS_FILE)],
    );
  }

  /** A summary still answers when one contract is missing; the listing shows which. */
  private async optional<T>(name: ContractName, pick: (content: unknown) => T): Promise<T | undefined> {
    try {
      return pick((await this.loadContract(name)).content);
    } catch {
      return undefined;
    }
  }

  clearCache(): number {
    return this.cache.clear();
  }

  close(): void {
    this.stopWatching();
  }
}
