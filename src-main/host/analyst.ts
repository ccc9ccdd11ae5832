import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { EventName, EventPayload } from '../api/events';
import { Analyst, buildDelegation, demoModel, demoProviders, startDemo, type AnalystEvent, type DemoRun, type DemoSpeed } from '../agent';
import { actingPerson } from '../desk/people';
import type { SecretStore } from '../config/secrets';
import { routerFor } from '../config/models';
import type { SettingsFile } from '../config/settings-file';
import type { ReviewLedger, TaskExecutor } from '../executor';
import { findBundledDir, type ForgeFS } from '../fs';
import type { GuardrailLimits } from '../guardrails';
import { AnthropicModel, missingApiKeyError, type AnthropicModelOptions, type Model } from '../llm';
import { buildProviderRegistry, DataFolder, dataFolderPath, type ProviderDeps, type ProviderRegistry } from '../providers';
import type { SearchRequest, SearchResponse } from '../search';
import { SkillLoader } from '../skills';
import { limitsFromConstraints, type AnalystTool, type AnalystToolContext } from '../tools';
import type { EventBus } from './events';

/** The core's pieces the analyst is built from (constructor injection; no module state). */
export interface AnalystDeps {
  fs: ForgeFS;
  ready: Promise<void>;
  dataDir: string;
  settings: SettingsFile;
  secrets: SecretStore;
  events: EventBus;
  search?: (request: SearchRequest) => Promise<SearchResponse>;
  /**
   * The workspace's skills (<dataDir>/skills), shared by the prompt's catalogue and the executor.
   * The caller owns it (closes it); without one the service opens its own and closes it.
   */
  skills?: SkillLoader;
  /** Skill catalogue text for the prompt; default: the catalogue of `skills`. */
  skillCatalog?: () => string;
  /** The data providers; default: the app's (src-main/providers/defaults.ts — CSV sample data as `market`, FRED as `economic`). */
  providers?: ProviderRegistry;
  /** The search index's embedder and hybrid ranking for the broker notes (see host/research.ts); without them `research` ranks by bm25. */
  research?: ProviderDeps['research'];
  /** Tests only: HTTP timing of the data providers, and web pages from 127.0.0.1 (see CoreConfig.providerHttp). */
  providerHttp?: ProviderDeps['http'];
  /** Where the sample CSV data lives (default: bundled resources/demo/data). */
  csvDir?: string;
  /** Retry and timeout policy of model calls (default: DEFAULT_RETRY — 3 attempts — and 10 minutes). */
  modelPolicy?: Pick<AnthropicModelOptions, 'maxRetries' | 'retry' | 'timeoutMs'>;
  /** The demo workspace's core: the scripted demo model and its CSV data instead of Claude and the PM's providers. */
  demo?: { demoDir: string; speed: DemoSpeed };
}

export interface AnalystService {
  readonly analyst: Analyst;
  /** Sub-agents dispatched by the analyst (the Tasks screen reads and steers it). */
  readonly executor: TaskExecutor<AnalystTool, AnalystToolContext>;
  /** Reviews filed by the review tool: the gate before an Expression is offered to the PM. */
  readonly reviews: ReviewLedger;
  /** The data providers behind the fetch tool (Settings → Data reads and tests them). */
  readonly providers: ProviderRegistry;
  /** Guardrail limits in force now (the PM's /portfolio/constraints.md, else defaults). */
  limits(): GuardrailLimits;
  hasApiKey(): boolean;
  modelName(): string;
  /** Starts the offline demo on a copy of the sample workspace; events carry `demo: true`. */
  demo(): Promise<{ runId: string; sessionId: string; turn: number; demo: boolean; dataDir: string }>;
  /** Cancels a run of the analyst or of a demo. */
  cancel(runId: string): boolean;
  running(): { runId: string; sessionId: string; demo: boolean }[];
  close(): Promise<void>;
}

/** Forwards the analyst's events onto the core's bus as the `agent/*` events of the API. */
export function forwardEvents(events: EventBus): (e: AnalystEvent) => void {
  return (e) => {
    const { type, ...payload } = e;
    events.emit(`agent/${type}` as EventName, payload as EventPayload<EventName>);
  };
}

