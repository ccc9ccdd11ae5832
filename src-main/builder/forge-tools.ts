import type { z } from 'zod';
import { ALIASES, dispatch, TOOLS, type ToolContext } from '../mcp';
import { defineTool, type ToolDefinition } from '../tools/define';

/**
 * The builder's five forge tools: the governance server's own tools (declared once in
 * mcp/tools.ts), called through its dispatch boundary exactly as an attached IDE calls them. The
 * builder sees `forge_get_summary` (the server's alias of `forge_summary`).
 */

export const BUILDER_FORGE_TOOLS = ['forge_get_summary', 'forge_list_contracts', 'forge_get_contract', 'forge_get_phase_window', 'forge_scratchpad'] as const;

/** What a forge tool needs from the build: the governance context of its working directory. */
export interface ForgeToolHost {
  forge: ToolContext;
  /** Told of every successful forge tool call (the runner records the contracts read). */
  onForgeCall?: (name: string, input: Record<string, unknown>) => void;
}

function builderTool(name: (typeof BUILDER_FORGE_TOOLS)[number]): ToolDefinition<z.ZodType, ForgeToolHost> {
  const target = ALIASES[name] ?? name;
  const def = TOOLS.find((t) => t.name === target);
  if (!def) throw new Error(`The governance server has no tool ${target}.`);
  return defineTool<z.ZodType, ForgeToolHost>({
    name,
    description: def.description,
    input: def.input,
    annotations: def.annotations,
    async run(input, ctx) {
      const result = await dispatch(name, input, ctx.forge);
      const text = result.content.map((c) => c.text).join('\n');
      if (!result.isError) ctx.onForgeCall?.(name, input as Record<string, unknown>);
      return result.isError ? { isError: true, content: text } : { content: text };
    },
  });
}

/** The forge tools a build gets: all five in MCP mode; only the scratchpad when the contracts are in the first message. */
export function forgeTools(mode: 'mcp' | 'dump'): ToolDefinition<z.ZodType, ForgeToolHost>[] {
  const names = mode === 'mcp' ? BUILDER_FORGE_TOOLS : (['forge_scratchpad'] as const);
  return names.map(builderTool);
}
