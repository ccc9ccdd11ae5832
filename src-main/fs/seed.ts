import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { packageRoot } from '../common/package-root';
import { categoryInfo } from './categories';
import type { ForgeFS } from './forge-fs';
import { seedWriter } from './write-authority';

export const SEEDED_MARKER = 'seeded_at';

/** Finds a folder shipped with the app (`resources/seed`, `skills`) by walking up from this file. */
export function findBundledDir(relative: string): string | null {
  try {
    const candidate = join(packageRoot(), relative);
    return existsSync(candidate) ? candidate : null;
  } catch {
    return null;
  }
}

/** Every seed file as a ForgeFS path and its content: memory/<category>/*.md and portfolio/*.md. */
export function readSeedFiles(seedDir: string): { path: string; content: string }[] {
  const files: { path: string; content: string }[] = [];
  const memoryDir = join(seedDir, 'memory');
  if (existsSync(memoryDir)) {
    for (const category of readdirSync(memoryDir).sort()) {
      if (!categoryInfo(category)) continue;
      for (const f of readdirSync(join(memoryDir, category)).sort()) {
        if (f.endsWith('.md')) files.push({ path: `/memory/${category}/${f}`, content: readFileSync(join(memoryDir, category, f), 'utf8') });
      }
    }
  }
  const portfolioDir = join(seedDir, 'portfolio');
  if (existsSync(portfolioDir)) {
    for (const f of readdirSync(portfolioDir).sort()) {
      if (f.endsWith('.md')) files.push({ path: `/portfolio/${f}`, content: readFileSync(join(portfolioDir, f), 'utf8') });
    }
  }
  return files;
}

/**
 * Loads the demo workspace into a new data folder, once: all files and the marker commit in one
 * transaction, and a workspace that was ever seeded (or already holds records) is never reseeded,
 * so the PM's own work is never overwritten. Its calibration files came with the app, so the seed
 * may write what otherwise only the tracker writes.
 */
export async function seedWorkspace(fs: ForgeFS, seedDir: string): Promise<{ seeded: boolean; files: number }> {
  const store = fs.store;
  if (store.getMeta(SEEDED_MARKER) || store.records.categoryCounts().length > 0) return { seeded: false, files: 0 };
  const files = readSeedFiles(seedDir);
  return fs.transaction(
    (tx) => {
      // Re-check under the write lock: a second process may have seeded meanwhile.
      if (store.getMeta(SEEDED_MARKER)) return { seeded: false, files: 0 };
      for (const f of files) tx.writeFile(f.path, f.content, seedWriter());
      store.setMeta(SEEDED_MARKER, new Date().toISOString());
      store.setMeta('seed_source', 'demo workspace (resources/seed)');
      return { seeded: true, files: files.length };
    },
    { prepare: files },
  );
}
