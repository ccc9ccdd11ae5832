import { AsyncLocalStorage } from 'node:async_hooks';
import { join } from 'node:path';
import { z } from 'zod';
import { fail, ok, type ApiErrorBody, type Envelope } from '../api/envelope';
import { isProcedureName, procedures, type ProcedureName, type ProcedureOutput } from '../api/procedures';
import { isAppError } from '../common/errors';
import { prepareDataDir } from '../config/paths';
import { EnvSecretStore } from '../config/secrets';
import { SettingsFile } from '../config/settings-file';
import type { CoreConfig } from './config';
import type { CoreContext } from './context';
import { EventBus } from './events';
import { findBundledDir, openWorkspace } from '../fs';
import { openDeskStore } from '../store/postgres/desk-store';
import { appHandlers } from './handlers/app';
import { settingsHandlers } from './handlers/settings';
import { memoryHandlers } from './handlers/memory';
import { agentHandlers } from './handlers/agent';
import { embedderFor, searchHandlers } from './handlers/search';
import { closeMcp, mcpHandlers, mcpStateFor, setMcpAnalystTools, setMcpOnDesk, setMcpSharedData, setMcpStdioLaunch } from './handlers/mcp';
import { guardrailHandlers } from './handlers/guardrails';
import { analyticsHandlers } from './handlers/analytics';
import { providersHandlers } from './handlers/providers';
import { dataFolderHandlers } from './handlers/data-folder';
import { fromAnalystTool, registrySharing } from '../mcp';
import { ProviderRegistry } from '../providers';
import { readTool, searchTool, type AnalystToolContext } from '../tools';
import { taskHandlers, toTaskView } from './handlers/tasks';
import { skillsHandlers } from './handlers/skills';
import { selfCheckHandlers } from './handlers/self-check';
import { buildHandlers } from './handlers/builds';
import { proposalsHandlers, watchProposals } from './handlers/proposals';
import { calibrationHandlers } from './handlers/calibration';
import { lineageHandlers } from './handlers/lineage';
import { contractsHandlers } from './handlers/contracts';
import { standaloneDemoHandlers } from './handlers/demo';
import { workspaceHandlers } from './handlers/workspace';
import { deskGeneralHandlers, deskHandlers } from './handlers/desk';
import { deskDatabaseHandlers } from './handlers/desk-database';
import { sharingHandlers } from './handlers/sharing';
import { actingOf, auditNamesThePerson, personForCall, sessionOfCall } from './desk-calls';
import { asPerson, type DeskUser } from '../desk/people';
import { openDeskServices, timersOutsideCalls } from './desk';
import { trackingRunner } from './tracking';
import { deskSlotLeases } from './desk-leases';
import { replayRunner, scheduleHandlers, toScheduleJobView } from './handlers/schedule';
import { analystRunner, liveViewDates, morningReviewReporter, realTimers, ReviewReports, Scheduler } from '../scheduler';
import { marketPortFromRegistry } from '../tracking';
import type { BuildManager } from '../builder';
import { buildBuilder } from './builder';
import { claudeFor } from './claude';
import { metaOptimizerRunner } from '../evolution';
import { SearchIndex } from '../search';
import { SkillLoader } from '../skills';
import { buildAnalyst } from './analyst';
import { attachResearch, passageEmbedder, passageRanker } from './research';
import type { Handler, HandlerMap, PartialHandlerMap } from './handlers/types';
import { appVersion } from './version';

/**
 * The core: every capability of Forge wired from one config object. Electron, the headless
 * host, the CLI and tests all build one of these; nothing here is module-level state, so two
 * cores in one process never share anything.
 */
export interface Core {
  readonly context: CoreContext;
  invoke<N extends ProcedureName>(name: N, input: unknown, call?: CallContext): Promise<Envelope<ProcedureOutput<N>>>;
  /** Same as invoke, for transports that received the name as an untrusted string. */
  invokeUnknown(name: string, input: unknown, call?: CallContext): Promise<Envelope<unknown>>;
  close(): Promise<void>;
}

/**
 * What a transport carries beside a call's name and input. On a desk, `session` is the signed-in
 * person's session (HTTP: the x-forge-session header); every call but a few is refused without one.
 */
export interface CallContext {
  session?: string;
}

