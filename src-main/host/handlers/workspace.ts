import { join } from 'node:path';
import { ConflictError, NotFoundError } from '../../common/errors';
import { clearSample, findBundledDir, type ForgeFS, sampleState } from '../../fs';
import { regenerateCalibrationFiles } from '../../tracking';
import type { PartialHandlerMap } from './types';

/**
 * Home's "This is a sample workspace — Keep it / Start empty". The seed folder is the one the app
 * ships (the same the workspace was seeded from); the demo workspace is a sample by design, so it
 * never offers clearing and refuses it.
 */
export function workspaceHandlers(deps: { fs: () => ForgeFS; demo: boolean; seedDir?: string | null }): PartialHandlerMap {
  const seedDir = () => (deps.seedDir === undefined ? findBundledDir(join('resources', 'seed')) : deps.seedDir);
  return {
    'workspace/sample': async (_input, ctx) => {
      await ctx.memory.ready;
      const dir = seedDir();
      if (deps.demo || !dir) return { state: 'none' as const, sampleRecords: 0 };
      return sampleState(deps.fs(), dir);
    },
    'workspace/clear-sample': async (_input, ctx) => {
      await ctx.memory.ready;
      if (deps.demo) throw new ConflictError('The demo workspace is a sample by design and is deleted when you leave the demo; there is nothing to clear.');
      const dir = seedDir();
      if (!dir) throw new NotFoundError('This build of Forge ships no sample workspace, so there is nothing to clear.');
      // The calibration files are the tracker's: recomputed from the emptied data, never deleted by hand.
      return clearSample(deps.fs(), dir, { regenerateCalibration: (fs) => regenerateCalibrationFiles(fs) });
    },
  };
}
