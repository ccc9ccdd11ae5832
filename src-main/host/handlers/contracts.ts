import { existsSync, readdirSync, readFileSync, realpathSync, statSync } from 'node:fs';
import { basename, isAbsolute, join, sep } from 'node:path';
import type { ContractProblem, ContractScope } from '../../api/contracts';
import { writeFileAtomic } from '../../common/atomic-file';
import { AppError, ConflictError, InvalidInputError, NotFoundError } from '../../common/errors';
import { BuildStore, checkWorkDir } from '../../builder';
import { sha256 } from '../../fs';
import { CONTRACT_BRIEFS, CONTRACT_MAP, CONTRACT_NAMES, type TtlCache } from '../../mcp';
import type { CoreContext } from '../context';
import { kindOf, validateContract } from './contracts-validate';
import { ContractVersionStore } from './contracts-versions';
import type { PartialHandlerMap } from './types';

/**
 * The Contracts screen's procedures. Forge's contracts are the folder the app's MCP server serves
 * (so an attached IDE reads what the PM saved, at once: the server's cache is dropped on save); a
 * project's are its Forge/Contracts/, the folder its builds read.
 */

export interface ContractsDeps {
  /** Forge's own contracts: the MCP server's folder and its cache. */
  forge: () => { dir: string; cache: TtlCache };
  now?: () => Date;
}

interface Folder {
  scope: 'forge' | 'project';
  dir: string;
  /** Where saves are recorded in the audit log. */
  auditPrefix: string;
}

/** The MCP entries that summarise every contract (list, summary, governance, invariants). */
const AGGREGATE_KEYS = ['list_contracts', 'summary', 'governance', 'invariants'];

function forbidden(message: string): AppError {
  return new AppError('forbidden', message);
}

function folderOf(scope: ContractScope, ctx: CoreContext, deps: ContractsDeps): Folder {
  if (scope.projectPath && scope.buildId) throw new InvalidInputError('Give a project folder or a build, not both.');
  if (scope.buildId || scope.projectPath) {
    const workDir = scope.buildId ? new BuildStore(ctx.memory.store.db).get(scope.buildId).workDir : (scope.projectPath as string);
    const checked = checkWorkDir(workDir);
    return { scope: 'project', dir: checked.contractsDir, auditPrefix: `/contracts/project/${basename(checked.workDir)}/` };
  }
  const dir = deps.forge().dir;
  if (!existsSync(dir)) throw new NotFoundError(`Forge's contracts folder ${dir} is missing; reinstall Forge or start it from its folder.`);
  return { scope: 'forge', dir, auditPrefix: '/contracts/forge/' };
}

/** The contract's file, confined to the folder: a bare name with a contract extension, never a path. */
function fileIn(folder: Folder, name: string): string {
  const shown = JSON.stringify(name.slice(0, 120));
  if (name.includes('\0') || isAbsolute(name) || /^[a-zA-Z]:/.test(name) || /[\\/]/.test(name) || name === '..' || name === '.') {
    throw forbidden(`${shown} is not a file of the contracts folder: give a bare file name such as physics.yaml, without folders or "..".`);
  }
  if (name.startsWith('.')) throw forbidden(`${shown} is a hidden file (versions live there), not a contract.`);
  if (!kindOf(name)) throw new InvalidInputError(`${shown} is not a contract: contracts are .md, .json, .yaml or .yml files.`);
  const file = join(folder.dir, name);
  if (existsSync(file)) {
    // A symbolic link may point anywhere; only files really inside the folder are contracts.
    const real = realpathSync(file);
    const root = realpathSync(folder.dir);
    if (!real.startsWith(root + sep)) throw forbidden(`${shown} points outside the contracts folder; Forge edits only files inside ${folder.dir}.`);
  }
  return file;
}

function readExisting(file: string, name: string, folder: Folder): string {
  if (!existsSync(file) || !statSync(file).isFile()) {
    throw new NotFoundError(`There is no contract ${name} in ${folder.dir}. Pick one from the list.`);
  }
  return readFileSync(file, 'utf8');
}

function describeProblems(problems: ContractProblem[]): string {
  const shown = problems.slice(0, 5).map((p) => `line ${p.line}:${p.column} ${p.path === '(syntax)' ? '' : `${p.path}: `}${p.message}`);
  return shown.join('; ') + (problems.length > 5 ? ` (and ${problems.length - 5} more)` : '');
}

