import type { Settings } from '../../api/procedures';
import { ConflictError } from '../../common/errors';
import type { SecretStore } from '../../config/secrets';
import {
  chooseEmbedder,
  downloadModel,
  type Embedder,
  findInstalledModel,
  isPinned,
  MINILM_MANIFEST,
  modelFolderIn,
  type SearchIndex,
  validateModelFolder,
} from '../../search';
import type { CoreContext } from '../context';
import type { PartialHandlerMap } from './types';

/**
 * How long the local model may go without answering before it is stopped and restarted
 * (default 60 s; FORGE_EMBED_TIMEOUT_MS for a very slow machine or a very large model).
 */
function localModelTimeoutMs(): number | undefined {
  const ms = Number(process.env.FORGE_EMBED_TIMEOUT_MS);
  return Number.isFinite(ms) && ms >= 1000 ? ms : undefined;
}

/** The embedder the settings, the keys and the installed model call for (see `chooseEmbedder`). */
export function embedderFor(dataDir: string, settings: Settings, secrets: SecretStore): Embedder {
  return chooseEmbedder({
    localTimeoutMs: localModelTimeoutMs(),
    voyageApiKey: secrets.get('voyageApiKey') || undefined,
    openaiApiKey: secrets.get('openaiApiKey') || undefined,
    choice: settings.searchEmbedder ?? 'auto',
    localModel: findInstalledModel(dataDir, settings.semanticModelPath),
  });
}

/**
 * Search handlers over the workspace's SearchIndex. The embedder follows the settings, the keys and
 * the installed local model (checked on each call, so a new key, a finished download or a new
 * choice takes effect without a restart; the index then reports itself stale until a reindex).
 * Notes queued while an embedder was failing are retried in the background whenever search is used.
 */
/**
 * `modelBaseUrl`: where the semantic model is downloaded from instead of the manifest's Hugging Face
 * address — a desk's internal mirror, or a local server in tests. The pinned checksums apply either way.
 */
export function searchHandlers(getIndex: () => SearchIndex, options: { modelBaseUrl?: string } = {}): PartialHandlerMap {
  let draining: Promise<unknown> | null = null;
  let reindexing: Promise<{ done: number; total: number; embedder: string }> | null = null;
  let reindexStop: AbortController | null = null;
  let download: AbortController | null = null;

  function drain(index: SearchIndex): void {
    if (!draining && !reindexing && index.queuedCount() > 0) {
      draining = index
        .drainQueue()
        .catch(() => undefined)
        .finally(() => (draining = null));
    }
  }

  function sync(ctx: CoreContext): SearchIndex {
    const index = getIndex();
    const wanted = embedderFor(ctx.dataDir, ctx.settings.get(), ctx.secrets);
    if (wanted.id !== index.embedder.id) {
      const previous = index.embedder as Embedder & { close?: () => Promise<void> };
      index.useEmbedder(wanted);
      // A local model being replaced stops its worker thread.
      void previous.close?.().catch(() => undefined);
    }
    drain(index);
    return index;
  }

  function modelStatus(ctx: CoreContext) {
    const settings = ctx.settings.get();
    const installed = findInstalledModel(ctx.dataDir, settings.semanticModelPath);
    let folderProblem: string | null = null;
    if (settings.semanticModelPath && installed?.source !== 'folder') {
      try {
        validateModelFolder(settings.semanticModelPath);
      } catch (e) {
        folderProblem = (e as Error).message;
      }
    }
    return {
      model: MINILM_MANIFEST.name,
      licence: MINILM_MANIFEST.licence,
      dims: installed?.dims ?? MINILM_MANIFEST.dims,
      installed: installed !== null,
      source: installed?.source ?? null,
      folder: installed?.folder ?? null,
      folderSetting: settings.semanticModelPath || null,
      folderProblem,
      downloadable: isPinned(MINILM_MANIFEST),
      downloading: download !== null,
      choice: settings.searchEmbedder ?? 'auto',
      active: sync(ctx).embedder.id,
    };
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
      if (!reindexing) {
        const stop = new AbortController();
        reindexStop = stop;
        reindexing = index
          .reindex((p) => ctx.events.emit('search/reindex-progress', p), stop.signal)
          .finally(() => {
            reindexing = null;
            if (reindexStop === stop) reindexStop = null;
          });
      }
      return reindexing;
    },
    'search/reindex-cancel': async () => {
      if (!reindexStop) return { cancelled: false };
      reindexStop.abort();
      return { cancelled: true };
    },
    'search/retry-parked': async (_input, ctx) => {
      await ctx.memory.ready;
      const index = sync(ctx);
      const retried = index.retryParked();
      drain(index);
      return { retried };
    },
    'search/model-status': async (_input, ctx) => {
      await ctx.memory.ready;
      return modelStatus(ctx);
    },
    'search/model-download': async (_input, ctx) => {
      await ctx.memory.ready;
      if (download) throw new ConflictError('The model is already downloading.');
      const controller = new AbortController();
      download = controller;
      let last = 0;
      try {
        await downloadModel({
          manifest: MINILM_MANIFEST,
          folder: modelFolderIn(ctx.dataDir, MINILM_MANIFEST),
          baseUrl: options.modelBaseUrl,
          signal: controller.signal,
          onProgress: (p) => {
            // A few events a second are enough for a progress bar.
            const now = Date.now();
            if (now - last < 100 && p.done < p.total) return;
            last = now;
            ctx.events.emit('search/model-progress', p);
          },
        });
      } finally {
        download = null;
      }
      return modelStatus(ctx);
    },
    'search/model-cancel': async () => {
      const running = download;
      running?.abort();
      return { cancelled: running !== null };
    },
    'search/model-folder': async (input, ctx) => {
      await ctx.memory.ready;
      const path = input.path.trim();
      // Refused before it is saved: a folder without a model would silently leave search on the fallback.
      if (path) validateModelFolder(path);
      ctx.settings.update({ semanticModelPath: path || undefined });
      return modelStatus(ctx);
    },
    'search/embedder': async (input, ctx) => {
      await ctx.memory.ready;
      ctx.settings.update({ searchEmbedder: input.embedder });
      return modelStatus(ctx);
    },
  };
}
