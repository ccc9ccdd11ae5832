import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { projectTextFiles } from './audit-files';
import { SKIPPED_DIRS } from './workspace/walk';

/**
 * The audit reads the project's own files through the same skip list, binary test and size cap as
 * the builder's project tools. If this fails, the audit would judge a dependency or a build output
 * as the builder's work (and block a sign-off on code nobody wrote), or read Forge's governance files.
 */
let dir: string | undefined;
afterEach(() => {
  if (dir) rmSync(dir, { recursive: true, force: true });
  dir = undefined;
});

const put = (root: string, rel: string, content: string | Buffer) => {
  mkdirSync(join(root, rel, '..'), { recursive: true });
  writeFileSync(join(root, rel), content);
};

describe('projectTextFiles', () => {
  it('skips every folder the project tools skip, plus Forge/ and more build output, binaries, lock files and files over 1 MiB', () => {
    dir = mkdtempSync(join(tmpdir(), 'forge-audit-files-'));
    for (const skipped of SKIPPED_DIRS) put(dir, `${skipped}/inside.ts`, 'export const x = 1;\n');
    for (const skipped of ['Forge', 'out', 'target', '.vscode']) put(dir, `${skipped}/inside.ts`, 'export const y = 2;\n');
    put(dir, 'src/app.ts', 'export const app = 1;\n');
    put(dir, 'src/nested/util.py', 'def f():\n    return 1\n');
    put(dir, 'logo.png', Buffer.from([0x89, 0x50, 0x4e, 0x47, 0, 0, 0, 0]));
    put(dir, 'package-lock.json', '{}');
    put(dir, 'big.txt', 'a'.repeat(1024 * 1024 + 1));
    expect(projectTextFiles(dir).map((f) => f.path)).toEqual(['src/app.ts', 'src/nested/util.py']);
  });
});
