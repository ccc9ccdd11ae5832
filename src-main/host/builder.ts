import { BuildManager, BuildStore, DEFAULT_BUILDER_SETTINGS, type BuilderSettings } from '../builder';
import { routerFor } from '../config/models';
import { AnthropicModel, missingApiKeyError, type Model } from '../llm';
import type { CoreContext } from './context';
import { mcpStateFor } from './handlers/mcp';

/**
 * Wires the builder: its store on the workspace database, Claude through the `builder` role (a
 * build may name another model), the side jobs on their own roles (compaction on `compact`, the
 * auditor on `review`, the recovery planner on `planner`), the MCP service's projects and
 * artifacts (so pinned snapshots answer forge_get_build_contracts), and events for the screen.
 */
export function buildBuilder(
  ctx: CoreContext,
  options: { model?: () => Model; helperModel?: (role: 'compact' | 'review' | 'planner') => Model | undefined } = {},
): BuildManager {
  const router = routerFor(() => ctx.settings.get().models);
  const anthropic = new AnthropicModel({
    apiKey: () => ctx.secrets.get('anthropicApiKey'),
    env: {},
    baseURL: () => ctx.settings.get().anthropicBaseUrl || undefined,
    router,
  });
  const model =
    options.model ??
    (() => {
      if (!ctx.secrets.get('anthropicApiKey')) throw missingApiKeyError();
      return anthropic;
    });
  const mcp = mcpStateFor(ctx).service;
  return new BuildManager({
    store: new BuildStore(ctx.memory.store.db),
    projects: () => mcp.projectStore(),
    artifacts: mcp.artifacts,
    model,
    helperModel: options.helperModel ?? (() => (ctx.secrets.get('anthropicApiKey') ? anthropic : undefined)),
    defaultModelId: () => router('builder'),
    settings: () => builderSettings(ctx),
    onChanged: (summary) => ctx.events.emit('builds/changed', summary),
    onLog: (buildId, entry) => ctx.events.emit('builds/log', { buildId, entry }),
  });
}

export function builderSettings(ctx: CoreContext): BuilderSettings {
  const s = ctx.settings.get().builder ?? {};
  return {
    useMcpContracts: s.useMcpContracts ?? DEFAULT_BUILDER_SETTINGS.useMcpContracts,
    allowedCommands: s.allowedCommands ?? DEFAULT_BUILDER_SETTINGS.allowedCommands,
    contextLimitTokens: s.contextLimitTokens ?? DEFAULT_BUILDER_SETTINGS.contextLimitTokens,
    compactAtShare: s.compactAtShare ?? DEFAULT_BUILDER_SETTINGS.compactAtShare,
  };
}
