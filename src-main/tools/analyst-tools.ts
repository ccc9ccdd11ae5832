import type { z } from 'zod';
import type { Reviewer } from '../executor';
import type { ProviderRegistry } from '../providers';
import { collectTool } from './collect';
import { compactTool } from './compact';
import type { AnalystToolContext } from './context';
import type { ToolDefinition } from './define';
import { dispatchTool, type TaskBoard } from './dispatch';
import { fetchTool } from './fetch';
import { readTool } from './read';
import { reviewTool } from './review';
import { searchTool } from './search';
import { writeTool } from './write';

export type AnalystTool = ToolDefinition<z.ZodType, AnalystToolContext>;

export interface AnalystToolsOptions {
  providers: ProviderRegistry;
  /** The task executor: adds dispatch and collect. */
  tasks?: TaskBoard;
  /** The adversarial reviewer: adds review. */
  reviewer?: Pick<Reviewer, 'review'>;
}

/**
 * The analyst's tools in a fixed order (the order is part of the cached prompt prefix):
 * read, search, write, fetch, dispatch, collect, review, compact. Without an executor or a
 * reviewer their tools are simply absent (sub-agents and tools tested alone).
 */
export function analystTools(options: AnalystToolsOptions): AnalystTool[] {
  const tools: AnalystTool[] = [
    readTool as unknown as AnalystTool,
    searchTool as unknown as AnalystTool,
    writeTool as unknown as AnalystTool,
    fetchTool(options.providers),
  ];
  if (options.tasks) tools.push(dispatchTool(options.tasks) as unknown as AnalystTool, collectTool(options.tasks) as unknown as AnalystTool);
  if (options.reviewer) tools.push(reviewTool(options.reviewer) as unknown as AnalystTool);
  tools.push(compactTool as unknown as AnalystTool);
  return tools;
}
