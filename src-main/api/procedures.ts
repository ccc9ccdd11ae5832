import { z } from 'zod';
import { modelRoutingSchema } from './models';
import { httpBaseUrlInput, timeZoneInput } from './settings-fields';
import { memoryProcedures } from './memory';
import { embedderChoice, searchProcedures } from './search';
import { agentProcedures } from './agent';
import { taskProcedures } from './tasks';
import { skillProcedures } from './skills';
import { mcpProcedures } from './mcp';
import { guardrailProcedures } from './guardrails';
import { analyticsProcedures } from './analytics';
import { providerProcedures, providersSettingsSchema } from './providers';
import { dataFolderProcedures } from './data-folder';
import { buildProcedures } from './builds';
import { calibrationProcedures } from './calibration';
import { lineageProcedures } from './lineage';
import { proposalProcedures } from './proposals';
import { scheduleProcedures } from './schedule';
import { demoProcedures } from './demo';
import { contractProcedures } from './contracts';
import { workspaceProcedures } from './workspace';
import { deskProcedures } from './desk';
import { deskDatabaseProcedures } from './desk-database';
import { sharingProcedures } from './sharing';

/**
 * The one API contract: every procedure the UI (or any other client) can call, by `area/verb`.
 * Main, preload and renderer all derive their types from this map; adding a procedure here is
 * the only place its shape is written down. This file imports nothing from node, electron or
 * the DOM so that every side can use it.
 */

const empty = z.object({}).strict();

export const appMode = z.enum(['electron', 'headless', 'test']);

export const appInfo = z.object({
  name: z.string(),
  version: z.string(),
  mode: appMode,
  dataDir: z.string(),
  platform: z.string(),
  nodeVersion: z.string(),
  startedAt: z.string(),
  /** The exact build and which optional parts are active here (About, `forge version`). Optional: older hosts omit it. */
  build: z
    .object({
      commit: z.string(),
      builtAt: z.string(),
      arch: z.string(),
      electronVersion: z.string().nullable(),
      parts: z.array(z.object({ name: z.string(), active: z.boolean(), detail: z.string() })),
      /** The local search model's download, summed from its pinned manifest; null when it cannot be downloaded. */
      modelDownload: z.object({ bytes: z.number().int().nonnegative(), label: z.string() }).nullable(),
    })
    .optional(),
});

export const healthCheck = z.object({
  name: z.string(),
  ok: z.boolean(),
  detail: z.string(),
});

export const appHealth = z.object({
  status: z.enum(['ok', 'degraded']),
  uptimeSeconds: z.number(),
  checks: z.array(healthCheck),
});

export const themeSetting = z.enum(['system', 'light', 'dark']);
export const secretName = z.enum([
  'anthropicApiKey',
  'voyageApiKey',
  'openaiApiKey',
  'fredApiKey',
  'alphaVantageApiKey',
  'braveApiKey',
  'polygonApiKey',
  'deskDatabasePassword',
]);

