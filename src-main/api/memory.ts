import { z } from 'zod';
import { memoryTableProcedure } from './memory-table';
import { expressionChecksProcedure } from './expression-checks';

/**
 * Memory procedures: browse the analyst's memory (Views, Expressions, PK, ...), read one record
 * at a chosen depth, see its archived versions, and follow the audit trail (decision lineage).
 * Paths are ForgeFS paths such as `/memory/views/`, `/memory/views/V-001.md`, `/portfolio/state.md`.
 * Pure zod: no node, electron or DOM imports.
 */

const forgePath = z.string().min(1).max(1000);

export const memoryDepth = z.enum(['header', 'summary', 'full']);

/** One line of a directory listing, with the seed's listing metadata in `meta`. */
export const memoryEntry = z.object({
  /** File or folder name, e.g. `V-001.md` or `views/`. */
  name: z.string(),
  /** Full ForgeFS path, e.g. `/memory/views/V-001.md`. */
  path: z.string(),
  isDir: z.boolean(),
  /** Record id (`V-001`) when the entry is a memory record; null for folders and plain files. */
  id: z.string().nullable(),
  title: z.string(),
  /**
   * Listing metadata as the analyst sees it: views `scope | conf:0.7 | active`, pk `w:0.8 | sizing`,
   * expressions `view:V-001 | active`, counterfactuals `rejected_expression | tracking`; empty otherwise.
   */
  meta: z.string(),
  status: z.string().nullable(),
  /** ISO timestamp of the last write, null when unknown (folders). */
  updatedAt: z.string().nullable(),
});
export type MemoryEntry = z.infer<typeof memoryEntry>;

export const memoryListInput = z
  .object({
    path: forgePath,
    /** Query language: keywords, "quoted phrases", key:value, key>=N, key<=N, since:YYYY-MM-DD, skill:name. */
    query: z.string().max(2000).optional(),
    limit: z.number().int().min(1).max(1000).optional(),
    offset: z.number().int().min(0).optional(),
  })
  .strict();

export const memoryListOutput = z.object({
  path: z.string(),
  entries: z.array(memoryEntry),
  /**
   * How many entries match in all (entries holds at most `limit` of them), counted up to 10,000;
   * a query with words is counted only as far as its page.
   */
  total: z.number().int(),
  /** Present and true when more match than were counted: `total` is then a lower bound ("more than"). */
  totalCapped: z.boolean().optional(),
  limit: z.number().int(),
  offset: z.number().int(),
});

/** Typed columns of a memory record (null for files that are not memory records). */
export const memoryRecordFields = z.object({
  id: z.string(),
  category: z.string(),
  title: z.string(),
  status: z.string().nullable(),
  confidence: z.number().nullable(),
  weight: z.number().nullable(),
  scope: z.string().nullable(),
  viewId: z.string().nullable(),
  createdAt: z.string(),
  updatedAt: z.string(),
  /** Every header field, with lists and numbers parsed to their types. */
  header: z.record(z.string(), z.unknown()),
  /**
   * 1 for the record as first written, +1 for every change (each change archives the version
   * before it). Send it back as memory/write's `expectedVersion` when saving an edit.
   */
  version: z.number().int().min(1),
});
export type MemoryRecordFields = z.infer<typeof memoryRecordFields>;

export const memoryReadInput = z.object({ path: forgePath, depth: memoryDepth.optional() }).strict();

export const memoryReadOutput = z.object({
  path: z.string(),
  depth: memoryDepth,
  /** Markdown at the requested depth (canonical form for memory records). */
  content: z.string(),
  /** Lines in the full document, so the UI can say how much a header read left out. */
  totalLines: z.number().int(),
  record: memoryRecordFields.nullable(),
});

export const memoryVersion = z.object({
  /** Where the archived copy lives, e.g. `/memory/.archive/views/V-001_20260114T101500123Z.md`. */
  archivePath: z.string(),
  archivedAt: z.string(),
  /** sha256 (hex) of the archived markdown. */
  contentHash: z.string(),
  title: z.string(),
  status: z.string().nullable(),
  confidence: z.number().nullable(),
});
export type MemoryVersion = z.infer<typeof memoryVersion>;

export const memoryHistoryInput = z.object({ path: forgePath }).strict();

