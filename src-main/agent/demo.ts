import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { findBundledDir, openWorkspace, type Workspace } from '../fs';
import { defaultGuardrailLimits } from '../guardrails';
import { ScriptedSubAgents } from '../executor/testing';
import { loadScenario, ModelError, ScriptedModel, type Model, type ModelCallRequest, type ModelStreamEvent, type ScenarioInput } from '../llm';
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

export type DemoSpeed = 'slow' | 'normal' | 'fast';

/**
 * How the demo paces itself so a PM can read along: characters of answer text per second, the
 * pause before each tool call, and how long each sub-agent call takes (so the Tasks screen shows
 * them working). `fast` streams at once, for tests.
 */
export const DEMO_PACE: Record<DemoSpeed, { charsPerSecond: number; toolPauseMs: number; subAgentLatencyMs: number }> = {
  slow: { charsPerSecond: 25, toolPauseMs: 1200, subAgentLatencyMs: 2500 },
  normal: { charsPerSecond: 50, toolPauseMs: 600, subAgentLatencyMs: 1500 },
  fast: { charsPerSecond: 0, toolPauseMs: 0, subAgentLatencyMs: 0 },
};

function pause(ms: number, signal?: AbortSignal): Promise<void> {
  if (ms <= 0) return Promise.resolve();
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(new ModelError('cancelled', 'The demo was stopped.'));
    const done = () => {
      signal?.removeEventListener('abort', stop);
      resolve();
    };
    const timer = setTimeout(done, ms);
    const stop = () => {
      clearTimeout(timer);
      reject(new ModelError('cancelled', 'The demo was stopped.'));
    };
    signal?.addEventListener('abort', stop, { once: true });
  });
}

/**
 * The demo's one model: the analyst's calls replay scenario.json; every other role (sub-agents,
 * validators, the reviewer) replays its own script from subagents.json, so a nested call (the
 * reviewer inside the review tool) never disturbs the analyst's script. The analyst's stream is
 * replayed at the chosen pace: the scripted reply is computed at once, then handed on chunk by chunk.
 */
class DemoModel implements Model {
  readonly isScripted = true;
  constructor(
    private readonly agent: ScriptedModel,
    private readonly others: Model,
    private readonly speed: DemoSpeed = 'fast',
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
  async stream(request: ModelCallRequest, onEvent: (event: ModelStreamEvent) => void) {
    const pace = DEMO_PACE[this.speed];
    const model = this.pick(request);
    if (model !== this.agent || (pace.charsPerSecond === 0 && pace.toolPauseMs === 0)) return model.stream(request, onEvent);
    const held: ModelStreamEvent[] = [];
    const result = await model.stream(request, (e) => held.push(e));
    for (const e of held) {
      if (e.type === 'text_delta' && pace.charsPerSecond > 0) await pause((e.text.length / pace.charsPerSecond) * 1000, request.signal);
      else if (e.type === 'tool_call') await pause(pace.toolPauseMs, request.signal);
      onEvent(e);
    }
    return result;
  }
}

/** The demo's model over its material folder (scenario.json + subagents.json), at a pace. */
export function demoModel(demoDir: string, speed: DemoSpeed = 'fast'): Model {
  const scenario = loadScenario(join(demoDir, 'scenario.json'));
  const latencyMs = DEMO_PACE[speed].subAgentLatencyMs;
  const others = new ScriptedSubAgents(loadSubAgentScripts(join(demoDir, 'subagents.json')), {
    latencyMs: (key) => (key.startsWith('subagent:') ? latencyMs : 0),
  });
  return new DemoModel(new ScriptedModel(scenario, { chunkSize: 24 }), others, speed);
}

/** The demo's market data: its own CSV files only (never a live provider). */
export function demoProviders(demoDir: string, now?: () => Date): ProviderRegistry {
  return new ProviderRegistry([new CsvProvider({ dir: join(demoDir, 'data') })], { now });
}

/** Where the bundled demo material is (resources/demo), or a clear error when it is missing. */
export function bundledDemoDir(): string {
  return bundled(join('resources', 'demo'));
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
  const model = demoModel(demoDir);
  const providers = demoProviders(demoDir, options.now);
  const search = (req: Parameters<SearchIndex['search']>[0]) => index.search(req);
  const skillsDir = options.skills ? null : findBundledDir('skills');
  const skills = options.skills ?? new SkillLoader(skillsDir ?? join(dataDir, 'skills'), { mode: 'lenient', shippedSkillsDir: skillsDir });
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
