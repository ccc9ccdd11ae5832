import { existsSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { AppError } from '../common/errors';
import { prepareDataDir } from './paths';

let dirs: string[] = [];
afterEach(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
  dirs = [];
});

describe('preparing the data folder', () => {
  it('creates a new data folder, parents included, owner-only', () => {
    const root = mkdtempSync(join(tmpdir(), 'forge-paths-'));
    dirs.push(root);
    const dir = join(root, 'desk', 'forge');
    expect(prepareDataDir(dir)).toBe(dir);
    expect(existsSync(dir)).toBe(true);
    // On a shared Mac or Linux box another account could otherwise read the PM's book, memory and keys.
    if (process.platform !== 'win32') expect(statSync(dir).mode & 0o777).toBe(0o700);
  });

  // Runs as root too: a file in the way is refused whatever the account (the read-only disk case is in resource-faults.test.ts).
  it('a data folder whose name is taken by a file gives a typed sentence naming the folder and what to do, not a raw ENOTDIR', () => {
    const root = mkdtempSync(join(tmpdir(), 'forge-paths-'));
    dirs.push(root);
    writeFileSync(join(root, 'forge'), 'not a folder');
    for (const dir of [join(root, 'forge'), join(root, 'forge', 'inside')]) {
      let thrown: unknown;
      try {
        prepareDataDir(dir);
      } catch (e) {
        thrown = e;
      }
      expect(thrown).toBeInstanceOf(AppError);
      const err = thrown as AppError;
      expect(err.code).toBe('unavailable');
      expect(err.message).toContain(`Forge cannot use ${dir} as its data folder: ${join(root, 'forge')} is a file, not a folder`);
      expect(err.message).toMatch(/Choose a folder you can write to \(--data, or FORGE_HOME\)/);
      expect(err.message).not.toMatch(/ENOTDIR|EEXIST|\n\s+at /);
    }
  });
});