/** Settings the renderer may see and edit. Secrets are never part of this shape. */
export const settings = z.object({
  theme: themeSetting,
  timezone: z.string().min(1).max(64),
  displayName: z.string().max(80),
  sessionTimeoutMinutes: z
    .number()
    .int()
    .min(1)
    .max(24 * 60),
  anthropicBaseUrl: z.string().url().or(z.literal('')),
  searchWeights: z.object({
    semantic: z.number().min(0).max(1),
    recency: z.number().min(0).max(1),
  }),
  /** Settings → Search: which embedder makes the vectors. Absent: auto (the local model once installed). */
  searchEmbedder: embedderChoice.optional(),
  /** A local model folder the PM pointed at (air-gapped desks) instead of downloading one. */
  semanticModelPath: z.string().max(1000).optional(),
  /** Which model answers for each role (agent, subagent, compact, ...). */
  models: modelRoutingSchema,
  /**
   * Skills (by folder name) the PM allowed to run their Python and shell scripts, in a sandbox
   * (Settings → Skills). Absent or empty: none. Optional so older settings files and patches keep it.
   */
  allowedSkillScripts: z.array(z.string().min(1).max(80)).max(500).optional(),
  /** Data providers by name (Settings → Data): on/off, base URL, a provider's own fields. Absent: all on, defaults. */
  providers: providersSettingsSchema.optional(),
  /** The builder (Settings → Builder). Absent: MCP mode, the default allow-list, compaction at 70% of 150k tokens. */
  builder: z
    .object({
      /** On: lean prompt, contracts fetched with forge tools. Off: every contract in the first message (the old flow). */
      useMcpContracts: z.boolean(),
      /** Programs run_command may start (no shell); e.g. npm, npx, node, python3, git. */
      allowedCommands: z
        .array(
          z
            .string()
            .regex(/^[A-Za-z0-9._+-]+$/)
            .max(60),
        )
        .max(100),
      /** The context window the build is held within. */
      contextLimitTokens: z.number().int().min(4000).max(1_000_000),
      /** Compact the middle of the conversation past this share of the limit. */
      compactAtShare: z.number().min(0.2).max(0.95),
    })
    .partial()
    .optional(),
});
export type Settings = z.infer<typeof settings>;

export const settingsView = z.object({
  settings,
  /** Which secrets are set: never their values. */
  secrets: z.record(secretName, z.boolean()),
  /** Where secrets live in this mode, in words a PM understands. */
  secretStorage: z.string(),
  /** What the builder uses when Settings → Builder leaves a field unset (the core's own defaults, shown in the form). */
  builderDefaults: z.object({
    useMcpContracts: z.boolean(),
    allowedCommands: z.array(z.string()),
    contextLimitTokens: z.number().int(),
    compactAtShare: z.number(),
  }),
});

export const settingsPatch = z
  .object({
    // The typed fields are checked harder than the stored shape (see settings-fields.ts).
    settings: settings.extend({ timezone: timeZoneInput, anthropicBaseUrl: httpBaseUrlInput }).partial().strict().optional(),
    /** A secret to set; an empty string clears it. */
    secrets: z.partialRecord(secretName, z.string().max(4096)).optional(),
  })
  .strict();

export const procedures = {
  'app/info': { input: empty, output: appInfo },
  'app/health': { input: empty, output: appHealth },
  /** Runs a shipped skill script and reports the optional parts active here (the release smoke test calls it). */
  'app/self-check': { input: empty, output: z.object({ status: z.enum(['ok', 'degraded']), checks: z.array(healthCheck) }) },
  'settings/get': { input: empty, output: settingsView },
  'settings/set': { input: settingsPatch, output: settingsView },
  ...memoryProcedures,
  ...agentProcedures,
  ...searchProcedures,
  ...taskProcedures,
  ...skillProcedures,
  ...mcpProcedures,
  ...guardrailProcedures,
  ...providerProcedures,
  ...dataFolderProcedures,
  ...analyticsProcedures,
  ...buildProcedures,
  ...calibrationProcedures,
  ...lineageProcedures,
  ...scheduleProcedures,
  ...proposalProcedures,
  ...demoProcedures,
  ...contractProcedures,
  ...workspaceProcedures,
  ...deskProcedures,
  ...deskDatabaseProcedures,
  ...sharingProcedures,
} as const;

export type Procedures = typeof procedures;
export type ProcedureName = keyof Procedures;
export type ProcedureInput<N extends ProcedureName> = z.input<Procedures[N]['input']>;
export type ProcedureOutput<N extends ProcedureName> = z.output<Procedures[N]['output']>;

export const procedureNames = Object.keys(procedures) as ProcedureName[];

export function isProcedureName(name: unknown): name is ProcedureName {
  return typeof name === 'string' && Object.hasOwn(procedures, name);
}
