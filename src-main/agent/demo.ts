import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { findBundledDir, openWorkspace, type Workspace } from '../fs';
import { defaultGuardrailLimits } from '../guardrails';
import { ScriptedSubAgents } from '../executor/testing';
import { loadScenario, ScriptedModel, type Model, type ModelCallRequest, type ModelStreamEvent, type ScenarioInput } from '../llm';
import { CsvProvider, ProviderRegistry } from '../providers';
import { HashNgramEmbedder, SearchIndex } from '../search';
import { SkillLoader } from '../skills';
import { Analyst, type AnalystEvent, type RunOutcome } from './analyst';
import { buildDelegation } from './delegation';

export const DEMO_MESSAGE = 'Morning check (demo): has anything changed for the Fed-cuts View, and is there a trade worth proposing?';

export interface DemoOptions {
  /** The data folder for the demo's own workspace; a new temp folder by default. */
  dataDir?: string;
  /** The seed workspace to copy (default: the app's bundled resources/seed). */
  seedDir?: string;
  /** The demo material: scenario.json, subagents.json and data/*.csv (default: the bundled resources/demo). */
  demoDir?: string;
  skillCatalog?: () => string;
  /** Skills for dispatched sub-agents (default: a loader over the bundled skills, closed with the demo). */
  skills?: SkillLoader;
  emit?: (event: AnalystEvent) => void;
  now?: () => Date;
}

export interface DemoRun {
  analyst: Analyst;
  workspace: Workspace;
  dataDir: string;
  runId: string;
  sessionId: string;
  /** Settles when the scripted run ends; the workspace stays open for browsing until `close`. */
  done: Promise<RunOutcome>;
  close(): Promise<void>;
}

/**
 * The demo's one model: the analyst's calls replay scenario.json; every other role (sub-agents,
 * validators, the reviewer) replays its own script from subagents.json, so a nested call (the
 * reviewer inside the review tool) never disturbs the analyst's script.
 */
class DemoModel implements Model {
  readonly isScripted = true;
  constructor(
    private readonly agent: ScriptedModel,
    private readonly others: ScriptedSubAgents,
  ) {}
  get id(): string {
    return this.agent.id;
  }
  private pick(request: ModelCallRequest): Model {
    return !request.role || request.role === 'agent' ? this.agent : this.others;
  }
  call(request: ModelCallRequest) {
    return this.pick(request).call(request);
  }
  stream(request: ModelCallRequest, onEvent: (event: ModelStreamEvent) => void) {
    return this.pick(request).stream(request, onEvent);
  }
}

function loadSubAgentScripts(file: string): Record<string, ScenarioInput> {
  if (!existsSync(file)) return {};
  try {
    return JSON.parse(readFileSync(file, 'utf8')) as Record<string, ScenarioInput>;
  } catch (e) {
    throw new Error(`The demo's sub-agent scripts (${file}) are unreadable: ${(e as Error).message}. Reinstall Forge.`);
  }
}

function bundled(rel: string, given?: string): string {
  const dir = given ?? findBundledDir(rel);
  if (!dir) throw new Error(`The demo material (${rel}) is missing from this installation; reinstall Forge.`);
  return dir;
}

/**
 * The offline demo: a scripted model (never Claude) drives the real loop, tools, guardrails and
 * approval gate on a fresh COPY of the seed workspace in its own data folder, so nothing touches
 * the PM's memory. Every run is labelled as a demo (prompt, events, session block).
 */
export async function startDemo(options: DemoOptions = {}): Promise<DemoRun> {
  const demoDir = bundled(join('resources', 'demo'), options.demoDir);
  const seedDir = bundled(join('resources', 'seed'), options.seedDir);
  const dataDir = options.dataDir ?? mkdtempSync(join(tmpdir(), 'forge-demo-'));
  let index!: SearchIndex;
  const workspace = openWorkspace({
    dataDir,
    seedDir,
    bundledSkillsDir: null,
    indexer: (store) => (index = new SearchIndex(store.db, new HashNgramEmbedder())),
  });
  const scenario = loadScenario(join(demoDir, 'scenario.json'));
  const model = new DemoModel(new ScriptedModel(scenario, { chunkSize: 24 }), new ScriptedSubAgents(loadSubAgentScripts(join(demoDir, 'subagents.json'))));
  const providers = new ProviderRegistry([new CsvProvider({ dir: join(demoDir, 'data') })], { now: options.now });
  const search = (req: Parameters<SearchIndex['search']>[0]) => index.search(req);
  const skillsDir = options.skills ? null : findBundledDir('skills');
  const skills = options.skills ?? new SkillLoader(skillsDir ?? join(dataDir, 'skills'), { mode: 'lenient' });
  const delegation = buildDelegation({ fs: workspace.fs, skills, model, providers, search, limits: () => defaultGuardrailLimits, now: options.now });
  const closeExtras = async () => {
    await delegation.close();
    if (!options.skills) skills.close();
  };
  const analyst = new Analyst({
    fs: workspace.fs,
    ready: workspace.ready,
    providers,
    search,
    skillCatalog: options.skillCatalog ?? (() => skills.formatCatalog({ maxDescription: 100 })),
    model: () => model,
    tasks: delegation.executor,
    reviewer: delegation.reviewer,
    reviews: delegation.reviews,
    limits: () => defaultGuardrailLimits,
    settings: () => ({ sessionTimeoutMinutes: 30, timezone: 'US/Eastern' }),
    emit: options.emit ?? (() => {}),
    demo: true,
    now: options.now,
  });
  try {
    const { runId, sessionId } = await analyst.send({ message: DEMO_MESSAGE });
    const done = analyst.wait(runId);
    return {
      analyst,
      workspace,
      dataDir,
      runId,
      sessionId,
      done,
      close: async () => {
        await analyst.close();
        await closeExtras();
        await workspace.ready.catch(() => undefined);
        workspace.close();
      },
    };
  } catch (e) {
    await closeExtras();
    workspace.close();
    throw e;
  }
}

/** Runs the demo to the end and closes its workspace; the data folder is kept for inspection. */
export async function runDemo(options: DemoOptions = {}): Promise<RunOutcome & { dataDir: string }> {
  const run = await startDemo(options);
  try {
    return { ...(await run.done), dataDir: run.dataDir };
  } finally {
    await run.close();
  }
}
