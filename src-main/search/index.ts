export type { Embedder, EmbedKind } from './embedder';
export type { EmbedderStall } from './embedder';
export { EmbedderError, EmbedderTimeoutError, ModelStoppedError, l2normalize, dot, toBits } from './embedder';
export { MAX_EMBED_ATTEMPTS } from './embed-queue';
export type { ParkedNote } from './embed-queue';
export { HashNgramEmbedder, tokenize } from './hash-embedder';
export { VoyageEmbedder, OpenAICompatibleEmbedder } from './http-embedder';
export { chooseEmbedder } from './embedders';
export type { EmbedderKeys, EmbedderChoice, LocalModelRef } from './embedders';
export {
  LocalModelEmbedder,
  DEFAULT_EMBED_TIMEOUT_MS,
  downloadModel,
  findInstalledModel,
  isPinned,
  MINILM_MANIFEST,
  modelFolderIn,
  modelInFolder,
  validateModelFolder,
  ModelChecksumError,
  ModelDownloadError,
  ModelFolderError,
} from './semantic';
export type { DownloadProgress, InstalledModel, ModelManifest } from './semantic';
export type { HttpEmbedderOptions } from './http-embedder';
export { SearchIndex, reindex, writeEntry, writeEntryBatch, removeEntry, textForEmbedding } from './search-index';
export type { SearchIndexStatus, ReindexProgress, ModelStallStatus } from './search-index';
export { searchMemory, formatResults, cleanText, DEFAULT_TUNING, MAX_SEARCH_QUERY_CHARS, MAX_SEARCH_RESULTS } from './search';
export type { SearchContext, SearchRequest, SearchResponse, SearchHit, SearchWeights, SearchTuning, FusionMethod } from './search';
export type { FieldWeights } from './keywords';
export { keywordRankingStatus } from './keyword-index';
export { parseScope } from './scope';
export type { SearchScope } from './scope';
export { searchPassages, passageHit, passageMatch, queryVectorFor } from './research-search';
export type { PassageQuery, PassageResult, ResearchSource } from './research-search';
export { PassageVectorCache } from './passage-cache';
export { Quantizer, DEFAULT_BITS } from './quantizer';
export { BlockIndex, BLOCK_SLOTS, quantizeInt8 } from './block-store';
