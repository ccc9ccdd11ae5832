import { z } from 'zod';

/**
 * memory/table: the Views and Expressions tables. One page of typed rows, filtered by the same
 * query language as memory/list and sorted in SQL by any column, with a stable tiebreak on id.
 * Pure zod: no node, electron or DOM imports.
 */

/** Sortable columns, in the order the table shows them. */
export const viewSortKey = z.enum(['id', 'title', 'status', 'confidence', 'horizon', 'category', 'scope', 'updated']);
export const expressionSortKey = z.enum(['id', 'title', 'status', 'instrument', 'notional', 'max_loss', 'view', 'confidence', 'updated']);
export type ViewSortKey = z.infer<typeof viewSortKey>;
export type ExpressionSortKey = z.infer<typeof expressionSortKey>;

export const sortDirection = z.enum(['asc', 'desc']);
export type SortDirection = z.infer<typeof sortDirection>;

const page = {
  /** Query language: keywords, "quoted phrases", key:value, key>=N, key<=N, since:YYYY-MM-DD. */
  query: z.string().max(2000).optional(),
  /** Descending is exactly ascending reversed, ties included (ties go by id in the same direction). */
  dir: sortDirection,
  offset: z.number().int().min(0),
  limit: z.number().int().min(1).max(1000),
};

export const memoryTableInput = z.discriminatedUnion('category', [
  z.object({ category: z.literal('views'), sort: viewSortKey, ...page }).strict(),
  z.object({ category: z.literal('expressions'), sort: expressionSortKey, ...page }).strict(),
]);
export type MemoryTableInput = z.infer<typeof memoryTableInput>;

/** One row. Fields that belong to the other table are null (a View has no instrument). */
export const memoryTableRow = z.object({
  id: z.string(),
  /** ForgeFS path, e.g. `/memory/views/V-001.md`. */
  path: z.string(),
  title: z.string(),
  status: z.string().nullable(),
  confidence: z.number().nullable(),
  /** Views: the date the View is about (`horizon:` header), as written. */
  horizon: z.string().nullable(),
  /** Views: the analyst's category (`macro_regime`, `relative_value`, ...). */
  category: z.string().nullable(),
  scope: z.string().nullable(),
  /** Expressions: what is traded. */
  instrument: z.string().nullable(),
  /** Expressions: size in the book's units (header `notional`). */
  notional: z.number().nullable(),
  /** Expressions: maximum loss, % of the book (header `max_loss_pct`). */
  maxLossPct: z.number().nullable(),
  /** Expressions: the View it expresses. */
  viewId: z.string().nullable(),
  /** When the live version was written (the store's timestamp, ISO-8601 UTC). */
  updatedAt: z.string(),
  /** The confidence of the version before this one (null for a first version): Home flags a View whose confidence fell. */
  previousConfidence: z.number().nullable(),
});
export type MemoryTableRow = z.infer<typeof memoryTableRow>;

export const memoryTableOutput = z.object({
  category: z.enum(['views', 'expressions']),
  rows: z.array(memoryTableRow),
  /** How many records match the query in all (rows holds at most `limit` of them). */
  total: z.number().int(),
  offset: z.number().int(),
  limit: z.number().int(),
});
export type MemoryTableOutput = z.infer<typeof memoryTableOutput>;

export const memoryTableProcedure = { input: memoryTableInput, output: memoryTableOutput };
