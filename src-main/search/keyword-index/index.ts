export { type FieldWeights, idf } from './bm25';
export { type KeywordDoc, type KeywordFilter, type KeywordHit, KeywordIndex } from './keyword-index';
export {
  buildKeywordIndex,
  buildKeywordIndexInBackground,
  type CurrentKeywordIndex,
  currentKeywordIndex,
  keywordIndexProblem,
  keywordIndexReady,
  keywordRankingStatus,
  yieldToEventLoop,
} from './sync';
export { fts5Tokens, queryTerms } from './tokenizer';
