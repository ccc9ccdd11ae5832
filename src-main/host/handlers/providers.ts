import { secretName } from '../../api/procedures';
import type { ErrorCode } from '../../api/envelope';
import { AppError, NotFoundError } from '../../common/errors';
import { ProviderError, type ProviderInfo, type ProviderRegistry } from '../../providers';
import type { CoreContext } from '../context';
import { settingsViewOf } from './settings';
import type { PartialHandlerMap } from './types';

/** A provider failure as an API error: its kind decides the code, its message is the provider's. */
const CODES: Record<ProviderError['kind'], ErrorCode> = {
  bad_params: 'invalid_input',
  as_of: 'invalid_input',
  not_found: 'not_found',
  // Not 'unauthorized': that code means the caller's own token was refused (the page would ask to reopen the link).
  not_configured: 'unavailable',
  rate_limited: 'unavailable',
  unavailable: 'unavailable',
  bad_response: 'unavailable',
};

function viewOf(info: ProviderInfo, ctx: CoreContext) {
  const secret = secretName.safeParse(info.secret);
  const own = ctx.settings.get().providers?.[info.name];
  return {
    name: info.name,
    description: info.description,
    enabled: info.enabled,
    health: info.health,
    params: info.params,
    secret: secret.success ? secret.data : null,
    secretSet: secret.success ? Boolean(ctx.secrets.get(secret.data)) : false,
    settings: { ...own, enabled: info.enabled },
  };
}

/** Settings → Data: list the providers, test one, switch one on or off or point it elsewhere. */
export function providersHandlers(registry: ProviderRegistry): PartialHandlerMap {
  const find = (name: string, ctx: CoreContext) => {
    const info = registry.list().find((p) => p.name === name);
    if (!info)
      throw new NotFoundError(
        `There is no data provider named "${name}". Available: ${
          registry
            .list()
            .map((p) => p.name)
            .join(', ') || 'none'
        }.`,
      );
    return viewOf(info, ctx);
  };
  return {
    'providers/list': (_input, ctx) => ({ providers: registry.list().map((p) => viewOf(p, ctx)) }),
    'providers/test-fetch': async (input) => {
      try {
        const r = await registry.fetch(input.name, input.params, { asOf: input.asOf });
        return { label: r.label, asOf: r.asOf, source: r.source, summary: r.formatSummary(), full: r.formatFull() };
      } catch (e) {
        if (e instanceof ProviderError) throw new AppError(CODES[e.kind], `[${e.kind}] ${e.message}`);
        throw e;
      }
    },
    'providers/configure': (input, ctx) => {
      find(input.name, ctx);
      const all = ctx.settings.get().providers ?? {};
      const merged = { ...all[input.name], ...input.settings, enabled: input.settings.enabled ?? all[input.name]?.enabled ?? true };
      ctx.settings.update({ providers: { ...all, [input.name]: merged } });
      ctx.events.emit('settings/changed', settingsViewOf(ctx));
      return find(input.name, ctx);
    },
  };
}
