import { routerFor } from '../config/models';
import { AnthropicModel, missingApiKeyError, type Model } from '../llm';
import type { CoreContext } from './context';

/**
 * Claude for the parts of the core that run outside the analyst (the builder, the MetaOptimizer):
 * one client that reads the key, base URL and role routing from Settings at each call, so a key
 * added in Settings works at once.
 */
export interface Claude {
  /** The client; throws a clear error when no API key is set. */
  require(): Model;
  /** The client, or undefined without a key (side jobs that can be skipped). */
  optional(): Model | undefined;
  /** The model id a role is routed to. */
  modelFor(role: string): string;
}

export function claudeFor(ctx: CoreContext): Claude {
  const router = routerFor(() => ctx.settings.get().models);
  const anthropic = new AnthropicModel({
    apiKey: () => ctx.secrets.get('anthropicApiKey'),
    env: {},
    baseURL: () => ctx.settings.get().anthropicBaseUrl || undefined,
    router,
  });
  const hasKey = () => !!ctx.secrets.get('anthropicApiKey');
  return {
    require() {
      if (!hasKey()) throw missingApiKeyError();
      return anthropic;
    },
    optional: () => (hasKey() ? anthropic : undefined),
    modelFor: (role) => router(role),
  };
}
