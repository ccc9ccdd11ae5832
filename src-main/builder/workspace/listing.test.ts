import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { diffSummary, diffWorkspace, snapshotWorkspace, workspaceListing } from './listing';
import { tempProject, writeFiles } from './testing';

describe('workspaceListing', () => {
  it('shows the project compactly: node_modules and build output not expanded, Forge/ collapsed', async () => {
    const root = tempProject({
      'src/index.ts': '',
      'src/lib/util.ts': '',
      'package.json': '{}',
      'node_modules/react/index.js': '',
      'dist/bundle.js': '',
      'Forge/Contracts/blueprint.md': '',
      '.git/HEAD': '',
    });
    expect(await workspaceListing(root)).toBe(
      [
        '.git/ (not listed)',
        'Forge/ (governance, read-only)',
        'dist/ (not listed)',
        'node_modules/ (not listed)',
        'src/',
        '  lib/',
        '    util.ts',
        '  index.ts',
        'package.json',
      ].join('\n'),
    );
  });

  it('caps the entries for the first message', async () => {
    const root = tempProject(Object.fromEntries(Array.from({ length: 40 }, (_, i) => [`src/f${i}.ts`, ''])));
    const listing = await workspaceListing(root, { maxEntries: 5 });
    expect(listing.split('\n')).toHaveLength(6);
    expect(listing).toMatch(/… 36 more entries/);
  });

  it('says when the folder is empty', async () => {
    expect(await workspaceListing(tempProject())).toBe('(empty folder)');
  });
});

describe('snapshotWorkspace and diffSummary', () => {
  it('names added, modified and deleted files with line counts, ignoring Forge/ and dependencies', async () => {
    const root = tempProject({
      'README.md': '# Tiny\n\nA tiny project.\n',
      'src/old.ts': 'export const old = 1;\n',
      'src/keep.ts': 'export const keep = 1;\n',
      'Forge/.scratchpad.json': '{}',
    });
    const before = await snapshotWorkspace(root);
    writeFiles(root, {
      'README.md': '# Tiny\n\nA tiny project that adds numbers.\n\n## Run\nnpm test\n',
      'src/add.ts': 'export function add(a: number, b: number) {\n  return a + b;\n}\n',
      'Forge/.scratchpad.json': '{"phase": 1}',
      'node_modules/x/index.js': 'module.exports = 1;\n',
    });
    fs.rmSync(path.join(root, 'src/old.ts'));
    const after = await snapshotWorkspace(root);
    expect(diffSummary(before, after)).toBe('added: src/add.ts (+3 lines); modified: README.md (+4/-1 lines); deleted: src/old.ts');
    expect(diffWorkspace(before, after).modified).toEqual([{ path: 'README.md', added: 4, removed: 1 }]);
  });

  it('round-trips through JSON (the build stores it) and reports no changes for an untouched project', async () => {
    const root = tempProject({ 'a.ts': 'a\n', 'img.bin': '\u0000\u0001' });
    const before = JSON.parse(JSON.stringify(await snapshotWorkspace(root)));
    expect(before.files['a.ts']).toMatchObject({ lines: 1 });
    expect(diffSummary(before, await snapshotWorkspace(root))).toBe('no file changes');
    fs.writeFileSync(path.join(root, 'img.bin'), '\u0000\u0002');
    expect(diffSummary(before, await snapshotWorkspace(root))).toBe('modified: img.bin (changed)');
  });
});
