export { ResearchProvider, createResearchProvider, researchParams, citation } from './provider';
export type { ResearchParams, ResearchProviderOptions, PassageRanker } from './provider';
export { ResearchIndex, ftsQuery } from './passage-index';
export type { PassageHit, SyncReport, SearchOptions as PassageSearchOptions, ResearchIndexOptions } from './passage-index';
export { PassageVectors, embeddingText } from './passage-vectors';
export type { PassageEmbedder, PassageVectorOptions } from './passage-vectors';
export { chunkText, chunkNote, markdownUnits, MIN_WORDS, MAX_WORDS } from './chunk';
export type { NoteUnit, Passage } from './chunk';