export function buildAnalyst(deps: AnalystDeps): AnalystService {
  const csvDir = deps.csvDir ?? findBundledDir(join('resources', 'demo', 'data'));
  const scripted = deps.demo ? demoModel(deps.demo.demoDir, deps.demo.speed) : null;
  // The PM's data folder (Settings → Data, read live; default <dataDir>/datasets, made on first start),
  // served with the bundled sample files the seed workspace's Expressions follow; the PM's file wins a name clash.
  const dataFolder =
    deps.providers || deps.demo
      ? null
      : new DataFolder({
          dir: () => dataFolderPath(deps.dataDir, deps.settings.get().providers?.datasets?.folder),
          samplesDir: csvDir && existsSync(csvDir) ? csvDir : null,
          watch: true,
        });
  if (dataFolder) mkdirSync(dataFolderPath(deps.dataDir, undefined), { recursive: true, mode: 0o700 });
  // The watcher's news reaches the Data screen at once (it also polls, for a window that missed it).
  dataFolder?.onChange(() => deps.events.emit('providers/data-folder-changed', {}));
  const providers =
    deps.providers ??
    (deps.demo ? demoProviders(deps.demo.demoDir) : null) ??
    buildProviderRegistry({
      db: deps.fs.store.db,
      secret: (name) => deps.secrets.get(name),
      settings: () => deps.settings.get().providers,
      csvDir: csvDir && existsSync(csvDir) ? csvDir : null,
      dataFolder,
      researchDir: researchFolder(deps.dataDir),
      research: deps.research,
      http: deps.providerHttp,
    });
  const ownSkills = deps.skills
    ? null
    : new SkillLoader(join(deps.dataDir, 'skills'), {
        mode: 'lenient',
        scriptsAllowed: (name) => (deps.settings.get().allowedSkillScripts ?? []).includes(name),
        shippedSkillsDir: findBundledDir('skills'),
      });
  const skills = deps.skills ?? ownSkills!;
  const skillCatalog = deps.skillCatalog ?? (() => skills.formatCatalog({ maxDescription: 100 }));
  const limits = () => {
    const fs = deps.fs;
    return limitsFromConstraints(fs.exists('/portfolio/constraints.md') ? fs.readFile('/portfolio/constraints.md') : null);
  };
  const router = routerFor(() => deps.settings.get().models);
  const anthropic = new AnthropicModel({
    apiKey: () => deps.secrets.get('anthropicApiKey'),
    env: {},
    baseURL: () => deps.settings.get().anthropicBaseUrl || undefined,
    router,
    ...deps.modelPolicy,
  });
  // Claude only: without a key the PM is told how to add one or to run the demo, never given a stand-in.
  // Both secret stores already consult ANTHROPIC_API_KEY; the model reads the key the same way.
  const hasApiKey = () => !!scripted || !!deps.secrets.get('anthropicApiKey');
  const model = (): Model => {
    if (scripted) return scripted;
    if (!hasApiKey()) throw missingApiKeyError();
    return anthropic;
  };
  const emit = forwardEvents(deps.events);
  // Sub-agents, validators and the reviewer use the analyst's own model, routed by role.
  // Sub-agents of a retrospective session inherit its as-of date (read when they run, after the analyst exists).
  const delegation = buildDelegation({
    fs: deps.fs,
    skills,
    model: scripted ?? anthropic,
    providers,
    limits,
    search: deps.search,
    asOf: (sid) => analyst.asOfFor(sid),
  });
  const analyst = new Analyst({
    fs: deps.fs,
    ready: deps.ready,
    providers,
    search: deps.search,
    skillCatalog,
    model,
    tasks: delegation.executor,
    reviewer: delegation.reviewer,
    reviews: delegation.reviews,
    limits,
    settings: () => {
      const s = deps.settings.get();
      return { sessionTimeoutMinutes: s.sessionTimeoutMinutes, timezone: s.timezone };
    },
    emit,
    demo: !!scripted,
    // On a desk each PM continues their own conversation (the person of the call); else 'default'.
    sessionOwner: () => actingPerson()?.userId,
  });
  const demos = new Map<string, DemoRun>();

  return {
    analyst,
    executor: delegation.executor,
    reviews: delegation.reviews,
    providers,
    limits,
    hasApiKey,
    modelName: () => (scripted ? scripted.id : router('agent')),
    async demo() {
      const run = await startDemo({ emit, skillCatalog, skills });
      demos.set(run.runId, run);
      // The demo's folder stays on disk for browsing; its database closes when the run ends.
      void run.done.finally(() => {
        demos.delete(run.runId);
        void run.close();
      });
      return { runId: run.runId, sessionId: run.sessionId, turn: 1, demo: true, dataDir: run.dataDir };
    },
    cancel(runId) {
      return analyst.cancel(runId) || (demos.get(runId)?.analyst.cancel(runId) ?? false);
    },
    running() {
      return [...analyst.active(), ...[...demos.values()].map((d) => ({ runId: d.runId, sessionId: d.sessionId, demo: true }))];
    },
    async close() {
      await analyst.close();
      await Promise.allSettled([...demos.values()].map((d) => d.close()));
      // Running sub-agents are stopped and recorded as interrupted while the database is still open.
      await delegation.close();
      ownSkills?.close();
      dataFolder?.close();
    },
  };
}

/**
 * `forge demo`: runs the scripted offline demo and prints what happens, labelled DEMO. Returns
 * the exit code (0 when the scripted run ended with an answer).
 */
export async function forgeDemoCli(_args: string[] = [], out: (line: string) => void = (l) => process.stdout.write(`${l}\n`)): Promise<number> {
  out('DEMO — scripted offline run on a copy of the sample workspace (not Claude, not your memory).');
  let text = '';
  const flush = () => {
    if (text.trim()) out(`  analyst: ${text.trim()}`);
    text = '';
  };
  const run = await startDemo({
    emit: (e) => {
      if (e.type === 'text') text = e.reset ? '' : text + e.text;
      else if (e.type === 'tool-call') {
        flush();
        out(`  → ${e.name} ${JSON.stringify(e.input).slice(0, 160)}`);
      } else if (e.type === 'tool-result') {
        const first = e.content
          .split('\n')
          .slice(0, e.isError ? 4 : 1)
          .join('\n    ');
        out(`    ${e.isError ? '✗' : '✓'} ${first.slice(0, 400)}`);
      }
    },
  });
  try {
    const outcome = await run.done;
    flush();
    if (outcome.error) {
      out(`DEMO failed: ${outcome.error.message}`);
      return 1;
    }
    out(`DEMO finished in ${outcome.rounds} rounds. Workspace copy kept at ${run.dataDir}`);
    return outcome.stop === 'answered' ? 0 : 1;
  } finally {
    await run.close();
  }
}

/** The broker-notes folder the research provider indexes: made on first start, private like the data folder. */
function researchFolder(dataDir: string): string {
  const dir = join(dataDir, 'research');
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  return dir;
}
