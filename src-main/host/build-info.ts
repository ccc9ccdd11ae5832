import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { SETTINGS_FILE } from '../config';
import { checkBubblewrap } from '../sandbox';
import { findInstalledModel, isPinned, MINILM_MANIFEST } from '../search';
import type { Db } from '../store';
import { confinementCheck, rankingCheck } from './handlers/self-check';
import { appVersion } from './version';

/**
 * Baked in by electron-vite's `define` (electron.vite.config.ts) when the app is built; absent when
 * Forge runs from its TypeScript source (tsx, vitest), which then says "source checkout" rather
 * than inventing a commit.
 */
declare const __FORGE_BUILD__: { commit: string; builtAt: string } | undefined;

export const SOURCE_CHECKOUT = 'source checkout';

export interface BuildStamp {
  version: string;
  /** Short git commit the build was made from, or "source checkout" when not built. */
  commit: string;
  /** ISO time of the build, or "source checkout". */
  builtAt: string;
  platform: string;
  arch: string;
  nodeVersion: string;
  /** Null outside the desktop app (headless host, CLI). */
  electronVersion: string | null;
}

export interface OptionalPart {
  name: 'keyword ranking' | 'search model' | 'script confinement';
  active: boolean;
  detail: string;
}

export function buildStamp(baked: { commit: string; builtAt: string } | undefined = bakedStamp()): BuildStamp {
  return {
    version: appVersion(),
    commit: baked?.commit || SOURCE_CHECKOUT,
    builtAt: baked?.builtAt || SOURCE_CHECKOUT,
    platform: process.platform,
    arch: process.arch,
    nodeVersion: process.versions.node,
    electronVersion: process.versions.electron ?? null,
  };
}

function bakedStamp(): { commit: string; builtAt: string } | undefined {
  return typeof __FORGE_BUILD__ === 'undefined' ? undefined : __FORGE_BUILD__;
}

/** "~23 MB": what the PM downloads, summed from the pinned manifest, never hard-coded. */
export function modelDownloadSize(): { bytes: number; label: string } | null {
  if (!isPinned(MINILM_MANIFEST)) return null;
  const bytes = MINILM_MANIFEST.files.reduce((sum, f) => sum + (f.size ?? 0), 0);
  // Binary megabytes, as Windows Explorer shows the downloaded folder's size.
  return { bytes, label: `~${Math.round(bytes / 1_048_576)} MB` };
}

function searchModelPart(dataDir: string, folderSetting: string | undefined): OptionalPart {
  const installed = findInstalledModel(dataDir, folderSetting);
  if (installed) {
    const where = installed.source === 'folder' ? `from the folder ${installed.folder}` : 'downloaded';
    return { name: 'search model', active: true, detail: `${MINILM_MANIFEST.name} installed (${where}): search finds meaning, not only words` };
  }
  const size = modelDownloadSize();
  return {
    name: 'search model',
    active: false,
    detail: size
      ? `not installed: search matches words only; download it (${size.label}) in Settings → Search`
      : 'not installed: search matches words only; point Settings → Search at a model folder',
  };
}

/**
 * Which optional parts are active here, from the same checks `app/self-check` runs (ranking and
 * confinement) plus the local search model. Read-only: never creates the data folder. Keyword
 * ranking is always on (TypeScript, no native part); `db`, when the caller has the workspace open,
 * lets its detail say whether the index is built.
 */
export async function optionalParts(dataDir: string, folderSetting: string | undefined = readModelFolderSetting(dataDir), db?: Db): Promise<OptionalPart[]> {
  // The sentences come from the self-check; on/off from the same probes (checkBubblewrap caches its answer).
  const [confinement, bwrap] = await Promise.all([confinementCheck(), checkBubblewrap()]);
  return [
    { name: 'keyword ranking', active: true, detail: rankingCheck(db).detail },
    searchModelPart(dataDir, folderSetting),
    { name: 'script confinement', active: bwrap.ok, detail: confinement.detail },
  ];
}

/** The model folder the PM chose in Settings, read without opening (or creating) the workspace. */
function readModelFolderSetting(dataDir: string): string | undefined {
  try {
    const v = (JSON.parse(readFileSync(join(dataDir, SETTINGS_FILE), 'utf8')) as { semanticModelPath?: unknown }).semanticModelPath;
    return typeof v === 'string' && v ? v : undefined;
  } catch {
    return undefined;
  }
}

/** `forge version`: the exact build, where it runs, and which optional parts are on. */
export function formatVersionReport(stamp: BuildStamp, parts: OptionalPart[], dataDir: string): string {
  const built = stamp.commit === SOURCE_CHECKOUT ? 'source checkout (not built)' : `commit ${stamp.commit}, built ${stamp.builtAt}`;
  const runtime = `Node ${stamp.nodeVersion}${stamp.electronVersion ? `, Electron ${stamp.electronVersion}` : ''}`;
  const rows: [string, string][] = [
    ['build', built],
    ['platform', `${stamp.platform}-${stamp.arch}, ${runtime}`],
    ['workspace', dataDir],
    ...parts.map((p): [string, string] => [p.name, `${p.active ? 'on' : 'off'}: ${p.detail}`]),
  ];
  const width = Math.max(...rows.map(([k]) => k.length));
  return [`Forge ${stamp.version}`, ...rows.map(([k, v]) => `  ${k.padEnd(width)}  ${v}`)].join('\n');
}
