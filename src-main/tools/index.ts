export { defineTool, runTool, toAnthropicTool, inputJsonSchema } from './define';
export type { ToolDefinition, ToolAnnotations, ToolResult } from './define';
