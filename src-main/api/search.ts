import { z } from 'zod';

/**
 * Search procedures: hybrid search over memory and broker-note passages (meaning + keywords +
 * recency), and the state of
 * the search index (which embedder made its vectors, whether it is stale, how many notes wait to
 * be re-embedded). Pure zod: no node, electron or DOM imports.
 */

export const searchHit = z.object({
  path: z.string(),
  id: z.string(),
  category: z.string(),
  title: z.string(),
  /** Final score: semantic × weight + recency × weight. */
  score: z.number(),
  /** Fusion of vector similarity and keyword relevance, 0..1. */
  semantic: z.number(),
  vector: z.number(),
  keyword: z.number(),
  /** 1 / (1 + age_days / 30). */
  recency: z.number(),
  updatedAt: z.string(),
  /** The record's first 8 lines (for a broker-note passage: citation, note date, the start of the text). */
  header: z.string(),
  /** Set on a broker-note passage (path /research/<note>): outside content — show it as plain text, never as HTML. */
  passage: z.object({ note: z.string(), citation: z.string(), noteDate: z.string(), text: z.string() }).optional(),
});

export const memorySearchInput = z
  .object({
    /** Path prefix: /memory/, /memory/views/, /memory/pk/ ...; session or /session/... (needs session_id); research or /research/<note prefix> (broker notes); all = memory + that session's files + broker notes. */
    scope: z.string().max(1000),
    /** A session whose files `all` and `session` scopes search (the Memory screen leaves it out: memory only). */
    session_id: z.string().min(1).max(200).optional(),
    /** Plain words; very long text is refused with a message, not cut silently. */
    query: z.string().max(200_000),
    /** Memory query language: key:value, key>=N, since:YYYY-MM-DD (or YYYY-MM, YYYY), status:active, skill:name, keywords. */
    filters: z.string().max(2000).optional(),
    max_results: z.number().int().min(1).max(50).optional(),
  })
  .strict();

export const memorySearchOutput = z.object({
  query: z.string(),
  scope: z.string(),
  filters: z.string().nullable(),
  results: z.array(searchHit),
  /** Set when only keyword search could run (e.g. the embedding provider is down). */
  degraded: z.string().nullable(),
  /** The results as the analyst's `search` tool prints them. */
  formatted: z.string(),
});

export const searchStatus = z.object({
  embedder: z.string(),
  dims: z.number().int(),
  /** Vectors come from another embedder or some notes are missing: run a reindex. */
  stale: z.boolean(),
  indexed: z.number().int(),
  records: z.number().int(),
  /** Notes saved while the embedder was failing, waiting to be re-embedded. */
  queued: z.number().int(),
  lastError: z.string().nullable(),
  /** Broker-note passages searched with memory (0 when research is off) ... */
  passages: z.number().int(),
  /** ... and those with a vector from this embedder (the rest wait for the next search or a rebuild). */
  passagesIndexed: z.number().int(),
  /** How keywords are ranked: exact BM25 from the in-memory index (and whether it is built yet), or SQLite's bm25() and why. */
  keywordRanking: z.string(),
  /** Notes that failed to embed on their own three times: no longer retried until Retry (or the note is rewritten). */
  parked: z.number().int(),
  /** The newest parked notes (at most 20), each with its last error. */
  parkedNotes: z.array(z.object({ category: z.string(), id: z.string(), attempts: z.number().int(), lastError: z.string().nullable(), queuedAt: z.string() })),
  /** The last time the local model stopped answering within its timeout, and what Forge did; null if it never did. */
  modelStall: z.object({ at: z.string(), timeoutMs: z.number().int(), restarts: z.number().int(), recovered: z.boolean(), message: z.string() }).nullable(),
});

/** Memory notes and broker-note passages re-embedded (`done` of `total`); `passages` of the total are passages. */
export const reindexProgress = z.object({ done: z.number().int(), total: z.number().int(), embedder: z.string(), passages: z.number().int().optional() });

/** Settings → Search: `auto` is the local model once installed, else a configured key, else the hashed one. */
export const embedderChoice = z.enum(['auto', 'hash', 'local-semantic', 'voyage', 'openai']);

/** The local sentence-embedding model: where it is, whether it can be used, a download in flight. */
export const searchModelStatus = z.object({
  /** e.g. all-MiniLM-L6-v2 */
  model: z.string(),
  licence: z.string(),
  dims: z.number().int(),
  /** Files are in place and checked (a download) or validated (a folder). False: "not installed". */
  installed: z.boolean(),
  source: z.enum(['download', 'folder']).nullable(),
  folder: z.string().nullable(),
  /** The folder the PM pointed at, even when it no longer holds a model (then `folderProblem` says why). */
  folderSetting: z.string().nullable(),
  folderProblem: z.string().nullable(),
  /** False when this build has no checksums to verify a download against: use a folder instead. */
  downloadable: z.boolean(),
  downloading: z.boolean(),
  choice: embedderChoice,
  /** The embedder the index uses now (e.g. local-minilm-l6-v2-384, or hash-ngram-384: the fallback). */
  active: z.string(),
});

/** Bytes of the model on disk, of the manifest's total. */
export const modelDownloadProgress = z.object({ file: z.string(), done: z.number().int(), total: z.number().int() });

export const searchProcedures = {
  'memory/search': { input: memorySearchInput, output: memorySearchOutput },
  'search/status': { input: z.object({}).strict(), output: searchStatus },
  'search/reindex': { input: z.object({}).strict(), output: reindexProgress },
  /** Stops a running rebuild (search/reindex then fails with `cancelled`); false when none was running. */
  'search/reindex-cancel': { input: z.object({}).strict(), output: z.object({ cancelled: z.boolean() }) },
  /** Parked notes (Settings → Search) go back in the embedding queue with fresh attempts; how many did. */
  'search/retry-parked': { input: z.object({}).strict(), output: z.object({ retried: z.number().int() }) },
  'search/model-status': { input: z.object({}).strict(), output: searchModelStatus },
  'search/model-download': { input: z.object({}).strict(), output: searchModelStatus },
  'search/model-cancel': { input: z.object({}).strict(), output: z.object({ cancelled: z.boolean() }) },
  /** An air-gapped desk: a folder holding config.json, the tokenizer files and onnx/model*.onnx. Empty string: forget it. */
  'search/model-folder': { input: z.object({ path: z.string().max(1000) }).strict(), output: searchModelStatus },
  'search/embedder': { input: z.object({ embedder: embedderChoice }).strict(), output: searchModelStatus },
} as const;

export const searchEvents = {
  'search/reindex-progress': reindexProgress,
  'search/model-progress': modelDownloadProgress,
} as const;
