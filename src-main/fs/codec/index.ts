export { parseRecord, renderRecord, parseHeaderValue, renderHeaderValue } from './record';
export type { MemoryDocument, HeaderFields, HeaderValue } from './record';
export { atDepth, extractHeader, extractSummary, extractSection, countLines, HEADER_LINES } from './depth';
export type { ReadDepth } from './depth';
