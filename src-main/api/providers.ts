import { z } from 'zod';

/**
 * Data providers (Settings → Data): what each serves, whether it is on and healthy, which key it
 * needs, and a test fetch. Pure zod: no node, electron or DOM imports.
 */

const providerName = z.string().regex(/^[a-z][a-z0-9_]{0,31}$/, 'a provider name such as economic');
const day = z.string().regex(/^\d{4}-\d{2}-\d{2}$/, 'a date YYYY-MM-DD');

/** One RSS or Atom feed the PM follows (news). Its name is what the analyst passes as `feed`. */
export const newsFeedSchema = z.strictObject({
  name: z.string().trim().min(1).max(80),
  url: z.url({ protocol: /^https?$/, error: 'must be an http(s) URL' }).max(2048),
});

/** The news feeds, in the PM's order (the first feed carrying a story keeps it); names distinct. */
export const newsFeedsSchema = z
  .array(newsFeedSchema)
  .max(50)
  .refine((feeds) => new Set(feeds.map((f) => f.name.toLowerCase())).size === feeds.length, 'feed names must be distinct');

/**
 * One provider's settings. Extensible: a provider that needs more (news: its feed list) adds an
 * optional field here, so older settings files keep loading.
 */
export const providerSettingsSchema = z.object({
  enabled: z.boolean(),
  /** The vendor's API root, when it can be pointed elsewhere (a proxy, a mirror, a test server). Empty: the default. */
  baseUrl: z
    .url({ protocol: /^https?$/ })
    .max(500)
    .or(z.literal(''))
    .optional(),
  /** news only: the RSS/Atom feeds to read (`providers.news.feeds`). */
  feeds: newsFeedsSchema.optional(),
  /** datasets only: the PM's data folder (absolute path). Empty or absent: `<data>/datasets/`. */
  folder: z.string().max(1000).optional(),
  /** Attached IDEs (the governance MCP server) may fetch from this provider. Off unless the PM turns it on. */
  shareWithMcp: z.boolean().optional(),
});
export type ProviderSettings = z.infer<typeof providerSettingsSchema>;

/** Settings of every provider by name; a provider absent here is on, with its defaults. */
export const providersSettingsSchema = z.record(providerName, providerSettingsSchema);

export const providerHealthSchema = z.discriminatedUnion('state', [
  z.object({ state: z.literal('ok'), detail: z.string().optional(), checkedAt: z.string().optional() }),
  z.object({ state: z.literal('not_configured'), detail: z.string() }),
  z.object({ state: z.literal('failing'), lastError: z.string(), at: z.string() }),
]);

export const providerViewSchema = z.object({
  name: z.string(),
  description: z.string(),
  enabled: z.boolean(),
  health: providerHealthSchema,
  /** Its parameters as JSON Schema (field descriptions are the hints). */
  params: z.record(z.string(), z.unknown()),
  /** The secret it reads its API key from (Settings → Keys), or null when it needs none. */
  secret: z.string().nullable(),
  /** Whether that secret is set (never its value). */
  secretSet: z.boolean(),
  settings: providerSettingsSchema,
});

export const providerProcedures = {
  /** Every registered provider with its health, enabled flag, parameters and key. */
  'providers/list': { input: z.object({}).strict(), output: z.object({ providers: z.array(providerViewSchema) }) },
  /**
   * Runs one fetch as the analyst would (the registry validates the params; `asOf` plays a
   * retrospective session) and returns what it would store. A provider failure is an error envelope.
   */
  'providers/test-fetch': {
    input: z
      .object({
        name: providerName,
        params: z.record(z.string(), z.unknown()).default({}),
        asOf: day.optional(),
      })
      .strict(),
    output: z.object({ label: z.string(), asOf: z.string(), source: z.string(), summary: z.string(), full: z.string() }),
  },
  /** Changes one provider's settings (merged into what is there); answers its new view. */
  'providers/configure': {
    input: z.object({ name: providerName, settings: providerSettingsSchema.partial() }).strict(),
    output: providerViewSchema,
  },
} as const;
