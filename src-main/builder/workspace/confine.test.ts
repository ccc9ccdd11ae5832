import fs from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { resolveInside } from './confine';
import { readProjectFile, writeProjectFile } from './files';
import { caught, tempProject } from './testing';

let root: string;
let outside: string;

beforeAll(() => {
  outside = tempProject({ 'secret.txt': 'outside secret', 'dir/inner.txt': 'outside inner' });
  root = tempProject({ 'src/a.ts': 'export const a = 1;\n', 'Forge/Contracts/blueprint.md': '# Blueprint\n', '.git/HEAD': 'ref: refs/heads/main\n' });
  fs.symlinkSync(path.join(outside, 'secret.txt'), path.join(root, 'leak.txt'));
  fs.symlinkSync(path.join(outside, 'dir'), path.join(root, 'outdir'));
  fs.symlinkSync(path.join(root, 'src', 'a.ts'), path.join(root, 'alias.ts'));
  fs.symlinkSync(path.join(root, 'Forge'), path.join(root, 'docs'));
  fs.symlinkSync(path.join(outside, 'not-yet.txt'), path.join(root, 'dangling.txt'));
});

describe('resolveInside', () => {
  it('resolves ordinary paths, and .. that stays inside, to real paths under the root', () => {
    expect(resolveInside(root, 'src/a.ts', { write: false })).toBe(path.join(root, 'src', 'a.ts'));
    expect(resolveInside(root, './src/../src/a.ts', { write: false })).toBe(path.join(root, 'src', 'a.ts'));
    expect(resolveInside(root, 'new/deep/file.ts', { write: true })).toBe(path.join(root, 'new', 'deep', 'file.ts'));
    // A link that stays inside resolves to its target.
    expect(resolveInside(root, 'alias.ts', { write: true })).toBe(path.join(root, 'src', 'a.ts'));
  });

  it.each([
    ['../x', 'escape'],
    ['src/../../x', 'escape'],
    ['/etc/passwd', 'absolute'],
    ['~/.ssh/id_rsa', 'absolute'],
    ['src/a\0.ts', 'nul'],
  ])('refuses %j so the builder cannot leave its folder (%s)', async (p, reason) => {
    for (const write of [false, true]) {
      const err = await caught(() => resolveInside(root, p, { write }));
      expect(err.reason).toBe(reason);
      expect(err.message).toMatch(/relative|inside|plain/);
    }
  });

  it('refuses a symlink inside the root that points at a file outside, for reads and writes', async () => {
    const read = await caught(() => readProjectFile(root, 'leak.txt'));
    expect(read.reason).toBe('symlink');
    expect(read.message).not.toContain('outside secret');
    const write = await caught(() => writeProjectFile(root, 'leak.txt', 'overwritten'));
    expect(write.reason).toBe('symlink');
    expect(fs.readFileSync(path.join(outside, 'secret.txt'), 'utf8')).toBe('outside secret');
  });

  it('refuses paths through a symlink to a folder outside, including new files under it', async () => {
    expect((await caught(() => readProjectFile(root, 'outdir/inner.txt'))).reason).toBe('symlink');
    expect((await caught(() => writeProjectFile(root, 'outdir/new.txt', 'x'))).reason).toBe('symlink');
    expect((await caught(() => writeProjectFile(root, 'outdir/sub/new.txt', 'x'))).reason).toBe('symlink');
    expect(fs.readdirSync(path.join(outside, 'dir'))).toEqual(['inner.txt']);
  });

  it('refuses writing through a dangling link whose target is outside', async () => {
    expect((await caught(() => writeProjectFile(root, 'dangling.txt', 'x'))).reason).toBe('symlink');
    expect(fs.existsSync(path.join(outside, 'not-yet.txt'))).toBe(false);
  });

  it.each(['Forge/Contracts/blueprint.md', 'Forge/new.md', 'forge/x.md', 'FORGE/x.md', '.git/HEAD', '.GIT/config', 'docs/x.md'])(
    'keeps %s read-only to the builder',
    async (p) => {
      const err = await caught(() => writeProjectFile(root, p, 'tampered'));
      expect(err.reason).toBe('read_only');
      expect(err.message).toMatch(/read-only/);
    },
  );

  it('still lets the builder read Forge/ and .git/', async () => {
    expect(await readProjectFile(root, 'Forge/Contracts/blueprint.md')).toBe('# Blueprint');
    expect(fs.readFileSync(path.join(root, 'Forge/Contracts/blueprint.md'), 'utf8')).toBe('# Blueprint\n');
  });

  it('refuses writing the root itself', async () => {
    expect((await caught(() => resolveInside(root, '.', { write: true }))).reason).toBe('root');
  });
});
