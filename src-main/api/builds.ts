import { z } from 'zod';

/**
 * Builds procedures and events: the builder building a project phase by phase in a working
 * directory that holds `Forge/Contracts/` (the Builds screen, `forge build`). Pure zod.
 */

/** mcp: lean prompt, contracts fetched with forge tools. dump: every contract in the first message (the old flow, kept to compare). */
export const buildMode = z.enum(['mcp', 'dump']);
export type BuildMode = z.infer<typeof buildMode>;

export const buildStatus = z.enum([
  /** The model is working. */
  'running',
  /** The user paused it; Resume continues where it stopped. */
  'paused',
  /** The builder stopped with a STOP code and waits for the user's answer. */
  'waiting_answer',
  /** Every phase signed off. */
  'completed',
  /** Stopped by the user; cannot be resumed. */
  'stopped',
  /** Stopped by an error (no model, the working directory vanished, rounds exhausted); resumable. */
  'failed',
  /** The app closed while it ran; Resume continues from the last saved turn. */
  'interrupted',
]);
export type BuildStatus = z.infer<typeof buildStatus>;

export const phaseStatus = z.enum(['pending', 'in_progress', 'signed_off', 'failed']);

export const stopCode = z.enum([
  'EVIDENCE_MISSING',
  'AMBIGUOUS_INTENT',
  'CONTRACT_CONFLICT',
  'RISK_EXCEEDS_SCOPE',
  'NON_DETERMINISTIC_BEHAVIOR',
  'ENVIRONMENT_LIMITATION',
]);
export type StopCode = z.infer<typeof stopCode>;

export const planTaskView = z.object({ number: z.number().int(), text: z.string(), done: z.boolean(), doneAt: z.string().nullable() });

export const testRunView = z.object({
  at: z.string(),
  command: z.string(),
  passed: z.boolean(),
  exitCode: z.number().int().nullable(),
  /** Who ran it: the builder's run_tests, or Forge checking a sign-off. */
  by: z.enum(['builder', 'forge']),
  /** The tail of the output (capped). */
  output: z.string(),
});

export const auditFinding = z.object({
  severity: z.enum(['info', 'warning', 'severe']),
  source: z.enum(['tests', 'boundaries', 'contract_text', 'auditor']),
  file: z.string().nullable(),
  message: z.string(),
});
export type AuditFinding = z.infer<typeof auditFinding>;

export const phaseView = z.object({
  number: z.number().int(),
  /** The plan's own id when it is not the number ("3.1" in a spec-kit plan, whose phases are stored by position). */
  id: z.string().optional(),
  name: z.string(),
  status: phaseStatus,
  plan: z.array(planTaskView),
  signOff: z.object({ at: z.string(), deliverables: z.array(z.string()), tests: z.string(), accepted: z.boolean() }).nullable(),
  tests: z.array(testRunView),
  findings: z.array(auditFinding),
  startedAt: z.string().nullable(),
  finishedAt: z.string().nullable(),
});
export type PhaseView = z.infer<typeof phaseView>;

export const buildSummary = z.object({
  id: z.string(),
  workDir: z.string(),
  projectName: z.string(),
  mode: buildMode,
  mini: z.boolean(),
  model: z.string(),
  status: buildStatus,
  currentPhase: z.number().int(),
  totalPhases: z.number().int(),
  createdAt: z.string(),
  updatedAt: z.string(),
  inputTokens: z.number().int(),
  outputTokens: z.number().int(),
  costUsd: z.number().nullable(),
  /** Why it failed or stopped, in words the user can act on. */
  error: z.string().nullable(),
});
export type BuildSummary = z.infer<typeof buildSummary>;

export const buildLogEntry = z.object({
  seq: z.number().int(),
  at: z.string(),
  kind: z.enum(['text', 'tool_call', 'tool_result', 'marker', 'gate', 'tests', 'audit', 'compaction', 'status', 'user', 'error']),
  text: z.string(),
  tool: z.string().nullable(),
  isError: z.boolean(),
});
export type BuildLogEntry = z.infer<typeof buildLogEntry>;

export const buildStopView = z.object({ code: stopCode, reason: z.string(), at: z.string() });

/** A command waiting for the PM's go-ahead to run unconfined (no sandbox on this machine). */
export const commandConsentRequest = z.object({
  requestId: z.string(),
  /** What one approval covers for the rest of the build: `tests`, `npm install`, `git`, or a program's name. */
  commandClass: z.string(),
  /** The exact command line. */
  commandLine: z.string(),
  /** One sentence: commands are not confined on this machine, and why. */
  notice: z.string(),
  at: z.string(),
});
export type CommandConsentRequest = z.infer<typeof commandConsentRequest>;

export const buildCommandsView = z.object({
  /** "Allow network for this build" (off by default): package installs need it. */
  allowNetwork: z.boolean(),
  /** Command classes the PM let run unconfined in this build. */
  approvedClasses: z.array(z.string()),
  /** The command waiting for the PM, if any; nothing runs until it is answered. */
  consent: commandConsentRequest.nullable(),
});
export type BuildCommandsView = z.infer<typeof buildCommandsView>;