/** zod's issues as plain data, keeping its code and limits so the renderer can word them for a PM. */
function zodIssues(error: z.ZodError): NonNullable<ApiErrorBody['issues']> {
  return error.issues.map((i) => {
    const extra = i as { origin?: unknown; maximum?: unknown; minimum?: unknown; expected?: unknown; format?: unknown; values?: unknown };
    const limit = (v: unknown) => (typeof v === 'number' || typeof v === 'bigint' ? Number(v) : undefined);
    const text = (v: unknown) => (typeof v === 'string' ? v : undefined);
    const issue = {
      path: i.path.map((p) => (typeof p === 'symbol' ? String(p) : p)),
      message: i.message,
      code: i.code,
      origin: text(extra.origin),
      maximum: limit(extra.maximum),
      minimum: limit(extra.minimum),
      expected: text(extra.expected),
      format: text(extra.format),
      values: Array.isArray(extra.values) ? extra.values.slice(0, 20).map(String) : undefined,
    };
    // Absent rather than undefined, so the envelope stays small and compares cleanly.
    return Object.fromEntries(Object.entries(issue).filter(([, v]) => v !== undefined)) as typeof issue;
  });
}

const MAX_INPUT_DEPTH = 64;

/** Iterative, so a hostile 100,000-level value cannot overflow the stack while being measured. */
function nestedDeeperThan(value: unknown, limit: number): boolean {
  const stack: [unknown, number][] = [[value, 0]];
  while (stack.length) {
    const [v, depth] = stack.pop()!;
    if (v === null || typeof v !== 'object') continue;
    if (depth >= limit) return true;
    for (const child of Object.values(v)) if (child !== null && typeof child === 'object') stack.push([child, depth + 1]);
  }
  return false;
}

function describeIssues(issues: { path: (string | number)[]; message: string }[]): string {
  return issues
    .slice(0, 5)
    .map((i) => (i.path.length ? `${i.path.join('.')}: ${i.message}` : i.message))
    .join('; ');
}

