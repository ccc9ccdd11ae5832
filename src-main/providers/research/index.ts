export { ResearchProvider, createResearchProvider, researchParams, citation } from './provider';
export type { ResearchParams, ResearchProviderOptions } from './provider';
export { ResearchIndex, ftsQuery } from './passage-index';
export type { PassageHit, SyncReport } from './passage-index';
export { chunkText, chunkNote, markdownUnits, MIN_WORDS, MAX_WORDS } from './chunk';
export type { NoteUnit, Passage } from './chunk';
