import { z } from 'zod';
import type { ToolDefinition as ModelToolDefinition } from '../llm/types';

/**
 * A tool, declared once: the model (Anthropic tool definitions) and attached IDEs (MCP) both see
 * it through small adapters. Tool names are snake_case, ≤ 64 chars, no dots — valid for both.
 * The pieces both kinds of tool share (annotations, name rule, JSON Schema, zod error text) live
 * here, the lower layer; mcp/define.ts builds the governance tools on them.
 */

/** The MCP tool annotations (hints a client shows or acts on); the same type for both kinds of tool. */
export interface ToolAnnotations {
  readOnlyHint?: boolean;
  destructiveHint?: boolean;
  idempotentHint?: boolean;
  openWorldHint?: boolean;
}

/** What a tool returns: text the model reads. `isError` marks a failure the model should act on. */
export interface ToolResult {
  content: string;
  isError?: boolean;
  /** Content that came from outside (fetched data, web, research) is marked untrusted. */
  untrusted?: boolean;
}

export interface ToolDefinition<I extends z.ZodType = z.ZodType, C = unknown> {
  name: string;
  description: string;
  input: I;
  annotations: ToolAnnotations;
  run(input: z.output<I>, ctx: C): Promise<ToolResult> | ToolResult;
}

const NAME = /^[a-z][a-z0-9_]{0,63}$/;

/** Throws unless the name is valid for both the model API and MCP. */
export function assertToolName(name: string): void {
  if (!NAME.test(name)) throw new Error(`Tool name "${name}" must be snake_case, start with a letter, ≤ 64 chars.`);
}

export function defineTool<I extends z.ZodType, C = unknown>(tool: ToolDefinition<I, C>): ToolDefinition<I, C> {
  assertToolName(tool.name);
  if (!tool.description.trim()) throw new Error(`Tool ${tool.name} needs a description that says when to use it.`);
  return tool;
}

/** JSON Schema for a tool's input, as the model API and MCP both expect (an object schema). */
export function inputJsonSchema(input: z.ZodType): { type: 'object'; [k: string]: unknown } {
  const schema = z.toJSONSchema(input, { io: 'input', unrepresentable: 'any' }) as Record<string, unknown>;
  delete schema.$schema;
  return { ...schema, type: 'object' };
}

/** "field: message; other.field: message" — the fields a caller (model or IDE) must fix. */
export function describeZodError(error: z.ZodError, limit = 8): string {
  return error.issues
    .slice(0, limit)
    .map((i) => `${i.path.length ? i.path.join('.') : '(input)'}: ${i.message}`)
    .join('; ');
}

/** Size limits the model never needs to see: zod still enforces them when the call arrives. */
const LIMIT_KEYWORDS = new Set(['minLength', 'maxLength', 'minItems', 'maxItems', 'maxProperties', 'minProperties']);

/**
 * The schema the model reads, without length limits and the integer-range noise zod emits
 * (maximum: 2^53-1). Every token here is paid on every call; validation stays in zod.
 */
export function leanSchema(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(leanSchema);
  if (!schema || typeof schema !== 'object') return schema;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(schema as Record<string, unknown>)) {
    if (LIMIT_KEYWORDS.has(k)) continue;
    if ((k === 'maximum' && v === Number.MAX_SAFE_INTEGER) || (k === 'minimum' && v === Number.MIN_SAFE_INTEGER)) continue;
    out[k] =
      k === 'properties' && v && typeof v === 'object'
        ? Object.fromEntries(Object.entries(v as Record<string, unknown>).map(([pk, pv]) => [pk, leanSchema(pv)]))
        : leanSchema(v);
  }
  return out;
}

const modelToolCache = new WeakMap<ToolDefinition, ModelToolDefinition>();

/** The model layer's neutral tool shape (the Anthropic adapter in llm/ maps it to the API). Cached per tool. */
export function toModelTool(tool: ToolDefinition): ModelToolDefinition {
  let m = modelToolCache.get(tool);
  if (!m) {
    m = { name: tool.name, description: tool.description, inputSchema: leanSchema(inputJsonSchema(tool.input)) as Record<string, unknown> };
    modelToolCache.set(tool, m);
  }
  return m;
}

/** The Anthropic Messages API shape of a tool. */
export function toAnthropicTool(tool: ToolDefinition): { name: string; description: string; input_schema: Record<string, unknown> } {
  return { name: tool.name, description: tool.description, input_schema: inputJsonSchema(tool.input) };
}

/**
 * Run a tool call from the model. Never throws: an unknown tool, invalid arguments or a handler
 * that throws all come back as an error result the model reads and can correct.
 */
export async function runTool<C>(tools: readonly ToolDefinition<z.ZodType, C>[], name: string, args: unknown, ctx: C): Promise<ToolResult> {
  const tool = tools.find((t) => t.name === name);
  if (!tool) {
    return { isError: true, content: `Unknown tool "${name}". Available tools: ${tools.map((t) => t.name).join(', ')}.` };
  }
  const parsed = tool.input.safeParse(args ?? {});
  if (!parsed.success) {
    return { isError: true, content: `Invalid arguments for ${name}: ${describeZodError(parsed.error)}. Fix these and call again.` };
  }
  try {
    return await tool.run(parsed.data, ctx);
  } catch (e) {
    const err = e as { code?: string; message?: string };
    const code = typeof err?.code === 'string' ? ` [${err.code}]` : '';
    return { isError: true, content: `${name} failed${code}: ${err?.message ?? String(e)}` };
  }
}
