import { z } from 'zod';

/**
 * One declaration per tool: name, description, zod input, MCP annotations and the handler. The
 * same shape the analyst's `defineTool` uses, so a tool can be served to a model and over MCP.
 */

export interface ToolAnnotations {
  readOnlyHint: boolean;
  destructiveHint: boolean;
  idempotentHint: boolean;
  openWorldHint: boolean;
}

/** What a handler may return: text as-is, anything else as JSON. */
export type ToolOutput = string | Record<string, unknown> | unknown[];

export interface McpToolDef<S extends z.ZodObject = z.ZodObject, C = unknown> {
  name: string;
  title?: string;
  description: string;
  input: S;
  annotations: ToolAnnotations;
  run(input: z.output<S>, ctx: C): ToolOutput | Promise<ToolOutput>;
}

export function defineMcpTool<S extends z.ZodObject, C>(def: McpToolDef<S, C>): McpToolDef<S, C> {
  if (!/^[a-z][a-z0-9_]{0,63}$/.test(def.name)) throw new Error(`Tool name "${def.name}" must be snake_case, at most 64 characters.`);
  return def;
}

export const READ: ToolAnnotations = { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false };

/** JSON Schema of a tool's input for tools/list (computed once per tool). */
export function inputJsonSchema(schema: z.ZodObject): { type: 'object'; [k: string]: unknown } {
  const json = z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' }) as Record<string, unknown>;
  delete json.$schema;
  return { ...json, type: 'object' };
}

/** "name: message; other: message" — the field names a client must fix. */
export function describeZodError(error: z.ZodError): string {
  return error.issues
    .slice(0, 5)
    .map((i) => `${i.path.length ? i.path.join('.') : '(arguments)'}: ${i.message}`)
    .join('; ');
}

/** The analyst's tool shape (src-main/tools), structurally: imported as a type only, so `forge mcp` starts light. */
interface AnalystToolLike<C> {
  name: string;
  description: string;
  input: z.ZodType;
  annotations: Partial<ToolAnnotations>;
  run(input: never, ctx: C): Promise<{ content: string; isError?: boolean }> | { content: string; isError?: boolean };
}

/**
 * Offers one of the analyst's tools (read, search) to attached clients. Only read-only tools are
 * accepted: the MCP screen's toggle must never hand an IDE a way to write the PM's memory.
 */
export function fromAnalystTool<C, X>(tool: AnalystToolLike<C>, context: () => C): McpToolDef<z.ZodObject, X> {
  if (!tool.annotations.readOnlyHint) throw new Error(`${tool.name} is not read-only and cannot be offered over MCP.`);
  if (!(tool.input instanceof z.ZodObject)) throw new Error(`${tool.name} needs an object input to be offered over MCP.`);
  return defineMcpTool<z.ZodObject, X>({
    name: tool.name,
    description: tool.description,
    input: tool.input,
    annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: tool.annotations.idempotentHint ?? true, openWorldHint: tool.annotations.openWorldHint ?? false },
    async run(input) {
      const r = await tool.run(input as never, context());
      if (r.isError) throw new AnalystToolError(r.content);
      return r.content;
    },
  });
}

/** A failed analyst tool: its text goes back to the client as an isError result. */
export class AnalystToolError extends Error {}
