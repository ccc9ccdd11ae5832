import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { writeFileAtomic } from '../../common/atomic-file';
import { ForbiddenError } from '../../common/errors';
import { routerFor } from '../../config/models';
import { AnthropicModel } from '../../llm';
import {
  configSnippets,
  createMcpService,
  mcpStdioCommand,
  shellCommand,
  type McpStdioLaunch,
  listTools,
  startMcpHttpServer,
  MCP_FILES,
  defaultContractsDir,
  type McpHttpServer,
  type McpService,
  type GovernanceTool,
  type ContractName,
  type SharedDataPort,
  phaseIdText,
} from '../../mcp';
import type { z } from 'zod';
import type { mcpProcedures } from '../../api/mcp';
import type { CoreContext } from '../context';
import { packageRoot } from '../../common/package-root';

type McpProcedures = typeof mcpProcedures;
/** Typed from the MCP procedures themselves, so this map type-checks before and after they join the API. */
export type McpHandlerMap = {
  [N in keyof McpProcedures]: (
    input: z.output<McpProcedures[N]['input']>,
    ctx: CoreContext,
  ) => z.output<McpProcedures[N]['output']> | Promise<z.output<McpProcedures[N]['output']>>;
};

/**
 * The MCP screen's procedures and the reads a `forge mcp` in remote mode proxies here. The app's
 * own service always reads contracts locally (it is the thing remote mode points at).
 */

interface McpHostState {
  service: McpService;
  http?: McpHttpServer;
  exposeAnalystTools: boolean;
  /**
   * A desk (forge serve --db on a desk database): the analyst's tools are never exposed, whatever
   * the saved setting says. An IDE's call runs as the server's own work, which row-level security
   * lets read every PM's private notes; until MCP tokens are per person, an IDE would see them all.
   */
  onDesk: boolean;
  /** The analyst's read/search as MCP tools, supplied by whoever wires the analyst. */
  analystTools: () => GovernanceTool[];
  /** How IDEs start this installation's stdio server (the desktop shell supplies its own executable). */
  stdioLaunch?: McpStdioLaunch;
  /** The analyst's provider registry behind the per-source share switch (forge_fetch), supplied by whoever wires it. */
  sharedData?: SharedDataPort;
}

// One state per core (keyed by its context), so two cores in one process never share a service.
const states = new WeakMap<CoreContext, McpHostState>();

function readOptions(dataDir: string): { exposeAnalystTools: boolean } {
  try {
    return { exposeAnalystTools: Boolean(JSON.parse(readFileSync(join(dataDir, MCP_FILES.settings), 'utf8')).exposeAnalystTools) };
  } catch {
    return { exposeAnalystTools: false };
  }
}

export function mcpStateFor(ctx: CoreContext): McpHostState {
  let state = states.get(ctx);
  if (!state) {
    const s: McpHostState = {
      exposeAnalystTools: readOptions(ctx.dataDir).exposeAnalystTools,
      onDesk: false,
      analystTools: () => [],
      service: undefined as never,
    };
    s.service = createMcpService({
      dataDir: ctx.dataDir,
      mode: 'local',
      // The app serves Forge's own contracts, whatever folder it was started from.
      contractsDir: defaultContractsDir(),
      watch: ctx.mode !== 'test',
      extraTools: () => (s.exposeAnalystTools && !s.onDesk ? s.analystTools() : []),
      sharedData: () => s.sharedData,
      model: () =>
        ctx.secrets.get('anthropicApiKey')
          ? new AnthropicModel({
              apiKey: () => ctx.secrets.get('anthropicApiKey'),
              baseURL: () => ctx.settings.get().anthropicBaseUrl || undefined,
              router: routerFor(() => ctx.settings.get().models ?? {}),
            })
          : undefined,
    });
    states.set(ctx, s);
    state = s;
  }
  return state;
}

/** Supplies the analyst's read/search (wrapped with `fromAnalystTool`) for the MCP screen's toggle. */
export function setMcpAnalystTools(ctx: CoreContext, tools: () => GovernanceTool[]): void {
  mcpStateFor(ctx).analystTools = tools;
}

/** Marks this core as serving a desk: the analyst's tools stay hidden from IDEs (McpHostState.onDesk). */
export function setMcpOnDesk(ctx: CoreContext): void {
  mcpStateFor(ctx).onDesk = true;
}

/** Supplies forge_fetch's data: the analyst's registry behind Settings → Data's share switch (registrySharing). */
export function setMcpSharedData(ctx: CoreContext, data: SharedDataPort): void {
  mcpStateFor(ctx).sharedData = data;
}

/** How an IDE starts the stdio server of this installation (see McpStdioLaunch); the desktop shell sets the app's. */
export function setMcpStdioLaunch(ctx: CoreContext, launch: McpStdioLaunch): void {
  mcpStateFor(ctx).stdioLaunch = launch;
}

/** Starts the loopback HTTP transport for this core (the app and `forge serve` call it once). */
export async function startMcpHttp(ctx: CoreContext, options: { port?: number } = {}): Promise<McpHttpServer> {
  const state = mcpStateFor(ctx);
  state.http ??= await startMcpHttpServer({ service: state.service, port: options.port ?? 0, version: ctx.version });
  return state.http;
}

export async function closeMcp(ctx: CoreContext): Promise<void> {
  const state = states.get(ctx);
  if (!state) return;
  await state.http?.close();
  state.service.close();
  states.delete(ctx);
}

const DESK_REFUSAL =
  "On a desk the analyst's tools are not offered to IDEs: an IDE's call would run as the server's own work, which may read every PM's private notes. It stays off until MCP tokens are issued per person.";

const preview = (token: string) => `${token.slice(0, 4)}…${token.slice(-4)}`;