export const memoryHistoryOutput = z.object({
  path: z.string(),
  /** The live version, or null if the record no longer exists. */
  current: z.object({ updatedAt: z.string(), contentHash: z.string() }).nullable(),
  /** Archived versions, newest first. */
  versions: z.array(memoryVersion),
});

export const auditActorKind = z.enum(['pm', 'agent', 'subagent', 'scheduler', 'builder', 'mcp', 'tracker']);

export const auditEntry = z.object({
  /** Monotonic sequence number; pass it as `before` to page back in time. */
  seq: z.number().int(),
  at: z.string(),
  /**
   * `pm`, `agent`, `subagent:<task>`, `scheduler`, `builder`, `mcp` or `tracker` (Outcomes, Counterfactual results, calibration).
   * On a desk: the person's user id for `pm`, and `<kind>@<userId>` for work done during a person's call (`agent@pm01`).
   */
  actor: z.string(),
  /** `create`, `update`, `archive`, `delete`. */
  operation: z.string(),
  path: z.string(),
  sessionId: z.string().nullable(),
  taskId: z.string().nullable(),
  /** sha256 (hex) of the content written; null for deletes. */
  contentHash: z.string().nullable(),
});
export type AuditEntry = z.infer<typeof auditEntry>;

export const memoryAuditInput = z
  .object({
    /** A file path (exact) or a folder path ending in `/` (everything under it). */
    path: forgePath.optional(),
    limit: z.number().int().min(1).max(1000).optional(),
    /** Only entries with seq below this (paging back). */
    before: z.number().int().min(1).optional(),
  })
  .strict();

export const memoryAuditOutput = z.object({
  entries: z.array(auditEntry),
  /** Pass as `before` for the next (older) page; null when there is nothing older. */
  nextBefore: z.number().int().nullable(),
});

export const memoryWriteInput = z
  .object({
    /** `/memory/views/new.md` or `/memory/expressions/new.md` to create (the next id is assigned), or an existing record's path. */
    path: forgePath,
    /** The record's markdown: `# <id|new> — title`, `key: value` lines, `---`, the body with `## SUMMARY`. */
    content: z.string().min(1).max(200_000),
    /** The version the edit started from (memory/read's `record.version`); if the record has moved on, the write is refused with `conflict`. */
    expectedVersion: z.number().int().min(1).optional(),
  })
  .strict();

export const memoryWriteOutput = z.object({
  /** Where it was written (new.md resolved to the assigned id). */
  path: z.string(),
  id: z.string(),
  /** The record's version after this write (unchanged when the text was already identical). */
  version: z.number().int().min(1),
  /** The status it landed with: a PM-written Expression is always `proposed` until approved. */
  status: z.string().nullable(),
  /** What happened, in words: the landing status, archived version, side effects. */
  message: z.string(),
});

export const memoryProcedures = {
  'memory/list': { input: memoryListInput, output: memoryListOutput },
  /** The Views or Expressions table: typed rows, filtered by the query language, sorted in SQL; `invalid_input` for a bad query or an unknown sort column. */
  'memory/table': memoryTableProcedure,
  'memory/read': { input: memoryReadInput, output: memoryReadOutput },
  'memory/history': { input: memoryHistoryInput, output: memoryHistoryOutput },
  'memory/audit': { input: memoryAuditInput, output: memoryAuditOutput },
  /**
   * The PM creates or edits a View or an Expression through the same pipeline as the analyst's
   * write tool (archive, audit as `pm`, side effects, guardrails). Errors: `invalid_input` (names
   * the line; `issues[].path` is `['content', line]`), `conflict` (stale expectedVersion),
   * `guardrail_violation` (the message names rule, value and limit; `issues[].path` is
   * `['guardrails', rule, value, limit]`), `forbidden` (an Expression that is no longer a
   * proposal; an Outcome, a Calibration file or a Counterfactual's result, which only Forge's
   * tracker writes — the message says so), `not_found`. The input names no writer: it is always the PM.
   */
  'memory/write': { input: memoryWriteInput, output: memoryWriteOutput },
  /** Every hard limit checked now for one Expression (pass or fail) and its reviewer's verdict; `not_found` for an unknown id. */
  'expressions/checks': expressionChecksProcedure,
} as const;
