import { z } from 'zod';
import { isAppError } from '../common/errors';
import { CONTRACT_NAMES } from './config';
import { READ } from './define';
import { resolvePhaseWindow } from './phases';
import { packageWindow, phaseIdText } from './spec-package';
import { contractName, folderOf, packageOf, phaseId, planPhase, projectId, projectOf, type Tool, ToolError, tool } from './tool-kit';

/**
 * The project tools: a project's context and contracts (a Forge project, or the folder the IDE has
 * open), the contracts pinned by a build, the planner that writes a project's plan, and the phase
 * window the builder reads at every phase start. Together because each resolves "which project"
 * the same way — named, the session's, or the IDE's root folder.
 */
export const PROJECT_TOOLS: Tool[] = [
  tool({
    name: 'forge_get_project_context',
    description:
      "A project's manifest: name, description, its contracts with their latest versions, and recent builds. Without an id: the folder your IDE has open (MCP roots), with its spec format, documents and phases.",
    input: z.object({ project_id: projectId.optional() }).strict(),
    annotations: READ,
    run: async (i, ctx) => {
      const folder = await folderOf(ctx, i.project_id);
      if (folder) return folder.folders.context(folder.h);
      return { ...(await ctx.projects.getProjectContext(projectOf(ctx, i.project_id))) };
    },
  }),
  tool({
    name: 'forge_list_project_contracts',
    description: "A project's contracts: type, latest version, when it was saved and its size; for a project folder, its documents with a brief and tokens.",
    input: z.object({ project_id: projectId.optional() }).strict(),
    annotations: READ,
    run: async (i, ctx) => {
      const folder = await folderOf(ctx, i.project_id);
      if (folder) return folder.folders.contracts(folder.h);
      const c = await ctx.projects.getProjectContext(projectOf(ctx, i.project_id));
      return { project_id: c.project_id, contracts: c.contracts };
    },
  }),
  tool({
    name: 'forge_get_project_contract',
    description:
      "The latest version of one of a project's contracts, in full: contract_type for a Forge project, document (an id from forge_list_project_contracts) for a project folder.",
    input: z.object({ project_id: projectId.optional(), contract_type: contractName.optional(), document: z.string().min(1).max(300).optional() }).strict(),
    annotations: READ,
    run: async (i, ctx) => {
      const folder = await folderOf(ctx, i.project_id);
      if (folder) return folder.folders.document(folder.h, i.document ?? i.contract_type);
      if (!i.contract_type) throw new ToolError(`Pass contract_type, one of: ${CONTRACT_NAMES.join(', ')}.`);
      return { ...(await ctx.projects.getProjectContract(projectOf(ctx, i.project_id), i.contract_type)) };
    },
  }),
  tool({
    name: 'forge_get_build_contracts',
    description: 'The contracts and spec documents pinned when a build started. They never change, even when the project is edited later.',
    input: z.object({ build_id: z.string().min(1).max(100).optional() }).strict(),
    annotations: READ,
    run: async (i, ctx) => {
      const id = i.build_id ?? ctx.session.get().build_id;
      if (!id) throw new ToolError('No build given: pass build_id, or set it with forge_set_session(project_id, build_id).');
      return { ...(await ctx.projects.getBuildContracts(id)) };
    },
  }),
  tool({
    name: 'forge_run_planner',
    description:
      "Turn a project request into a phased build plan (## Phase N — name sections) with the planner model, save it as the project's phases contract, and return the plan path, the phases, token usage and a turn trace. Calls an external model API and takes a while; progress is reported.",
    input: z
      .object({
        project_request: z.string().min(10, 'Describe the project in at least a sentence.').max(20_000),
        project_id: projectId.optional(),
        project_name: z.string().min(1).max(120).optional(),
      })
      .strict(),
    annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: true },
    run: async (i, ctx) => {
      if (!ctx.planner)
        throw new ToolError(
          'The planner is not available here: it needs a model. Set an Anthropic API key in Forge (Settings), or attach to the running Forge app.',
        );
      const result = await ctx.planner(i, (p) => ctx.progress?.(p), ctx.signal);
      return { ...result };
    },
  }),
  tool({
    name: 'forge_get_phase_window',
    description:
      "One build phase's deliverables (with the plan's preamble) and, for context, the next phase. Call it at the start of every phase with the phase's id as the plan writes it. With project_id it reads that project's plan from forge_run_planner.",
    input: z.object({ phase_number: phaseId, project_id: projectId.optional() }).strict(),
    annotations: READ,
    run: async (i, ctx) => {
      const id = phaseIdText(i.phase_number);
      const pkg = i.project_id ? undefined : await packageOf(ctx);
      if (pkg) return { ...packageWindow(pkg, id) };
      const folder = await folderOf(ctx, i.project_id);
      if (folder) return folder.folders.phaseWindow(folder.h, id);
      try {
        const w = await resolvePhaseWindow(ctx, planPhase(id), { given: i.project_id, session: ctx.session.get().project_id });
        return { ...w };
      } catch (e) {
        if (isAppError(e)) throw e;
        throw new ToolError((e as Error).message);
      }
    },
  }),
];
