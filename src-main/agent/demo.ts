import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { findBundledDir, openWorkspace, type Workspace } from '../fs';
import { defaultGuardrailLimits } from '../guardrails';
import { loadScenario, ScriptedModel } from '../llm';
import { CsvProvider, ProviderRegistry } from '../providers';
import { HashNgramEmbedder, SearchIndex } from '../search';
import { Analyst, type AnalystEvent, type RunOutcome } from './analyst';

export const DEMO_MESSAGE = 'Morning check (demo): has anything changed for the Fed-cuts View, and is there a trade worth proposing?';

export interface DemoOptions {
  /** The data folder for the demo's own workspace; a new temp folder by default. */
  dataDir?: string;
  /** The seed workspace to copy (default: the app's bundled resources/seed). */
  seedDir?: string;
  /** The demo material: scenario.json and data/*.csv (default: the bundled resources/demo). */
  demoDir?: string;
  skillCatalog?: () => string;
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
  const analyst = new Analyst({
    fs: workspace.fs,
    ready: workspace.ready,
    providers: new ProviderRegistry([new CsvProvider({ dir: join(demoDir, 'data'), now: options.now })]),
    search: (req) => index.search(req),
    skillCatalog: options.skillCatalog,
    model: () => new ScriptedModel(scenario, { chunkSize: 24 }),
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
      analyst, workspace, dataDir, runId, sessionId, done,
      close: async () => {
        await analyst.close();
        await workspace.ready.catch(() => undefined);
        workspace.close();
      },
    };
  } catch (e) {
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
