import { randomBytes } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, realpathSync, statSync } from 'node:fs';
import { isAbsolute, join, resolve } from 'node:path';
import type { BuildMode } from '../api/builds';
import { InvalidInputError, NotFoundError } from '../common/errors';
import { CONTRACT_MAP, CONTRACT_NAMES, type ContractName, parsePhases, type ProjectStore, slugify } from '../mcp';

/**
 * Everything a build needs before its first turn: the working directory checked, its contracts
 * read, the phases to build (from Forge/Contracts/phases.md or a planner project's plan), the
 * project's name and one-line description, and the pinned contract snapshot.
 */

export const CONTRACTS_FOLDER = join('Forge', 'Contracts');

export interface PreparedBuild {
  id: string;
  workDir: string;
  contractsDir: string;
  projectId: string;
  /** Set when the plan came from the planner (forge tools then read that project's phases). */
  plannerProject: string | null;
  phases: { number: number; name: string }[];
  /** The phases contract's text the build follows. */
  phasesText: string;
  /** Contract files present in Forge/Contracts (name → text), for dump mode and the audit. */
  contracts: { name: ContractName; file: string; text: string }[];
}

/** The working directory, real path, checked: it exists, is a folder, and holds Forge/Contracts/. */
export function checkWorkDir(raw: string): { workDir: string; contractsDir: string } {
  const given = raw.trim();
  if (!isAbsolute(given)) throw new InvalidInputError(`"${given.slice(0, 200)}" is not an absolute path; give the project folder's full path.`);
  const abs = resolve(given);
  if (!existsSync(abs)) throw new NotFoundError(`There is no folder ${abs}. Create it (with Forge/Contracts/ inside) or pick another.`);
  if (!statSync(abs).isDirectory()) throw new InvalidInputError(`${abs} is a file, not a folder; give the project folder.`);
  const workDir = realpathSync(abs);
  const contractsDir = join(workDir, CONTRACTS_FOLDER);
  if (!existsSync(contractsDir) || !statSync(contractsDir).isDirectory()) {
    throw new InvalidInputError(
      `${workDir} has no ${CONTRACTS_FOLDER}/ folder. Put the project's contracts there (blueprint.md, stack.md, phases.md …), or plan it with the planner and pass its project id.`,
    );
  }
  return { workDir, contractsDir };
}

/** The contract files present in the folder, by logical name. */
export function readContracts(contractsDir: string): PreparedBuild['contracts'] {
  const present = new Set(readdirSync(contractsDir));
  const out: PreparedBuild['contracts'] = [];
  for (const name of CONTRACT_NAMES) {
    const file = CONTRACT_MAP[name].file;
    if (!present.has(file)) continue;
    try {
      out.push({ name, file, text: readFileSync(join(contractsDir, file), 'utf8') });
    } catch {
      // Unreadable (permissions): the forge tools report it when the builder asks for it.
    }
  }
  return out;
}

export async function prepareBuild(input: {
  workDir: string;
  mode: BuildMode;
  mini: boolean;
  projectId?: string;
  projectName: (contracts: PreparedBuild['contracts']) => string;
  projects: ProjectStore;
}): Promise<PreparedBuild> {
  const { workDir, contractsDir } = checkWorkDir(input.workDir);
  const contracts = readContracts(contractsDir);
  let phasesText: string | undefined;
  if (input.projectId) {
    phasesText = (await input.projects.getProjectContract(input.projectId, 'phases')).content;
  } else {
    phasesText = contracts.find((c) => c.name === 'phases')?.text;
    if (!phasesText) {
      throw new InvalidInputError(
        `${contractsDir} has no ${CONTRACT_MAP.phases.file}: the builder needs the phases to build ("## Phase 0 — name" sections). Write one, or plan the project with the planner and pass its project id.`,
      );
    }
  }
  let phases = parsePhases(phasesText).map((p) => ({ number: p.number, name: p.name || `Phase ${p.number}` }));
  if (!phases.length) {
    throw new InvalidInputError('The phases contract has no "## Phase N — name" headings, so there is nothing to build. Add phases in that format.');
  }
  if (input.mini) phases = phases.slice(0, 2);

  // The snapshot: the working directory's contracts saved as the project's latest versions, then pinned.
  const name = input.projectName(contracts);
  const projectId = input.projectId ?? (slugify(name) || 'project');
  input.projects.ensureProject({ id: projectId, name });
  if (!input.projectId) for (const c of contracts) input.projects.saveContract(projectId, c.name, c.text, 'import');
  const id = `build-${new Date().toISOString().slice(0, 10).replaceAll('-', '')}-${randomBytes(4).toString('hex')}`;
  input.projects.pinBuild(projectId, id);
  return { id, workDir, contractsDir, projectId, plannerProject: input.projectId ?? null, phases, phasesText, contracts };
}
