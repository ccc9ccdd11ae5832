import { z } from 'zod';
import { READ } from './define';
import { artifactType, empty, key, projectId, projectOf, type Tool, ToolError, tool } from './tool-kit';

/**
 * The tools that keep state for one connection or one project: artifacts (stored, read, listed,
 * cleared) and the session (which project and build later calls mean). Together because both are
 * the client's own working memory on the server, not documents of the project.
 */
export const SESSION_TOOLS: Tool[] = [
  tool({
    name: 'forge_store_artifact',
    description:
      'Store an artifact (plan, diff, test report, audit ...) for a project under a key, for a later step or another agent. Kept in memory for ttl_hours (default 24); persist=true also writes it to disk so it survives a restart.',
    input: z
      .object({
        project_id: projectId,
        artifact_type: artifactType,
        key,
        content: z.string().max(2_000_000),
        ttl_hours: z
          .number()
          .positive()
          .max(24 * 365)
          .optional(),
        persist: z.boolean().optional(),
      })
      .strict(),
    annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: false },
    run: (i, ctx) => ({ stored: true, project_id: i.project_id, ...ctx.artifacts.store(i) }),
  }),
  tool({
    name: 'forge_get_artifact',
    description: 'Read a stored artifact by project, type and key (from memory, or from disk when it was persisted).',
    input: z.object({ project_id: projectId, artifact_type: artifactType, key }).strict(),
    annotations: READ,
    run: (i, ctx) => ({ ...ctx.artifacts.get(i.project_id, i.artifact_type, i.key) }),
  }),
  tool({
    name: 'forge_list_artifacts',
    description: 'List the artifacts of a project (optionally one type): key, type, size, when stored, when it expires, whether persisted.',
    input: z.object({ project_id: projectId, artifact_type: artifactType.optional() }).strict(),
    annotations: READ,
    run: (i, ctx) => ({ project_id: i.project_id, artifacts: ctx.artifacts.list(i.project_id, i.artifact_type) }),
  }),
  tool({
    name: 'forge_clear_artifacts',
    description: 'Delete the artifacts of a project, all of them or one type, from memory and disk. This cannot be undone.',
    input: z.object({ project_id: projectId, artifact_type: artifactType.optional() }).strict(),
    annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: false },
    run: (i, ctx) => ({ project_id: i.project_id, artifact_type: i.artifact_type ?? 'all', ...ctx.artifacts.clear(i.project_id, i.artifact_type) }),
  }),
  tool({
    name: 'forge_set_session',
    description:
      'Remember the project (and build) you are working on for this connection, so project tools can be called without ids. project_dir (an absolute path) opens a project folder in any spec format (spec-kit, Kiro, OpenSpec, plain, Forge) when your client declares no roots; it is only read.',
    input: z
      .object({
        project_id: projectId.optional(),
        project_dir: z.string().min(1).max(1000).optional().describe('Absolute path of the project folder, e.g. "/home/me/photo-albums".'),
        feature: z.string().min(1).max(120).optional().describe('In a project folder: the spec-kit or Kiro feature or OpenSpec change to read.'),
        build_id: z.string().min(1).max(100).optional(),
        user_id: z.string().min(1).max(100).optional(),
      })
      .strict()
      .refine((i) => i.project_id !== undefined || i.project_dir !== undefined || i.feature !== undefined, {
        message: 'pass project_id (a Forge project), project_dir (a project folder) or feature',
        path: ['project_id'],
      }),
    annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: false },
    run: async (i, ctx) => {
      const { project_dir, feature, ...rest } = i;
      if (!project_dir && feature === undefined) return { session: ctx.session.set({ ...rest, project_id: projectOf(ctx, rest.project_id) }) };
      if (!ctx.folder) throw new ToolError('Project folders are not available on this connection; pass project_id.');
      const opened = await ctx.folder.choose({ dir: project_dir, feature, projectId: rest.project_id ?? ctx.session.get().project_id });
      const named = project_dir !== undefined || rest.project_id !== undefined;
      return { session: named ? ctx.session.set({ ...rest, project_id: opened.id }) : ctx.session.get(), project: opened.context };
    },
  }),
  tool({
    name: 'forge_clear_session',
    description: 'Forget the project and build set with forge_set_session.',
    input: empty,
    annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
    run: (_i, ctx) => ({ cleared: ctx.session.clear() }),
  }),
];
