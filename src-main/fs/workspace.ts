import { join } from 'node:path';
import { mkdirSync } from 'node:fs';
import { Store, type MemoryIndexer } from '../store';
import { ForgeFS } from './forge-fs';
import { findBundledDir, seedWorkspace } from './seed';
import { syncBundledSkills } from './skills-backend';

export const DATABASE_FILE = 'forge.db';

export interface WorkspaceOptions {
  dataDir: string;
  nativeBinding?: string;
  /** Opens the workspace's store elsewhere (a desk's PostgreSQL); default: `<dataDir>/forge.db`. */
  openStore?: () => Store;
  /** A search index kept in step with memory; a factory receives the open store (same connection). */
  indexer?: MemoryIndexer | ((store: Store) => MemoryIndexer);
  /** Defaults to the app's bundled `skills/` folder; null to skip. */
  bundledSkillsDir?: string | null;
  /** Defaults to the app's bundled `resources/seed`; null for an empty workspace. */
  seedDir?: string | null;
}

export interface Workspace {
  store: Store;
  fs: ForgeFS;
  /** Settles when first-start seeding is done (it runs in the background after open). */
  ready: Promise<void>;
  close(): void;
}

/**
 * Opens `<dataDir>/forge.db` (migrating it), copies bundled skills in, and starts seeding a new
 * workspace; memory readers await `ready` before their first read.
 */
export function openWorkspace(options: WorkspaceOptions): Workspace {
  mkdirSync(options.dataDir, { recursive: true });
  const store = options.openStore ? options.openStore() : Store.open(join(options.dataDir, DATABASE_FILE), { nativeBinding: options.nativeBinding });
  try {
    const skillsDir = join(options.dataDir, 'skills');
    const bundled = options.bundledSkillsDir === undefined ? findBundledDir('skills') : options.bundledSkillsDir;
    if (bundled) syncBundledSkills(bundled, skillsDir);
    const indexer = typeof options.indexer === 'function' ? options.indexer(store) : options.indexer;
    const fs = new ForgeFS({ store, skillsDir, indexer });
    const seedDir = options.seedDir === undefined ? findBundledDir(join('resources', 'seed')) : options.seedDir;
    const ready = seedDir ? seedWorkspace(fs, seedDir).then(() => undefined) : Promise.resolve();
    // Callers observe failures through `ready`; this only keeps an unobserved rejection from crashing Node.
    ready.catch(() => undefined);
    return { store, fs, ready, close: () => store.close() };
  } catch (e) {
    store.close();
    throw e;
  }
}
