import { z } from 'zod';
// Only zod and types: `forge mcp` loads this file without loading the analyst's tools.
import { assertToolName, type ToolAnnotations, type ToolDefinition } from '../tools/define';

/**
 * One declaration per governance tool: name, description, zod input, MCP annotations and the
 * handler. The annotations type, the name rule, the JSON Schema and the zod error text are the
 * analyst's (tools/define.ts), so a tool reads the same to a model and over MCP.
 */

/** What a handler may return: text as-is, anything else as JSON. */
export type ToolOutput = string | Record<string, unknown> | unknown[];

export interface McpToolDef<S extends z.ZodObject = z.ZodObject, C = unknown> {
  name: string;
  title?: string;
  description: string;
  input: S;
  /** All four hints stated: an IDE decides from them whether to ask before a call. */
  annotations: Required<ToolAnnotations>;
  run(input: z.output<S>, ctx: C): ToolOutput | Promise<ToolOutput>;
}

export function defineMcpTool<S extends z.ZodObject, C>(def: McpToolDef<S, C>): McpToolDef<S, C> {
  assertToolName(def.name);
  return def;
}

export const READ: Required<ToolAnnotations> = { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false };

/**
 * Offers one of the analyst's tools (read, search) to attached clients. Only read-only tools are
 * accepted: the MCP screen's toggle must never hand an IDE a way to write the PM's memory.
 */
export function fromAnalystTool<C, X>(tool: ToolDefinition<z.ZodType, C>, context: () => C): McpToolDef<z.ZodObject, X> {
  if (!tool.annotations.readOnlyHint) throw new Error(`${tool.name} is not read-only and cannot be offered over MCP.`);
  if (!(tool.input instanceof z.ZodObject)) throw new Error(`${tool.name} needs an object input to be offered over MCP.`);
  return defineMcpTool<z.ZodObject, X>({
    name: tool.name,
    description: tool.description,
    input: tool.input,
    annotations: {
      readOnlyHint: true,
      destructiveHint: false,
      idempotentHint: tool.annotations.idempotentHint ?? true,
      openWorldHint: tool.annotations.openWorldHint ?? false,
    },
    async run(input) {
      const r = await tool.run(input, context());
      if (r.isError) throw new AnalystToolError(r.content);
      return r.content;
    },
  });
}

/** A failed analyst tool: its text goes back to the client as an isError result. */
export class AnalystToolError extends Error {}
