import { z } from 'zod';

/** The web provider's parameters: search the web, or read one page. Declared once for the fetch tool. */
export const webParams = z.discriminatedUnion('action', [
  z.strictObject({
    action: z.literal('search').describe('search the web (Brave Search)'),
    query: z.string().trim().min(1).max(400).describe('what to search for'),
    count: z.number().int().min(1).max(20).default(10).describe('how many results (default 10, max 20)'),
  }),
  z.strictObject({
    action: z.literal('page').describe('read one web page as text'),
    url: z
      .url({ protocol: /^https?$/, error: 'must be an http(s) URL' })
      .max(2048)
      .describe('the http(s) address of the page'),
  }),
]);

export type WebParams = z.output<typeof webParams>;
