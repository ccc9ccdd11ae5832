export { McpScreen } from './McpScreen';
export { annotationBadges, bearerOf, callTotals, checkSnippet, formatMs, groupTools, toolFamily } from './model';