export function createCore(config: CoreConfig): Core {
  // The context the core was made in (no person): for work started by a call that outlives it.
  const asServer = AsyncLocalStorage.snapshot();
  prepareDataDir(config.dataDir);
  const events = new EventBus();
  const secrets = config.secrets ?? new EnvSecretStore();
  let search!: SearchIndex;
  // Read before the workspace opens: the search embedder follows Settings → Search.
  const settingsFile = new SettingsFile(config.dataDir);
  const memory = openWorkspace({
    dataDir: config.dataDir,
    nativeBinding: config.nativeBinding,
    // On a desk, an audit row written during a person's call names them (desk-calls.ts).
    openStore: config.database ? () => auditNamesThePerson(openDeskStore(config.database as string)) : undefined,
    // A desk starts from its PMs' migrated workspaces, never from the sample: two servers starting
    // on an empty desk would otherwise both write the demo Views into the shared database.
    seedDir: config.database ? null : undefined,
    // The embedder follows Settings → Search: the local model once installed, else a key (Voyage, OpenAI), else the hashed one.
    indexer: (store) => (search = new SearchIndex(store.db, embedderFor(config.dataDir, settingsFile.get(), secrets))),
  });
  const context: CoreContext = {
    mode: config.mode,
    version: appVersion(),
    dataDir: config.dataDir,
    startedAt: new Date(),
    settings: settingsFile,
    secrets,
    events,
    memory,
  };
  // One loader over the workspace's skills copy: the prompt's catalogue and the sub-agents both read it.
  // Lenient: published skills load with warnings. Python/shell scripts run only for skills the PM allowed (Settings → Skills).
  const skills = new SkillLoader(join(config.dataDir, 'skills'), {
    mode: 'lenient',
    watch: config.mode !== 'test',
    scriptsAllowed: (name) => (context.settings.get().allowedSkillScripts ?? []).includes(name),
    nodeLauncher: config.nodeLauncher,
    // The workspace's skills were copied from here: a script still identical to it is one Forge ships.
    shippedSkillsDir: findBundledDir('skills'),
  });
  if (config.mcpStdio) setMcpStdioLaunch(context, config.mcpStdio);
  const analyst = buildAnalyst({
    fs: memory.fs,
    ready: memory.ready,
    dataDir: config.dataDir,
    settings: context.settings,
    secrets: context.secrets,
    events,
    skills,
    demo: config.demo,
    providerHttp: config.providerHttp,
    search: (request) => search.search(request),
    // Broker notes get vectors from the search index's embedder and are ranked as search ranks them.
    research: {
      embedder: passageEmbedder(() => search),
      rank: passageRanker(
        () => search,
        () => context.settings.get().searchWeights,
      ),
    },
  });
  attachResearch(search, analyst.providers);
  // Read the search index's vectors before the PM's first search rather than inside it, in steps
  // that keep the app answering while a large memory loads.
  setImmediate(() => {
    search.warmInBackground().catch(() => {
      // The core was closed before it finished: nothing to warm.
    });
  }).unref();
  analyst.executor.onChange((t) => events.emit('tasks/changed', toTaskView(t)));
  // Attached IDEs read the PM's memory only when the PM turns it on (MCP screen): read and search, as actor mcp.
  setMcpAnalystTools(context, () => {
    const toolContext = (): AnalystToolContext => ({
      fs: memory.fs.forSession('mcp'),
      writer: { actor: 'mcp' },
      limits: analyst.limits,
      // Broker notes stay out: an IDE would get outside text without the analyst's untrusted framing.
      search: (request) => search.search({ ...request, withResearch: false }),
      providers: new ProviderRegistry(),
    });
    return [fromAnalystTool(readTool, toolContext), fromAnalystTool(searchTool, toolContext)];
  });
  // forge_fetch: the analyst's registry, for the sources the PM shares with attached IDEs (Settings → Data).
  setMcpSharedData(
    context,
    registrySharing({
      registry: analyst.providers,
      settings: () => context.settings.get().providers,
      secret: (name) => context.secrets.get(name),
    }),
  );
  const claude = claudeFor(context);
  // One MetaOptimizer for the weekly run and the Proposals screen's Run now: a second start joins the first.
  const metaOptimizer = metaOptimizerRunner({ fs: () => memory.fs, skills: () => skills, model: () => claude.optional() });
  // Exits, counterfactuals and calibration: hourly (the scheduler) and on demand (tracking/run).
  const track = trackingRunner({ fs: memory.fs, providers: analyst.providers, limits: analyst.limits });
  // The scheduler: morning review, end of day, weekly retrospective, hourly monitoring, each run a new session.
  // Morning review reports (what moved, which invalidation conditions fired), kept per run; fired conditions reach the PM as app/notice.
  const reviewReports = new ReviewReports(memory.store.db);
  const scheduler = new Scheduler({
    db: memory.store.db,
    // On a desk's database, each slot runs on the one server that claims its lease (desk/leases).
    leases: deskSlotLeases(memory.store, config.database),
    // A job re-armed during a person's call (a schedule change) still runs as the server's own work.
    timers: timersOutsideCalls(realTimers),
    timeZone: () => context.settings.get().timezone,
    run: analystRunner({
      analyst: analyst.analyst,
      views: () => liveViewDates(memory.store.records),
      monitor: async (signal) => ({ summary: (await track(signal)).summary }),
      morningReview: morningReviewReporter({
        fs: memory.fs,
        market: marketPortFromRegistry(analyst.providers),
        reports: reviewReports,
        onReport: (_report, notice) => {
          if (notice) events.emit('app/notice', notice);
        },
      }),
      // Seed §15: after the weekly retrospective, well-corroborated lessons become skill-edit proposals (PM approves).
      afterRetrospective: async (signal) => {
        const model = claude.optional();
        if (!model) return 'No skill-edit proposals: the proposal model needs an Anthropic API key.';
        const { report: r } = await metaOptimizer({ actor: 'scheduler', signal });
        return r.proposals.length ? `Skill-edit proposals for your approval: ${r.proposals.join(', ')}.` : undefined;
      },
    }),
  });
  scheduler.onChange((job) => events.emit('schedule/changed', toScheduleJobView(scheduler.status(job))));
  const offSchedule = events.subscribe((m) => {
    if (m.event === 'settings/changed') scheduler.reschedule();
  });
  // Tests drive the scheduler themselves; the app and `forge serve` keep its timers running.
  // FORGE_SCHEDULER=off (the e2e suite) leaves jobs to Run now.
  if ((config.scheduler ?? config.mode !== 'test') && process.env.FORGE_SCHEDULER !== 'off') void memory.ready.then(() => scheduler.start());
  // The builder starts on first use (a workspace that never builds opens nothing for it).
  let builder: Promise<BuildManager> | undefined;
  // Started outside any person's call: the first builds/* call on a desk would otherwise leave the builder's
  // timers and runs acting as that person (acting-person.ts) for the life of the server.
  const buildManager = () => (builder ??= asServer(() => memory.ready.then(() => buildBuilder(context, claude))));
  const handlers = assemble([
    appHandlers,
    settingsHandlers,
    memoryHandlers,
    agentHandlers(analyst),
    // FORGE_MODEL_BASE_URL: a desk's internal mirror of the model files (the pinned checksums still apply).
    searchHandlers(() => search, { modelBaseUrl: config.modelBaseUrl ?? (process.env.FORGE_MODEL_BASE_URL || undefined) }),
    taskHandlers(analyst.executor, () => memory.fs),
    skillsHandlers(() => skills),
    selfCheckHandlers(() => skills),
    // The MCP server (its service and HTTP listener) outlives the call that starts it: it runs as the server,
    // or an IDE's every request would act as the desk person whose call happened to start it.
    runAsServer(mcpHandlers as PartialHandlerMap, asServer),
    guardrailHandlers,
    providersHandlers(analyst.providers),
    dataFolderHandlers(analyst.providers, { demo: !!config.demo }),
    analyticsHandlers,
    buildHandlers(buildManager),
    scheduleHandlers(
      scheduler,
      reviewReports,
      // Issue 29 §4: a past morning re-run as of its date on a scratch copy; live memory is only read.
      replayRunner({
        fs: memory.fs,
        reports: reviewReports,
        providers: analyst.providers,
        model: () => claude.require(),
        settings: () => context.settings.get(),
        zone: () => scheduler.zone().zone,
        fredKey: () => !!context.secrets.get('fredApiKey'),
        nativeBinding: config.nativeBinding,
      }),
    ),
    proposalsHandlers({ fs: () => memory.fs, skills: () => skills, metaOptimizer }),
    calibrationHandlers({ fs: () => memory.fs, track: () => track(), market: () => marketPortFromRegistry(analyst.providers) }),
    lineageHandlers({ fs: () => memory.fs, skills: () => skills }),
    // Forge's contracts are the folder the app's MCP server serves; a save drops that server's cache.
    contractsHandlers({ forge: () => ({ dir: mcpStateFor(context).service.source.location, cache: mcpStateFor(context).service.cache }) }),
    // The workspace switch (host/workspace-switch.ts) answers demo/* itself; a lone core only reports.
    standaloneDemoHandlers(!!config.demo),
    // Home's sample-workspace card: state and Start empty (refused in demo).
    workspaceHandlers({ fs: () => memory.fs, demo: !!config.demo }),
    // A desk's people and books (forge serve --db on a database made a desk); elsewhere they say so.
    deskHandlers(() => desk),
    // Sharing a research note or View on a desk (memory/access, memory/share, desk/people).
    sharingHandlers(() => desk),
    // Settings → Desk database: the desk this app opens at its next start, and what it runs on now.
    deskDatabaseHandlers({
      database: config.database,
      from: config.databaseChoice?.from ?? (config.database ? 'flag' : 'none'),
      problem: config.databaseChoice?.problem,
    }),
  ]);
  const desk = openDeskServices(memory.store, config.database, events);
  // IDEs never get the analyst's tools on a desk (they would read as the server: every PM's notes).
  if (desk) setMcpOnDesk(context);
  // On a desk, some general procedures go through the desk's own path (expressions/approve: its books and limits).
  const onDesk = deskGeneralHandlers(() => desk);
  const closers: (() => void | Promise<void>)[] = [];
  closers.push(async () => {
    await memory.ready.catch(() => undefined);
    memory.close();
  });
  // The desk's event listener stops after everything that could publish (closers run in reverse).
  if (desk) closers.push(() => desk.close());
  // The book follows every committed Expression or portfolio write (approval, close, import, the analyst's proposals).
  const offBook = memory.fs.onCommit((paths) => {
    if (paths.some((p) => p.startsWith('/memory/expressions/') || p.startsWith('/portfolio/'))) events.emit('portfolio/changed', {});
  });
  closers.push(offBook);
  // Edits on disk (by the PM, or later by approved proposals) reach the Skills screen at once.
  const offSkills = skills.onChange(() => events.emit('skills/changed', {}));
  closers.push(() => {
    offSkills();
    skills.close();
  });
  // The sidebar's badge follows every proposal written, approved or rejected (whoever did it).
  closers.push(watchProposals(memory.fs, (pendingCount) => events.emit('proposals/changed', { pendingCount })));
  // Registered after the workspace closer: closers run in reverse, so runs and sub-agents stop before the database closes.
  closers.push(() => analyst.close());
  // Scheduled runs stop (recorded as interrupted) before the analyst closes.
  closers.push(() => {
    offSchedule();
    return scheduler.stop();
  });
  // Builds stop (their state saved) before the database closes.
  closers.push(async () => {
    if (builder) await (await builder.catch(() => undefined))?.close();
  });
  // The MCP server (service, HTTP listener) stops first of all: attached IDEs are told before anything else goes.
  closers.push(() => closeMcp(context));
  let closed = false;

  async function invokeUnknown(name: string, input: unknown, call?: CallContext): Promise<Envelope<unknown>> {
    if (closed) return fail('unavailable', 'Forge is shutting down.');
    if (!isProcedureName(name)) return fail('not_found', `There is no procedure named "${String(name).slice(0, 80)}".`);
    const spec = procedures[name];
    // No procedure takes input nested this deep; refusing it first keeps validation's recursion bounded.
    if (nestedDeeperThan(input, MAX_INPUT_DEPTH))
      return fail('invalid_input', `Invalid input for ${name}: it is nested more than ${MAX_INPUT_DEPTH} levels deep.`);
    // On a desk every call but the few 'open' ones is made by a signed-in person whose role allows it
    // (desk-calls.ts), checked before the input is: a caller without a session learns nothing from validation.
    let person: DeskUser | undefined;
    try {
      person = desk ? personForCall(desk, name, input, sessionOfCall(name, input, call)) : undefined;
    } catch (e) {
      if (isAppError(e)) return fail(e.code, e.message);
      return fail('internal', `${name} failed unexpectedly: ${(e as Error)?.message ?? String(e)}`);
    }
    const parsed = spec.input.safeParse(input ?? {});
    if (!parsed.success) {
      const issues = zodIssues(parsed.error);
      return fail('invalid_input', `Invalid input for ${name}: ${describeIssues(issues)}`, issues);
    }
    try {
      // The handler and everything it awaits run as that person (acting-person.ts).
      const handler = ((person && onDesk[name]) ?? handlers[name]) as Handler<ProcedureName>;
      const run = () => handler(parsed.data as never, context);
      const value = await (person ? asPerson(actingOf(person), run) : run());
      if (config.mode === 'test') {
        // Tests hold handlers to the contract they declare; production trusts the types.
        const out = spec.output.safeParse(value);
        if (!out.success) return fail('internal', `${name} returned a value outside its contract: ${describeIssues(zodIssues(out.error))}`);
      }
      return ok(value);
    } catch (e) {
      if (isAppError(e)) return { ok: false, error: { code: e.code, message: e.message, ...(e.issues ? { issues: e.issues } : {}) } };
      if (e instanceof z.ZodError) {
        const issues = zodIssues(e);
        return fail('invalid_input', describeIssues(issues), issues);
      }
      // Unknown faults are reported without internals (no stack, no paths from deep inside).
      return fail('internal', `${name} failed unexpectedly: ${(e as Error)?.message ?? String(e)}`);
    }
  }

  return {
    context,
    invoke: (name, input, call) => invokeUnknown(name, input, call) as never,
    invokeUnknown,
    async close() {
      if (closed) return;
      closed = true;
      for (const c of closers.reverse()) await c();
    },
  };
}

/** `part`'s handlers, each run in `asServer`'s context (no person) whoever calls them. */
function runAsServer(part: PartialHandlerMap, asServer: <R>(fn: () => R) => R): PartialHandlerMap {
  const wrapped: Record<string, Handler<ProcedureName>> = {};
  for (const [name, handler] of Object.entries(part) as [ProcedureName, Handler<ProcedureName>][]) {
    wrapped[name] = (input, ctx) => asServer(() => handler(input, ctx));
  }
  return wrapped as PartialHandlerMap;
}

function assemble(parts: PartialHandlerMap[]): HandlerMap {
  const map: PartialHandlerMap = {};
  for (const part of parts) Object.assign(map, part);
  const missing = Object.keys(procedures).filter((n) => !(n in map));
  if (missing.length) throw new Error(`No handler for procedure(s): ${missing.join(', ')}`);
  return map as HandlerMap;
}