/**
 * How an IDE starts this installation's stdio server. Plain Node (`forge serve`, the CLI): node and
 * the absolute path of bin/forge.mjs, which works from a source checkout as well as an install (a
 * bare `forge` needs it on PATH). The desktop app sets its own (setMcpStdioLaunch).
 */
function stdioLaunch(ctx: CoreContext): McpStdioLaunch {
  return mcpStateFor(ctx).stdioLaunch ?? { kind: 'node', node: process.execPath, forgeScript: join(packageRoot(), 'bin', 'forge.mjs') };
}

export const mcpHandlers: McpHandlerMap = {
  'mcp/status': (_i, ctx) => {
    const { service, http, exposeAnalystTools, onDesk } = mcpStateFor(ctx);
    const stats = service.calls.stats();
    const stdio = mcpStdioCommand(stdioLaunch(ctx), ctx.dataDir);
    return {
      mode: service.mode,
      source: service.source.location,
      transports: {
        stdio: { command: shellCommand(stdio.command, stdio.args) },
        http: { running: Boolean(http), url: http?.url ?? null, port: http?.port ?? null, sessions: http?.sessions ?? 0 },
      },
      clients: [...service.connections.values()].map((c) => {
        const p = c.project?.();
        return { transport: c.transport, client: c.client ?? null, since: c.since, project: p?.project ?? null, rootsError: p?.rootsError ?? null };
      }),
      tools: listTools(service.extraTools()).map((t) => {
        const s = stats[t.name] ?? { calls: 0, errors: 0, total_ms: 0 };
        return {
          name: t.name,
          description: t.description,
          annotations: t.annotations,
          calls: s.calls,
          errors: s.errors,
          avgMs: s.calls ? Math.round((s.total_ms / s.calls) * 1000) / 1000 : 0,
        };
      }),
      cache: service.cache.stats(),
      // What IDEs get: a desk's saved setting from its workbench days is not honoured (onDesk).
      exposeAnalystTools: exposeAnalystTools && !onDesk,
      ...(onDesk ? { analystToolsRefused: DESK_REFUSAL } : {}),
    };
  },
  'mcp/calls': (i, ctx) => ({
    calls: mcpStateFor(ctx)
      .service.calls.list(i.limit ?? 50)
      .map((c) => ({
        at: c.at,
        tool: c.tool,
        transport: c.transport,
        durationMs: c.duration_ms,
        ok: c.ok,
        error: c.error ?? null,
        project: c.project ?? null,
      })),
  }),
  'mcp/rotate-token': (_i, ctx) => {
    const token = mcpStateFor(ctx).service.token.rotate();
    return { rotatedAt: new Date().toISOString(), tokenPreview: preview(token) };
  },
  'mcp/config-snippets': (i, ctx) => {
    const { service, http } = mcpStateFor(ctx);
    const token = service.token.get();
    return { snippets: configSnippets({ launch: stdioLaunch(ctx), dataDir: ctx.dataDir, httpUrl: http?.url, token: i.revealToken ? token : preview(token) }) };
  },
  'mcp/set-options': (i, ctx) => {
    const state = mcpStateFor(ctx);
    if (state.onDesk && i.exposeAnalystTools) throw new ForbiddenError(DESK_REFUSAL);
    state.exposeAnalystTools = i.exposeAnalystTools;
    writeFileAtomic(join(ctx.dataDir, MCP_FILES.settings), JSON.stringify({ exposeAnalystTools: i.exposeAnalystTools }), 0o600);
    return { exposeAnalystTools: state.exposeAnalystTools };
  },
  'mcp/clear-cache': (_i, ctx) => ({ cleared: mcpStateFor(ctx).service.cacheClear() }),
  'mcp/summary': async (_i, ctx) => {
    const { service } = mcpStateFor(ctx);
    return { ...(await service.source.getSummary(listTools(service.extraTools()).map((t) => t.name))) };
  },
  'mcp/contracts': async (_i, ctx) => (await mcpStateFor(ctx).service.source.listContracts()).map((c) => ({ ...c })),
  'mcp/contract': async (i, ctx) => ({ ...(await mcpStateFor(ctx).service.source.loadContract(i.name as ContractName)) }),
  'mcp/invariants': async (_i, ctx) => ({ ...(await mcpStateFor(ctx).service.source.getInvariants()) }),
  'mcp/governance': async (_i, ctx) => ({ ...(await mcpStateFor(ctx).service.source.getGovernance()) }),
  'mcp/phase-window': async (i, ctx) => {
    // The id as the plan writes it (3.1 → "3.1"); phases.md is read like any plan, decimal ids included.
    return { ...(await mcpStateFor(ctx).service.source.phaseWindow(phaseIdText(i.phase_number))) };
  },
  'mcp/project-context': async (i, ctx) => ({ ...(await mcpStateFor(ctx).service.projects.getProjectContext(i.project_id)) }),
  'mcp/project-contract': async (i, ctx) => ({ ...(await mcpStateFor(ctx).service.projects.getProjectContract(i.project_id, i.contract_type)) }),
  'mcp/build-contracts': async (i, ctx) => ({ ...(await mcpStateFor(ctx).service.projects.getBuildContracts(i.build_id)) }),
  'mcp/fetch': async (i, ctx) => {
    const data = mcpStateFor(ctx).service.sharedData();
    if (!data) throw new Error('unreachable: the app always shares its registry');
    return data.fetch(i);
  },
  'mcp/run-planner': async (i, ctx) => {
    const { service } = mcpStateFor(ctx);
    if (!service.planner) throw new Error('unreachable: the app always has a planner');
    return { ...(await service.planner(i, () => undefined)) };
  },
};
