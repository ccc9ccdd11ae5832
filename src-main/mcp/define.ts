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
