import { secretName } from '../../api/procedures';
import { DEFAULT_BUILDER_SETTINGS } from '../../builder';
import type { CoreContext } from '../context';
import type { PartialHandlerMap } from './types';

/** What settings/get answers and settings/changed carries (also sent when a skill's script permission changes). */
export function settingsViewOf(ctx: CoreContext) {
  const secrets = Object.fromEntries(secretName.options.map((n) => [n, Boolean(ctx.secrets.get(n))])) as Record<(typeof secretName.options)[number], boolean>;
  const d = DEFAULT_BUILDER_SETTINGS;
  return {
    settings: ctx.settings.get(),
    secrets,
    secretStorage: ctx.secrets.description,
    builderDefaults: {
      useMcpContracts: d.useMcpContracts,
      allowedCommands: [...d.allowedCommands],
      contextLimitTokens: d.contextLimitTokens,
      compactAtShare: d.compactAtShare,
    },
  };
}

export const settingsHandlers: PartialHandlerMap = {
  'settings/get': (_input, ctx) => settingsViewOf(ctx),
  'settings/set': (input, ctx) => {
    if (input.settings) ctx.settings.update(input.settings);
    for (const [name, value] of Object.entries(input.secrets ?? {})) {
      ctx.secrets.set(name as (typeof secretName.options)[number], value || undefined);
    }
    const next = settingsViewOf(ctx);
    ctx.events.emit('settings/changed', next);
    return next;
  },
};
