import type { z } from 'zod';
import type { ProviderRegistry } from '../providers';
import { compactTool } from './compact';
import type { AnalystToolContext } from './context';
import type { ToolDefinition } from './define';
import { fetchTool } from './fetch';
import { readTool } from './read';
import { searchTool } from './search';
import { writeTool } from './write';

export type AnalystTool = ToolDefinition<z.ZodType, AnalystToolContext>;

/** The analyst's tools in a fixed order (the order is part of the cached prompt prefix). */
export function analystTools(options: { providers: ProviderRegistry }): AnalystTool[] {
  return [
    readTool as unknown as AnalystTool,
    searchTool as unknown as AnalystTool,
    writeTool as unknown as AnalystTool,
    fetchTool(options.providers),
    compactTool as unknown as AnalystTool,
  ];
}
