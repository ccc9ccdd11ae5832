import { z } from 'zod';
import type { newsFeedSchema } from '../../api/providers';

const isoDate = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}$/, { message: 'must be a date YYYY-MM-DD', abort: true })
  .refine((s) => !Number.isNaN(Date.parse(`${s}T00:00:00Z`)) && new Date(`${s}T00:00:00Z`).toISOString().startsWith(s), 'is not a calendar date');

/** The news provider's parameters, declared once: the fetch tool validates with it and shows its descriptions. */
export const newsParams = z
  .strictObject({
    query: z
      .string()
      .trim()
      .min(1)
      .max(200)
      .optional()
      .describe('keywords; every word must appear in the headline or summary (case-insensitive); "quoted phrase" counts as one'),
    feed: z.string().trim().min(1).max(80).optional().describe('only this configured feed, by its name'),
    since: isoDate.optional().describe('published on or after this date, YYYY-MM-DD'),
    until: isoDate.optional().describe('published on or before this date, YYYY-MM-DD'),
    limit: z.number().int().min(1).max(100).default(20).describe('most stories to return, newest first (default 20, max 100)'),
  })
  .refine((p) => !p.since || !p.until || p.since <= p.until, { message: 'since must not be after until', path: ['since'] });

export type NewsParams = z.output<typeof newsParams>;

/** The feed list lives in the settings contract (`providers.news.feeds`); the provider reads the same shape. */
export { newsFeedSchema as newsFeed, newsFeedsSchema as newsFeeds } from '../../api/providers';
export type NewsFeed = z.infer<typeof newsFeedSchema>;
