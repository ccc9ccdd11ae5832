import { z } from 'zod';

/**
 * Where an Expression's prices come from (the Expression page): each `price_series` entry resolved
 * now through the same market port, over the same window, as "Check exits now" — so the page and
 * the tracker cannot disagree. Pure zod: no node, electron or DOM imports.
 */

export const priceSourceEntry = z.object({
  /** The `price_series` entry as written (`spy.adj_close`, `UST2Y`). */
  ref: z.string(),
  /** The entry the tracker follows: the first that resolves. */
  used: z.boolean(),
  /** The provider that answered (`datasets`, `market`); null when none did. */
  provider: z.string().nullable(),
  /** The source's own account: `csv datasets/spy.csv`, a vendor URL. */
  source: z.string().nullable(),
  /** The source's as-of date for the window read (its last observation). */
  asOf: z.string().nullable(),
  lastClose: z.object({ date: z.string(), close: z.number() }).nullable(),
  /** Closes in the window. */
  closes: z.number().int(),
  kind: z.enum(['price', 'yield']).nullable(),
  /** Why no prices, in one sentence (unknown dataset, column missing, source off); null when found. */
  problem: z.string().nullable(),
});
export type PriceSourceEntry = z.infer<typeof priceSourceEntry>;

/**
 * What "Check exits now" would do with this trade right now, worked by the tracker's own code
 * (the same evaluation, the same series): the entry it measures from, its levels in the series'
 * units, the P&L at the last close, and the exit it would take if one has triggered.
 */
export const trackerPreview = z.object({
  series: z.string(),
  quote: z.enum(['price', 'yield', 'spread']),
  gainsWhen: z.enum(['up', 'down']),
  entryPrice: z.number(),
  entryDate: z.string(),
  target: z.number().nullable(),
  stop: z.number().nullable(),
  exitBy: z.string().nullable(),
  lastClose: z.object({ date: z.string(), close: z.number() }).nullable(),
  /** P&L if it were closed at the last close (% of the position, bp of NAV). */
  atLastClose: z.object({ pnlPct: z.number(), pnlBp: z.number() }).nullable(),
  /** The exit the tracker would take now; null while nothing has triggered. */
  exit: z.object({ reason: z.string(), date: z.string(), price: z.number(), pnlPct: z.number(), pnlBp: z.number() }).nullable(),
  /** A time exit that is due but the data does not reach it yet. */
  waiting: z.string().nullable(),
});
export type TrackerPreview = z.infer<typeof trackerPreview>;

export const priceSourceOutput = z.object({
  id: z.string(),
  /** The entry date the tracker measures from (stated, else the activation stamp); null: none yet. */
  entryDate: z.string().nullable(),
  /** The window read: 10 days before the entry date (today when there is none yet) to today. */
  from: z.string(),
  to: z.string(),
  series: z.array(priceSourceEntry),
  /** What a closed trade was priced from, as the tracker wrote it on the record; null otherwise. */
  recorded: z.object({ series: z.string(), source: z.string(), asOf: z.string() }).nullable(),
  /** One sentence when there is nothing to look up (no `price_series`). */
  note: z.string().nullable(),
  /** For a live trade (or a proposal that states its entry date): what "Check exits now" would do now. */
  tracker: trackerPreview.nullable(),
  /** Why there is no preview, in one sentence (closed, no entry date yet, a rule the tracker cannot read). */
  trackerNote: z.string().nullable(),
});
export type PriceSourceView = z.infer<typeof priceSourceOutput>;

export const priceSourceProcedure = {
  input: z.object({ id: z.string().regex(/^E-\d{3,}$/, 'an Expression id such as E-004') }).strict(),
  output: priceSourceOutput,
} as const;
