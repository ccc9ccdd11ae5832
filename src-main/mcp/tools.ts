import { isAppError } from '../common/errors';
import { describeZodError, inputJsonSchema } from '../tools/define';
import type { ContractName } from './config';
import { AnalystToolError, type McpToolDef } from './define';
import { loadContract, type Tool, type ToolContext, ToolError, UnknownToolError } from './tool-kit';
import { contractTools } from './tools-contracts';
import { PROJECT_TOOLS } from './tools-project';
import { SESSION_TOOLS } from './tools-session';
import { SHARED_TOOLS } from './tools-shared';

/**
 * Every tool the governance server offers, assembled once from its groups (tools-*.ts, declared
 * with tool-kit.ts), and `dispatch`: the single boundary through which the server wiring calls
 * them. Deprecated shortcuts still answer but are not listed.
 */

// The server may import only this file of the tool layer (contracts/boundaries.json), so the two
// names it needs from tool-kit.ts are passed on here.
export type { ToolContext };
export { UnknownToolError };

/** In the order tools/list has always given them: registry, session, project, shared. */
export const TOOLS: Tool[] = [...contractTools(() => TOOLS.map((t) => t.name)), ...SESSION_TOOLS, ...PROJECT_TOOLS, ...SHARED_TOOLS];

/** Old names that still answer (not listed), and what they map to. */
export const DEPRECATED_SHORTCUTS: Record<string, { contract: ContractName; useInstead: string }> = {
  forge_get_boundaries: { contract: 'boundaries', useInstead: 'forge_get_contract(name="boundaries")' },
  forge_get_physics: { contract: 'physics', useInstead: 'forge_get_contract(name="physics")' },
  forge_get_directive: { contract: 'builder_directive', useInstead: 'forge_get_contract(name="builder_directive")' },
  forge_get_stack: { contract: 'stack', useInstead: 'forge_get_contract(name="stack")' },
};

/** Aliases that answer exactly like their target. */
export const ALIASES: Record<string, string> = { forge_get_summary: 'forge_summary' };

const byName = new Map(TOOLS.map((t) => [t.name, t]));

export interface ListedTool {
  name: string;
  title?: string;
  description: string;
  inputSchema: { type: 'object'; [k: string]: unknown };
  annotations: McpToolDef['annotations'];
}

export function listTools(extra: Tool[] = []): ListedTool[] {
  return [...TOOLS, ...extra].map((t) => ({
    name: t.name,
    ...(t.title ? { title: t.title } : {}),
    description: t.description,
    inputSchema: schemaOf(t),
    annotations: t.annotations,
  }));
}

const schemas = new WeakMap<Tool, ListedTool['inputSchema']>();
function schemaOf(t: Tool): ListedTool['inputSchema'] {
  let s = schemas.get(t);
  if (!s) {
    s = inputJsonSchema(t.input);
    schemas.set(t, s);
  }
  return s;
}

export interface ToolCallResult {
  content: { type: 'text'; text: string }[];
  isError?: boolean;
  [k: string]: unknown;
}

const text = (t: string, isError = false): ToolCallResult =>
  isError ? { content: [{ type: 'text', text: t }], isError: true } : { content: [{ type: 'text', text: t }] };

export function isKnownTool(name: string, extra: Tool[] = []): boolean {
  return byName.has(name) || name in ALIASES || name in DEPRECATED_SHORTCUTS || extra.some((t) => t.name === name);
}

/**
 * The single dispatch boundary. A bad argument or a failing handler is an isError result whose
 * text says what to do. An unknown tool is a protocol error instead (-32602, as the MCP
 * specification's examples answer it): there is no tool to have failed, so dispatch records the
 * call and throws UnknownToolError for the server to answer.
 */
export async function dispatch(name: string, args: unknown, ctx: ToolContext, extra: Tool[] = []): Promise<ToolCallResult> {
  const started = performance.now();
  let result: ToolCallResult;
  let unknown: UnknownToolError | undefined;
  try {
    result = await run(name, args ?? {}, ctx, extra);
  } catch (e) {
    if (e instanceof UnknownToolError) unknown = e;
    const message =
      e instanceof UnknownToolError || e instanceof ToolError || e instanceof AnalystToolError || isAppError(e)
        ? (e as Error).message
        : `${name} failed unexpectedly: ${(e as Error)?.message ?? String(e)}`;
    result = text(message, true);
  }
  ctx.calls?.record({
    at: new Date().toISOString(),
    tool: name.slice(0, 80),
    transport: ctx.transport ?? 'unknown',
    duration_ms: Math.round((performance.now() - started) * 1000) / 1000,
    ok: !result.isError,
    ...(result.isError ? { error: result.content[0]?.text.slice(0, 300) } : {}),
    ...projectForLog(args, ctx),
  });
  if (unknown) throw unknown;
  return result;
}

/** The project a call was about (named in it, the session's, or the IDE's root folder), for the MCP screen's call log. */
function projectForLog(args: unknown, ctx: ToolContext): { project?: string } {
  const named = (args as { project_id?: unknown } | null)?.project_id;
  const id = typeof named === 'string' ? named : (ctx.session.get().project_id ?? ctx.folder?.resolve(undefined)?.project.id);
  return id ? { project: id.slice(0, 80) } : {};
}

async function run(name: string, args: unknown, ctx: ToolContext, extra: Tool[]): Promise<ToolCallResult> {
  const shortcut = DEPRECATED_SHORTCUTS[name];
  if (shortcut) {
    const out = await loadContract(ctx, shortcut.contract);
    return text(typeof out === 'string' ? out : JSON.stringify(out));
  }
  const t = byName.get(ALIASES[name] ?? name) ?? extra.find((x) => x.name === name);
  if (!t) {
    throw new UnknownToolError(name);
  }
  const parsed = t.input.safeParse(args);
  if (!parsed.success) return text(`Invalid arguments for ${t.name}: ${describeZodError(parsed.error, 5)}`, true);
  const out = await t.run(parsed.data, ctx);
  return text(typeof out === 'string' ? out : JSON.stringify(out));
}
