import { accessSync, constants, mkdirSync, readdirSync, statSync } from 'node:fs';
import { homedir } from 'node:os';
import { isAbsolute, join, resolve } from 'node:path';
import type { DataFolderView } from '../../api/data-folder';
import { ForbiddenError, InvalidInputError } from '../../common/errors';
import { CsvProvider, dataFolderPath, type ProviderRegistry } from '../../providers';
import type { CoreContext } from '../context';
import { settingsViewOf } from './settings';
import type { PartialHandlerMap } from './types';

/** Settings → Data → "Your data folder": what is read from it, and choosing another one. */
export function dataFolderHandlers(registry: ProviderRegistry, options: { demo: boolean }): PartialHandlerMap {
  const provider = () => {
    const p = registry.get('datasets');
    return p instanceof CsvProvider ? p : null;
  };
  const view = async (ctx: CoreContext): Promise<DataFolderView> => {
    const p = provider();
    const report = p ? await p.folder.report() : { folder: null, exists: false, files: [] };
    const set = ctx.settings.get().providers?.datasets?.folder?.trim();
    return {
      folder: options.demo ? null : report.folder,
      defaultFolder: options.demo ? null : join(ctx.dataDir, 'datasets'),
      isDefault: !set,
      exists: report.exists,
      // The demo's files are all samples (it has no folder of the PM's).
      files: options.demo ? report.files.map((f) => ({ ...f, origin: 'sample' as const })) : report.files,
    };
  };
  return {
    'providers/data-folder': (_input, ctx) => view(ctx),
    'providers/set-data-folder': async (input, ctx) => {
      if (options.demo) throw new ForbiddenError('The demo workspace reads only its sample files; go back to your workspace to choose a data folder.');
      const folder = validFolder(input.folder);
      // Back to the default: make it again if the PM deleted it.
      if (!folder) mkdirSync(dataFolderPath(ctx.dataDir, undefined), { recursive: true, mode: 0o700 });
      const all = ctx.settings.get().providers ?? {};
      const merged = { ...all.datasets, folder, enabled: all.datasets?.enabled ?? true };
      ctx.settings.update({ providers: { ...all, datasets: merged } });
      ctx.events.emit('settings/changed', settingsViewOf(ctx));
      return view(ctx);
    },
  };
}

/** The folder as the PM typed it, checked: absolute (or `~/…`), there, a directory, readable. Empty: the default. */
function validFolder(raw: string): string {
  const typed = raw.trim();
  if (!typed) return '';
  const expanded = typed === '~' || typed.startsWith('~/') ? join(homedir(), typed.slice(1)) : typed;
  if (!isAbsolute(expanded)) throw new InvalidInputError(`"${typed}" is not a full path; give the whole path, e.g. /Users/you/Exports.`);
  const folder = resolve(expanded);
  let isDir: boolean;
  try {
    isDir = statSync(folder).isDirectory();
  } catch {
    throw new InvalidInputError(`There is no folder ${folder}.`);
  }
  if (!isDir) throw new InvalidInputError(`${folder} is a file, not a folder; choose the folder that holds your exports.`);
  try {
    accessSync(folder, constants.R_OK | constants.X_OK);
    readdirSync(folder);
  } catch {
    throw new InvalidInputError(`Forge may not read ${folder} (permissions); choose a folder your account can open.`);
  }
  return folder;
}
