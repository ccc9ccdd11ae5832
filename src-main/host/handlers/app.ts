import { buildStamp, modelDownloadSize, optionalParts } from '../build-info';
import type { PartialHandlerMap } from './types';

export const appHandlers: PartialHandlerMap = {
  'app/info': async (_input, ctx) => {
    const stamp = buildStamp();
    return {
      name: 'Forge',
      version: ctx.version,
      mode: ctx.mode,
      dataDir: ctx.dataDir,
      platform: process.platform,
      nodeVersion: process.versions.node,
      startedAt: ctx.startedAt.toISOString(),
      build: {
        commit: stamp.commit,
        builtAt: stamp.builtAt,
        arch: stamp.arch,
        electronVersion: stamp.electronVersion,
        parts: await optionalParts(ctx.dataDir, ctx.settings.get().semanticModelPath, ctx.memory.store.db),
        modelDownload: modelDownloadSize(),
      },
    };
  },
  'app/health': (_input, ctx) => {
    const checks = [
      { name: 'settings', ok: ctx.settings.notices.length === 0, detail: ctx.settings.notices[0] ?? 'readable' },
      {
        name: 'model',
        ok: true,
        detail: ctx.secrets.get('anthropicApiKey') ? 'API key set' : 'no API key: the analyst runs only the offline demo',
      },
    ];
    return {
      status: checks.every((c) => c.ok) ? 'ok' : 'degraded',
      uptimeSeconds: Math.round((Date.now() - ctx.startedAt.getTime()) / 1000),
      checks,
    };
  },
};
