import { z } from 'zod';

/**
 * MCP procedures: the MCP screen (status, calls, token rotation, IDE configuration) and the reads
 * a `forge mcp` process in remote mode proxies to the running app. Pure zod, no node imports;
 * the contract names repeat the MCP registry's (a test keeps the two lists equal).
 */

const empty = z.object({}).strict();

export const mcpContractName = z.enum([
  'boundaries',
  'physics',
  'blueprint',
  'builder_contract',
  'builder_directive',
  'manifesto',
  'phases',
  'schema',
  'stack',
  'system_prompt',
  'ui',
  'auditor_prompt',
  'recovery_planner_prompt',
  'remediation',
  'desktop_distribution_plan',
]);

const projectId = z.string().min(1).max(64);
const annotations = z.object({ readOnlyHint: z.boolean(), destructiveHint: z.boolean(), idempotentHint: z.boolean(), openWorldHint: z.boolean() });

export const mcpToolInfo = z.object({
  name: z.string(),
  description: z.string(),
  annotations,
  calls: z.number().int(),
  errors: z.number().int(),
  avgMs: z.number(),
});

export const mcpClientProject = z.object({
  id: z.string(),
  name: z.string(),
  /** Absolute path of the folder; null for a project kept in Forge's database. */
  folder: z.string().nullable(),
  via: z.enum(['roots', 'path', 'forge']),
  /** spec-kit, kiro, openspec, plain or forge; null until the folder has been read. */
  format: z.string().nullable(),
});

export const mcpStatus = z.object({
  mode: z.enum(['local', 'remote']),
  /** The contracts folder (local) or the app's URL (remote). */
  source: z.string(),
  transports: z.object({
    stdio: z.object({ command: z.string() }),
    http: z.object({ running: z.boolean(), url: z.string().nullable(), port: z.number().int().nullable(), sessions: z.number().int() }),
  }),
  clients: z.array(
    z.object({
      transport: z.string(),
      client: z.string().nullable(),
      since: z.string(),
      /** The project the client is on: its IDE's open folder (MCP roots), a folder named by path, or a Forge project. */
      project: mcpClientProject.nullable().optional(),
      /** Why the client's declared roots could not be used (a root that does not exist here, not file://), else null. */
      rootsError: z.string().nullable().optional(),
    }),
  ),
  tools: z.array(mcpToolInfo),
  cache: z.object({ size: z.number().int(), hits: z.number().int(), misses: z.number().int(), evictions: z.number().int() }),
  exposeAnalystTools: z.boolean(),
  /** Why the analyst's tools cannot be exposed here (a desk, until MCP tokens are per person); absent where they can. */
  analystToolsRefused: z.string().optional(),
});

export const mcpCall = z.object({
  /** The project the call was about (named in it, the session's, or the client's root folder); null when none. */
  project: z.string().nullable().optional(),
  at: z.string(),
  tool: z.string(),
  transport: z.string(),
  durationMs: z.number(),
  ok: z.boolean(),
  error: z.string().nullable(),
});

export const mcpSnippet = z.object({
  client: z.enum(['claude_desktop', 'cursor', 'vscode', 'claude_code']),
  label: z.string(),
  transport: z.enum(['stdio', 'http']),
  where: z.string(),
  text: z.string(),
});

const loose = z.record(z.string(), z.unknown());

export const mcpProcedures = {
  'mcp/status': { input: empty, output: mcpStatus },
  'mcp/calls': { input: z.object({ limit: z.number().int().min(1).max(200).optional() }).strict(), output: z.object({ calls: z.array(mcpCall) }) },
  'mcp/rotate-token': { input: empty, output: z.object({ rotatedAt: z.string(), tokenPreview: z.string() }) },
  'mcp/config-snippets': {
    input: z.object({ revealToken: z.boolean().optional() }).strict(),
    output: z.object({ snippets: z.array(mcpSnippet) }),
  },
  'mcp/set-options': {
    input: z.object({ exposeAnalystTools: z.boolean() }).strict(),
    output: z.object({ exposeAnalystTools: z.boolean() }),
  },
  'mcp/clear-cache': { input: empty, output: z.object({ cleared: z.number().int() }) },
  // Reads proxied by `forge mcp` in remote mode.
  'mcp/summary': { input: empty, output: loose },
  'mcp/contracts': { input: empty, output: z.array(loose) },
  'mcp/contract': { input: z.object({ name: mcpContractName }).strict(), output: loose },
  'mcp/invariants': { input: empty, output: loose },
  'mcp/governance': { input: empty, output: loose },
  // The plan's own id: a string ("3.1", "3.10") or a number read in its shortest decimal form (3.1 → "3.1").
  'mcp/phase-window': {
    // A plan's own id as written ("1", "3.1"): digits and dots only, so a typo is refused here, not deep in a lookup.
    input: z
      .object({
        phase_number: z.union([
          z
            .string()
            .trim()
            .regex(/^\d{1,4}(?:\.\d{1,4}){0,3}$/, 'a phase id such as 1 or 3.1'),
          z.number().finite().min(0).max(9999),
        ]),
      })
      .strict(),
    output: loose,
  },
  'mcp/project-context': { input: z.object({ project_id: projectId }).strict(), output: loose },
  'mcp/project-contract': { input: z.object({ project_id: projectId, contract_type: mcpContractName }).strict(), output: loose },
  'mcp/build-contracts': { input: z.object({ build_id: z.string().min(1).max(100) }).strict(), output: loose },
  'mcp/run-planner': {
    input: z
      .object({ project_request: z.string().min(10).max(20_000), project_id: projectId.optional(), project_name: z.string().min(1).max(120).optional() })
      .strict(),
    output: loose,
  },
  // forge_fetch of a `forge mcp` in remote mode: the app's registry, behind the per-source share switch.
  'mcp/fetch': {
    input: z
      .object({
        source: z.string().min(1).max(32).optional(),
        params: z.record(z.string(), z.unknown()).optional(),
        as_of: z
          .string()
          .regex(/^\d{4}-\d{2}-\d{2}$/, 'a date YYYY-MM-DD')
          .optional(),
      })
      .strict(),
    output: z.object({ text: z.string(), isError: z.boolean() }),
  },
} as const;

export type McpStatus = z.infer<typeof mcpStatus>;
