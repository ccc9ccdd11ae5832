import { BuildManager, type BuilderSettings, BuildStore, DEFAULT_BUILDER_SETTINGS } from '../builder';
import { missingApiKeyError, type Model } from '../llm';
import type { Claude } from './claude';
import type { CoreContext } from './context';
import { mcpStateFor } from './handlers/mcp';

/**
 * Wires the builder: its store on the workspace database, Claude through the `builder` role (a
 * build may name another model), the side jobs on their own roles (compaction on `compact`, the
 * auditor on `review`, the recovery planner on `planner`), the MCP service's projects and
 * artifacts (so pinned snapshots answer forge_get_build_contracts), and events for the screen.
 */
export function buildBuilder(ctx: CoreContext, claude: Claude, options: { model?: () => Model } = {}): BuildManager {
  const mcp = mcpStateFor(ctx).service;
  return new BuildManager({
    store: new BuildStore(ctx.memory.store.db),
    projects: () => mcp.projectStore(),
    artifacts: mcp.artifacts,
    model:
      options.model ??
      (() => {
        // Worded for the Builds screen: it is the builder, not the analyst, that cannot reach Claude.
        const model = claude.optional();
        if (!model) throw missingApiKeyError('the builder');
        return model;
      }),
    helperModel: () => claude.optional(),
    defaultModelId: () => claude.modelFor('builder'),
    settings: () => builderSettings(ctx),
    onChanged: (summary) => ctx.events.emit('builds/changed', summary),
    onLog: (buildId, entry) => ctx.events.emit('builds/log', { buildId, entry }),
    onCommandConsent: (buildId, request) => ctx.events.emit('builds/command-consent', { buildId, request }),
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
