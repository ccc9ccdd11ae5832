import { chooseEmbedder, type SearchIndex } from '../../search';
import type { CoreContext } from '../context';
import type { PartialHandlerMap } from './types';

/**
 * Search handlers over the workspace's SearchIndex. The embedder follows the configured keys
 * (checked on each call, so adding a Voyage/OpenAI key takes effect without a restart; the index
 * then reports itself stale until a reindex). Notes queued while an embedder was failing are
 * retried in the background whenever search is used.
 */
export function searchHandlers(getIndex: () => SearchIndex): PartialHandlerMap {
  let draining: Promise<unknown> | null = null;
  let reindexing: Promise<{ done: number; total: number; embedder: string }> | null = null;

  function sync(ctx: CoreContext): SearchIndex {
    const index = getIndex();
    const wanted = chooseEmbedder({
      voyageApiKey: ctx.secrets.get('voyageApiKey') || undefined,
      openaiApiKey: ctx.secrets.get('openaiApiKey') || undefined,
    });
    if (wanted.id !== index.embedder.id) index.useEmbedder(wanted);
    if (!draining && !reindexing && index.queuedCount() > 0) {
      draining = index
        .drainQueue()
        .catch(() => undefined)
        .finally(() => (draining = null));
    }
    return index;
  }

  return {
    'memory/search': async (input, ctx) => {
      await ctx.memory.ready;
      const index = sync(ctx);
      return index.search({
        scope: input.scope,
        sessionId: input.session_id,
        query: input.query,
        filters: input.filters ?? null,
        maxResults: input.max_results ?? 5,
        weights: ctx.settings.get().searchWeights,
      });
    },
    'search/status': async (_input, ctx) => {
      await ctx.memory.ready;
      return sync(ctx).status();
    },
    'search/reindex': async (_input, ctx) => {
      await ctx.memory.ready;
      const index = sync(ctx);
      // One rebuild at a time; a second request joins the running one.
      reindexing ??= index.reindex((p) => ctx.events.emit('search/reindex-progress', p)).finally(() => (reindexing = null));
      return reindexing;
    },
  };
}
