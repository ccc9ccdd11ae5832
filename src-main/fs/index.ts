export { ForgeFS } from './forge-fs';
export { SessionFS } from './session-fs';
export type { ForgeFSOptions, ForgeTx, PlannedWrite } from './forge-fs';
export { openWorkspace, DATABASE_FILE } from './workspace';
export type { Workspace, WorkspaceOptions } from './workspace';
export { seedWorkspace, readSeedFiles, findBundledDir, SEEDED_MARKER } from './seed';
export { sampleState, clearSample, PORTFOLIO_STAYS, SAMPLE_CLEARED_MARKER } from './sample';
export type { SampleState, SampleStatus, ClearSampleResult } from './sample';
export { syncBundledSkills, SkillsBackend } from './skills-backend';
export { routePath, normalizePath } from './paths';
export type { Route } from './paths';
export { CATEGORIES, categoryInfo, listingMeta, formatId } from './categories';
export type { CategoryInfo } from './categories';
export { checkWriteContext, DEFAULT_LIST_LIMIT, MAX_LIST_LIMIT } from './types';
export type { Actor, WriteContext, DirEntry, Listing, ListOptions, WriteResult, RecordInfo, ArchivedVersion } from './types';
export { sha256 } from './hash';
export { trackerWriter, checkRecordAuthority, RESOLUTION_FIELDS } from './write-authority';
export {
  parseRecord,
  renderRecord,
  parseHeaderValue,
  renderHeaderValue,
  atDepth,
  extractHeader,
  extractSummary,
  extractSection,
  countLines,
  HEADER_LINES,
} from './codec';
export type { MemoryDocument, HeaderFields, HeaderValue, ReadDepth } from './codec';
export { parseQuery, compileQuery, compileQueryFor, isIsoDate } from './query';
export type { QueryAst, QueryTerm } from './query';
export { memoryAsOf } from './as-of';
export type { MemoryAsOf, RecordAsOf } from './as-of';
