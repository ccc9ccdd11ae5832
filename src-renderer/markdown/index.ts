export { Markdown } from './Markdown';
export { parseMarkdown, parseInline, safeHref } from './parse';
export type { Block, Inline, Align } from './parse';
