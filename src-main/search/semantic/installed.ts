import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import type { LocalModelRef } from '../embedders';
import { MINILM_MANIFEST, type ModelManifest } from './manifest';
import { isDownloaded, modelFolderIn, validateModelFolder } from './model-folder';

export interface InstalledModel extends LocalModelRef {
  source: 'download' | 'folder';
}

/**
 * The local model this workspace can use, or null: a folder the PM pointed at (when it still holds
 * a model), else a finished, checked download in `<dataDir>/models/`. Nothing here loads the model.
 */
export function findInstalledModel(dataDir: string, folderSetting: string | undefined, manifest: ModelManifest = MINILM_MANIFEST): InstalledModel | null {
  if (folderSetting) {
    try {
      return modelInFolder(folderSetting, manifest.dims);
    } catch {
      // A folder that went away (unplugged drive) falls through to the download or the fallback.
    }
  }
  const folder = modelFolderIn(dataDir, manifest);
  if (isDownloaded(folder, manifest)) {
    const { folder: _, ...how } = validateModelFolder(folder);
    return { folder, ...how, dims: manifest.dims, id: manifest.embedderId, source: 'download' };
  }
  return null;
}

/**
 * The model a folder holds, read as its files describe it (size, pooling, prompts). Throws
 * ModelFolderError naming what is missing or what Forge cannot run.
 */
export function modelInFolder(path: string, defaultDims: number = MINILM_MANIFEST.dims): InstalledModel {
  const { folder, ...how } = validateModelFolder(path);
  const dims = hiddenSize(folder) ?? defaultDims;
  // A pointed-at folder may hold another model: its id names the folder and size, so vectors from two models never mix.
  const slug =
    basename(folder)
      .toLowerCase()
      .replace(/[^a-z0-9.]+/g, '-')
      .replace(/^-|-$/g, '') || 'model';
  // Pooling and prompts change the vectors as much as the weights do: a folder whose settings
  // change (a 1_Pooling copied in) gets another id, so the index is rebuilt rather than mixed.
  const pooled = how.pooling === 'mean' ? '' : `-${how.pooling === 'cls' ? 'cls' : 'last'}`;
  const prompted =
    how.prompts.query || how.prompts.document
      ? `-p${createHash('sha256').update(`${how.prompts.query}\u0000${how.prompts.document}`).digest('hex').slice(0, 8)}`
      : '';
  return { folder, ...how, dims, id: `local-${slug}-${dims}${pooled}${prompted}`, source: 'folder' };
}

function hiddenSize(folder: string): number | null {
  try {
    const config = JSON.parse(readFileSync(join(folder, 'config.json'), 'utf8')) as { hidden_size?: unknown };
    return typeof config.hidden_size === 'number' && Number.isInteger(config.hidden_size) && config.hidden_size > 0 ? config.hidden_size : null;
  } catch {
    return null;
  }
}
