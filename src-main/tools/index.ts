export { defineTool, runTool, toAnthropicTool, toModelTool, inputJsonSchema } from './define';
export type { ToolDefinition, ToolAnnotations, ToolResult } from './define';
