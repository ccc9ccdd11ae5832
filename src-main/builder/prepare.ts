import { randomBytes } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, realpathSync, statSync } from 'node:fs';
import { isAbsolute, join, resolve } from 'node:path';
import type { BuildMode } from '../api/builds';
import { InvalidInputError, NotFoundError } from '../common/errors';
import { CONTRACT_MAP, CONTRACT_NAMES, type ContractName, parsePhases, type ProjectStore, slugify } from '../mcp';
import { readSpecPackage, type SpecPackage } from '../specs';

/**
 * Everything a build needs before its first turn: the working directory checked, its spec package
 * read as it is (spec-kit, Kiro, OpenSpec, a plain plan or Forge/Contracts/) or a planner project's
 * plan, the phases to build by the plan's own ids, the project's name and one-line description,
 * and the pinned contract snapshot.
 */

export const CONTRACTS_FOLDER = join('Forge', 'Contracts');

export interface PreparedBuild {
  id: string;
  workDir: string;
  contractsDir: string;
  projectId: string;
  /** Set when the plan came from the planner (forge tools then read that project's phases). */
  plannerProject: string | null;
  /**
   * The phases in plan order. `id` is the plan's own ("1", "3.1"): every prompt, message and tool
   * uses it. `number` is the key the build store and the Builds screen use: the id itself when the
   * plan numbers its phases with whole numbers, else the phase's position.
   */
  phases: { number: number; name: string; id: string }[];
  /** The phases contract's text the build follows (a planner project's plan; empty for a spec package). */
  phasesText: string;
  /** The spec package the build works from (null for a planner project's plan). */
  package: SpecPackage | null;
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

/** A project folder of any spec format: absolute, existing, a folder (its real path). */
export function checkProjectDir(raw: string): string {
  const given = raw.trim();
  if (!isAbsolute(given)) throw new InvalidInputError(`"${given.slice(0, 200)}" is not an absolute path; give the project folder's full path.`);
  const abs = resolve(given);
  if (!existsSync(abs)) throw new NotFoundError(`There is no folder ${abs}. Create it with your specs inside, or pick another.`);
  if (!statSync(abs).isDirectory()) throw new InvalidInputError(`${abs} is a file, not a folder; give the project folder.`);
  return realpathSync(abs);
}

/** Store keys for a plan's phases: whole-number ids as they are (a plan from 1 shows Phase 1), else positions. */
export function phaseKeys(phases: { id: string; name: string }[]): PreparedBuild['phases'] {
  const ints = phases.map((p) => (/^\d{1,6}$/.test(p.id.trim()) ? Number(p.id) : Number.NaN));
  const whole = ints.every(Number.isInteger) && new Set(ints).size === ints.length;
  return phases.map((p, i) => ({ number: whole ? ints[i]! : i, id: p.id, name: p.name || `Phase ${p.id}` }));
}

/** The project's name and description: Forge's blueprint, else the package's leading spec, requirements or proposal. */
export function packageLead(pkg: SpecPackage): string {
  for (const kind of ['blueprint', 'spec', 'requirements', 'proposal', 'project', 'constitution', 'plan', 'doc']) {
    const doc = pkg.documents.find((d) => d.kind === kind);
    if (doc) return doc.text;
  }
  return pkg.documents[0]?.text ?? '';
}

/** The Forge contract files present in the folder, by logical name (none when there is no such folder). */
export function readContracts(contractsDir: string): PreparedBuild['contracts'] {
  // A spec-kit, Kiro, OpenSpec or plain project has no Forge/Contracts/: it has no Forge contracts.
  if (!existsSync(contractsDir)) return [];
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

/** What a build will follow, read without writing anything: checked before the model key, so a wrong folder or feature is named first. */
export interface BuildPlan {
  workDir: string;
  contractsDir: string;
  contracts: PreparedBuild['contracts'];
  phases: PreparedBuild['phases'];
  phasesText: string;
  package: SpecPackage | null;
  plannerProject: string | null;
  /** The feature or change read (spec-kit, Kiro, OpenSpec), else null. */
  feature: string | null;
}

/**
 * The spec package in `workDir` with the feature asked for. A feature the folder does not hold is
 * bad input on the `feature` field, naming the ones it does hold (the start form shows it there).
 */
export function readBuildPackage(workDir: string, feature?: string): SpecPackage {
  const pkg = (() => {
    try {
      return readSpecPackage(workDir, feature ? { feature } : {});
    } catch (e) {
      // chooseFeature says "There is no X in specs/; it holds …": the folder exists, the choice is wrong.
      if (feature && e instanceof NotFoundError && e.message.startsWith(`There is no "${feature}"`)) {
        throw new InvalidInputError(e.message, [{ path: ['feature'], message: e.message }]);
      }
      throw e;
    }
  })();
  if (feature && !pkg.feature) {
    const msg = `${workDir} is a ${pkg.format} package, which has no features or changes to choose from; leave the feature empty.`;
    throw new InvalidInputError(msg, [{ path: ['feature'], message: msg }]);
  }
  return pkg;
}

export async function readBuildPlan(input: {
  workDir: string;
  mini: boolean;
  projectId?: string;
  feature?: string;
  projects: () => Promise<ProjectStore>;
}): Promise<BuildPlan> {
  const workDir = checkProjectDir(input.workDir);
  const contractsDir = join(workDir, CONTRACTS_FOLDER);
  const contracts = existsSync(contractsDir) && statSync(contractsDir).isDirectory() ? readContracts(contractsDir) : [];
  let phasesText = '';
  let pkg: SpecPackage | null = null;
  let phases: PreparedBuild['phases'];
  if (input.projectId) {
    if (input.feature) {
      const msg = 'A planner project has one plan; a feature applies only to a spec package read from the folder.';
      throw new InvalidInputError(msg, [{ path: ['feature'], message: msg }]);
    }
    phasesText = (await (await input.projects()).getProjectContract(input.projectId, 'phases')).content;
    phases = parsePhases(phasesText).map((p) => ({ number: p.number, id: p.id, name: p.name || `Phase ${p.id}` }));
    if (!phases.length) {
      throw new InvalidInputError(`The plan of project "${input.projectId}" has no "## Phase N — name" headings, so there is nothing to build. Plan it again.`);
    }
  } else {
    pkg = readBuildPackage(workDir, input.feature);
    if (!pkg.phases.length) {
      const why = pkg.notUnderstood.slice(0, 3).join(' ');
      const what = pkg.feature ? ` (${pkg.format === 'openspec' ? 'change' : 'feature'} ${pkg.feature})` : '';
      throw new InvalidInputError(
        `${workDir} was read as a ${pkg.format} package${what}, but Forge found no phases to build in it.${why ? ` ${why}` : ''} Give it a phased plan (tasks.md, PLAN.md or ${CONTRACT_MAP.phases.file}).`,
      );
    }
    phases = phaseKeys(pkg.phases);
  }
  if (input.mini) phases = phases.slice(0, 2);
  return { workDir, contractsDir, contracts, phases, phasesText, package: pkg, plannerProject: input.projectId ?? null, feature: pkg?.feature ?? null };
}

/** The snapshot: the working directory's contracts saved as the project's latest versions, then pinned to a new build id. */
export function pinBuild(plan: BuildPlan, input: { projectName: (leadText: string) => string; projects: ProjectStore }): PreparedBuild {
  const { contracts, package: pkg } = plan;
  const name = input.projectName(pkg ? packageLead(pkg) : (contracts.find((c) => c.name === 'blueprint')?.text ?? ''));
  const projectId = plan.plannerProject ?? (slugify(name) || 'project');
  input.projects.ensureProject({ id: projectId, name });
  if (!plan.plannerProject) for (const c of contracts) input.projects.saveContract(projectId, c.name, c.text, 'import');
  const id = `build-${new Date().toISOString().slice(0, 10).replaceAll('-', '')}-${randomBytes(4).toString('hex')}`;
  // The package's own documents too (any format), so the audit can tell a copied spec paragraph.
  input.projects.pinBuild(projectId, id, pkg?.documents ?? []);
  return {
    id,
    workDir: plan.workDir,
    contractsDir: plan.contractsDir,
    projectId,
    plannerProject: plan.plannerProject,
    phases: plan.phases,
    phasesText: plan.phasesText,
    package: pkg,
    contracts,
  };
}

export async function prepareBuild(input: {
  workDir: string;
  mode: BuildMode;
  mini: boolean;
  projectId?: string;
  feature?: string;
  /** The project's name, from the text that leads the package (Forge's blueprint, a spec, requirements …). */
  projectName: (leadText: string) => string;
  projects: ProjectStore;
}): Promise<PreparedBuild> {
  const plan = await readBuildPlan({ ...input, projects: async () => input.projects });
  return pinBuild(plan, input);
}