export const buildDetail = z.object({
  build: buildSummary,
  /** How this build's commands run: the network switch and unconfined-command consent. */
  commands: buildCommandsView,
  phases: z.array(phaseView),
  stop: buildStopView.nullable(),
  /** The newest log entries (at most 500), oldest first. */
  log: z.array(buildLogEntry),
  scratchpad: z.array(z.object({ key: z.string(), value: z.string() })),
  context: z.object({
    /** System prompt + tool definitions (sent every turn). */
    fixedTokens: z.number().int(),
    /** The conversation after the fixed part, as of the last turn. */
    conversationTokens: z.number().int(),
    limitTokens: z.number().int(),
    compactions: z.array(z.object({ at: z.string(), turn: z.number().int(), beforeTokens: z.number().int(), afterTokens: z.number().int() })),
  }),
  turns: z.array(
    z.object({ turn: z.number().int(), at: z.string(), inputTokens: z.number().int(), outputTokens: z.number().int(), cacheReadTokens: z.number().int() }),
  ),
});
export type BuildDetail = z.infer<typeof buildDetail>;

const buildRef = z.object({ id: z.string().min(1).max(100) }).strict();

/**
 * A spec-kit feature (`003-photo-albums` or `003`), Kiro feature or OpenSpec change: a folder name
 * inside the package, so no slashes or dots that could walk out of it.
 */
export const specFeatureName = z
  .string()
  .trim()
  .min(1)
  .max(200)
  .regex(/^[A-Za-z0-9][A-Za-z0-9._-]*$/, 'A feature is the name of its folder: letters, digits, dots, dashes and underscores, e.g. 003-photo-albums.');

export const buildStartInput = z
  .object({
    /** The project folder: its specs in any format builds/inspect reads (spec-kit, Kiro, OpenSpec, plain Markdown, Forge/Contracts/). */
    workDir: z.string().min(1).max(1000),
    /** A model id; default: the builder role's model from Settings. */
    model: z.string().min(1).max(120).optional(),
    /** Default: Settings → useMcpContracts (on → mcp). */
    mode: buildMode.optional(),
    /** Only the first two phases (a quick trial of the flow). */
    mini: z.boolean().optional(),
    /** Build from a plan made with the planner (forge_run_planner) for this project instead of Forge/Contracts/phases.md. */
    projectId: z.string().min(1).max(64).optional(),
    /** The spec-kit/Kiro feature or OpenSpec change to build (as builds/inspect lists them); default: the one inspect picks. Kept on resume. */
    feature: specFeatureName.optional(),
  })
  .strict();

/**
 * What Forge reads in a project folder before a build starts (the Builds screen's start form and
 * `forge build --dry-run`): the spec format found and why, the documents with their sizes, the
 * phases by the plan's own ids with their task counts, and what it could not use.
 */
export const specInspection = z.object({
  dir: z.string(),
  format: z.enum(['spec-kit', 'kiro', 'openspec', 'plain', 'forge']),
  /** The feature or change read (spec-kit, Kiro, OpenSpec), else null. */
  feature: z.string().nullable(),
  /** Every feature or change the folder holds (the one read included). */
  features: z.array(z.string()),
  /** Why this format was chosen, one sentence. */
  why: z.string().nullable(),
  documents: z.array(z.object({ id: z.string(), kind: z.string(), title: z.string(), tokens: z.number().int() })),
  totalTokens: z.number().int(),
  phases: z.array(z.object({ id: z.string(), name: z.string(), tasks: z.number().int(), source: z.string() })),
  /** Lines of the plan before its first phase, carried with every phase window. */
  preambleLines: z.number().int(),
  notUnderstood: z.array(z.string()),
  /** The same, as `forge build --dry-run` prints it. */
  text: z.string(),
});
export type SpecInspection = z.infer<typeof specInspection>;

export const buildProcedures = {
  /** Format detection before a build starts: reads the folder's specs as they are, changes nothing. */
  'builds/inspect': {
    input: z.object({ dir: z.string().trim().min(1).max(1000), feature: specFeatureName.optional() }).strict(),
    output: specInspection,
  },
  'builds/start': { input: buildStartInput, output: z.object({ build: buildSummary }) },
  'builds/list': { input: z.object({}).strict(), output: z.object({ builds: z.array(buildSummary) }) },
  'builds/get': { input: buildRef, output: buildDetail },
  'builds/pause': { input: buildRef, output: z.object({ build: buildSummary }) },
  'builds/resume': { input: buildRef, output: z.object({ build: buildSummary }) },
  'builds/stop': { input: buildRef, output: z.object({ build: buildSummary }) },
  /** The user's answer to a STOP code; the build resumes with it. */
  'builds/answer': { input: buildRef.extend({ answer: z.string().trim().min(1).max(8000) }).strict(), output: z.object({ build: buildSummary }) },
  /** The PM's Allow or Deny for a command waiting to run unconfined; Allow covers its class for the rest of the build. */
  'builds/decide-command': {
    input: buildRef.extend({ requestId: z.string().min(1).max(100), allow: z.boolean() }).strict(),
    output: z.object({ build: buildSummary }),
  },
  /** "Allow network for this build": the sandbox keeps the network for this build's commands from the next one on. */
  'builds/set-network': { input: buildRef.extend({ allow: z.boolean() }).strict(), output: z.object({ build: buildSummary }) },
} as const;

export const buildEvents = {
  /** Status, phase or token figures changed. */
  'builds/changed': buildSummary,
  /** A new line in a build's live log. */
  'builds/log': z.object({ buildId: z.string(), entry: buildLogEntry }),
  /** A command waits for the PM's Allow or Deny (commands are not confined on this machine). */
  'builds/command-consent': z.object({ buildId: z.string(), request: commandConsentRequest }),
} as const;