export function contractsHandlers(deps: ContractsDeps): PartialHandlerMap {
  const now = () => (deps.now ?? (() => new Date()))().toISOString();
  return {
    'contracts/list': (input, ctx) => {
      const folder = folderOf(input, ctx, deps);
      const versions = new ContractVersionStore(folder.dir);
      const contracts = readdirSync(folder.dir, { withFileTypes: true })
        .filter((d) => d.isFile() && !d.name.startsWith('.') && kindOf(d.name) !== null)
        .map((d) => {
          const s = statSync(join(folder.dir, d.name));
          const known = CONTRACT_NAMES.find((n) => CONTRACT_MAP[n].file === d.name);
          return {
            name: d.name,
            kind: kindOf(d.name) ?? 'md',
            bytes: s.size,
            updatedAt: s.mtime.toISOString(),
            versions: versions.list(d.name).length,
            // The briefs describe Forge's own contracts; a project's physics.yaml is that project's API.
            brief: known && folder.scope === 'forge' ? CONTRACT_BRIEFS[known] : null,
          };
        })
        .sort((a, b) => a.name.localeCompare(b.name, 'en', { sensitivity: 'base' }));
      return { scope: folder.scope, folder: folder.dir, contracts };
    },

    'contracts/read': (input, ctx) => {
      const folder = folderOf(input, ctx, deps);
      const file = fileIn(folder, input.name);
      const store = new ContractVersionStore(folder.dir);
      const kind = kindOf(input.name) ?? 'md';
      if (input.version !== undefined) {
        const text = store.read(input.name, input.version);
        const meta = store.list(input.name).find((v) => v.version === input.version);
        return { name: input.name, kind, text, version: input.version, hash: sha256(text), updatedAt: meta?.createdAt ?? now() };
      }
      const text = readExisting(file, input.name, folder);
      const hash = sha256(text);
      return { name: input.name, kind, text, version: store.currentVersion(input.name, hash), hash, updatedAt: statSync(file).mtime.toISOString() };
    },

    'contracts/validate': (input) => {
      if (!kindOf(input.name)) throw new InvalidInputError(`"${input.name.slice(0, 120)}" is not a contract: contracts are .md, .json, .yaml or .yml files.`);
      const problems = validateContract(input.name, input.text);
      return { valid: !problems.some((p) => p.severity === 'error'), problems };
    },

    'contracts/save': (input, ctx) => {
      const folder = folderOf(input, ctx, deps);
      const file = fileIn(folder, input.name);
      const disk = readExisting(file, input.name, folder);
      const errors = validateContract(input.name, input.text).filter((p) => p.severity === 'error');
      if (errors.length) {
        throw new InvalidInputError(
          `${input.name} was not saved: ${errors.length === 1 ? 'it has a problem' : `it has ${errors.length} problems`} — ${describeProblems(errors)}.`,
          errors.map((p) => ({ path: [p.path], message: `line ${p.line}:${p.column} ${p.message}` })),
        );
      }
      const store = new ContractVersionStore(folder.dir);
      const diskHash = sha256(disk);
      const current = store.currentVersion(input.name, diskHash);
      if (current !== input.expectedVersion || (input.expectedHash !== undefined && input.expectedHash !== diskHash)) {
        throw new ConflictError(
          `${input.name} changed since you opened it (it is now version ${current}). Reload it to see that change; copy your edits first if you want to keep them.`,
        );
      }
      const at = now();
      if (input.text === disk) {
        const v = store.ensureRecorded(input.name, disk, at);
        return { name: input.name, version: v.version, hash: diskHash, updatedAt: statSync(file).mtime.toISOString(), changed: false, cacheEntriesDropped: 0 };
      }
      // The text being replaced is kept first, so a save never loses what was there.
      store.ensureRecorded(input.name, disk, at);
      writeFileAtomic(file, input.text, statSync(file).mode & 0o777);
      const saved = store.record(input.name, input.text, { by: ctx.settings.get().displayName || 'pm', at, reason: 'saved on the Contracts screen' });
      ctx.memory.store.audit.append({
        at,
        actor: 'pm',
        operation: 'update',
        path: `${folder.auditPrefix}${input.name}`,
        session_id: null,
        task_id: null,
        content_hash: saved.hash,
      });
      // Attached IDEs must read the new text now, not after the 300 s cache or the next fs event.
      const known = CONTRACT_NAMES.find((n) => CONTRACT_MAP[n].file === input.name);
      const prefixes =
        folder.scope === 'forge' ? [...AGGREGATE_KEYS, ...(known ? [`contract:${known}`] : []), ...(known === 'phases' ? ['phases_text'] : [])] : [];
      const dropped = deps.forge().cache.invalidate({ prefixes, file });
      return {
        name: input.name,
        version: saved.version,
        hash: saved.hash,
        updatedAt: statSync(file).mtime.toISOString(),
        changed: true,
        cacheEntriesDropped: dropped,
      };
    },

    'contracts/versions': (input, ctx) => {
      const folder = folderOf(input, ctx, deps);
      const file = fileIn(folder, input.name);
      const hash = existsSync(file) ? sha256(readFileSync(file, 'utf8')) : '';
      const all = new ContractVersionStore(folder.dir).list(input.name);
      const last = all.at(-1);
      return {
        name: input.name,
        versions: all
          .map((v) => ({
            version: v.version,
            createdAt: v.createdAt,
            by: v.by,
            reason: v.reason,
            bytes: v.bytes,
            hash: v.hash,
            current: v === last && v.hash === hash,
          }))
          .reverse(),
      };
    },
  };
}
