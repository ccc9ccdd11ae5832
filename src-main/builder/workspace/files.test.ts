import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { editProjectFile, listProjectDirectory, MAX_WRITE_BYTES, readProjectFile, writeProjectFile } from './files';
import { caught, tempProject } from './testing';

describe('read_file', () => {
  it('returns a short file as plain text', async () => {
    const root = tempProject({ 'a.txt': 'one\ntwo\n' });
    expect(await readProjectFile(root, 'a.txt')).toBe('one\ntwo');
  });

  it('pages a long file and says where to continue, so the builder never loses the rest silently', async () => {
    const lines = Array.from({ length: 50 }, (_, i) => `line ${i + 1}`);
    const root = tempProject({ 'long.txt': `${lines.join('\n')}\n` });
    const page = await readProjectFile(root, 'long.txt', { offset: 11, limit: 5 });
    expect(page).toBe('line 11\nline 12\nline 13\nline 14\nline 15\n[lines 11-15 of 50; read_file with offset=16 continues]');
    const end = await readProjectFile(root, 'long.txt', { offset: 48 });
    expect(end).toBe('line 48\nline 49\nline 50\n[lines 48-50 of 50]');
    expect((await caught(() => readProjectFile(root, 'long.txt', { offset: 51 }))).message).toContain('has 50 lines');
  });

  it('refuses binary files, folders, missing files and files over 1 MB, each with what to do instead', async () => {
    const root = tempProject({ 'src/x.ts': 'x' });
    fs.writeFileSync(path.join(root, 'img.png'), Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x00, 0x01]));
    fs.writeFileSync(path.join(root, 'big.log'), 'a'.repeat(1024 * 1024 + 1));
    expect((await caught(() => readProjectFile(root, 'img.png'))).message).toMatch(/binary/);
    expect((await caught(() => readProjectFile(root, 'src'))).message).toMatch(/folder; use list_directory/);
    const missing = await caught(() => readProjectFile(root, 'nope.ts'));
    expect(missing.code).toBe('not_found');
    const big = await caught(() => readProjectFile(root, 'big.log'));
    expect(big.code).toBe('too_large');
    expect(big.message).toMatch(/1\.0 MB.*search_code/);
  });
});

describe('list_directory', () => {
  it('shows a tree, folders first, without expanding node_modules or going past the depth', async () => {
    const root = tempProject({
      'src/lib/deep/x.ts': '',
      'src/index.ts': '',
      'README.md': '',
      'node_modules/left-pad/index.js': '',
    });
    const tree = await listProjectDirectory(root, '', 2);
    expect(tree).toBe(['(project root)', '  node_modules/ (not listed)', '  src/', '    lib/ (1 entries)', '    index.ts', '  README.md'].join('\n'));
    expect(tree).not.toContain('left-pad');
    expect(await listProjectDirectory(root, 'src/lib', 3)).toBe('src/lib/\n  deep/\n    x.ts');
  });

  it('caps the entries and counts the rest', async () => {
    const files = Object.fromEntries(Array.from({ length: 30 }, (_, i) => [`f${String(i).padStart(2, '0')}.txt`, '']));
    const root = tempProject(files);
    const tree = await listProjectDirectory(root, '.', 2, 10);
    expect(tree.split('\n')).toHaveLength(12);
    expect(tree).toMatch(/… 20 more entries/);
  });
});

describe('write_file', () => {
  it('creates parent folders and leaves no temporary file behind', async () => {
    const root = tempProject();
    const w = await writeProjectFile(root, 'src/deep/new.ts', 'export const x = 1;\nexport const y = 2;\n');
    expect(w).toEqual({ path: 'src/deep/new.ts', created: true, lines: 2, bytes: 40 });
    expect(fs.readFileSync(path.join(root, 'src/deep/new.ts'), 'utf8')).toBe('export const x = 1;\nexport const y = 2;\n');
    expect(fs.readdirSync(path.join(root, 'src/deep'))).toEqual(['new.ts']);
  });

  it('replaces an existing file whole and keeps its mode (an executable script stays executable)', async () => {
    const root = tempProject({ 'run.sh': 'old\n' });
    fs.chmodSync(path.join(root, 'run.sh'), 0o755);
    const w = await writeProjectFile(root, 'run.sh', 'new\n');
    expect(w.created).toBe(false);
    expect(fs.readFileSync(path.join(root, 'run.sh'), 'utf8')).toBe('new\n');
    expect(fs.statSync(path.join(root, 'run.sh')).mode & 0o777).toBe(0o755);
    expect(fs.readdirSync(root)).toEqual(['run.sh']);
  });

  it('refuses content over 2 MB and writes nothing', async () => {
    const root = tempProject();
    const err = await caught(() => writeProjectFile(root, 'huge.txt', 'x'.repeat(MAX_WRITE_BYTES + 1)));
    expect(err.code).toBe('too_large');
    expect(fs.readdirSync(root)).toEqual([]);
  });

  it('refuses to write over a folder', async () => {
    const root = tempProject({ 'src/a.ts': '' });
    expect((await caught(() => writeProjectFile(root, 'src', 'x'))).message).toMatch(/is a folder/);
    expect(fs.readdirSync(path.join(root, 'src'))).toEqual(['a.ts']);
  });
});

describe('edit_file', () => {
  const original = 'function add(a, b) {\n  return a - b;\n}\n\nconst x = 1;\nconst y = 1;\n';

  it('applies edits in order, each against the text the previous one left', async () => {
    const root = tempProject({ 'm.js': original });
    const out = await editProjectFile(root, 'm.js', [
      { old_text: 'return a - b;', new_text: 'return a + b;' },
      // Only unique once the first edit has run.
      { old_text: 'a + b;\n}', new_text: 'a + b;\n}\n\nfunction sub(a, b) {\n  return a - b;\n}' },
    ]);
    expect(out).toEqual({ path: 'm.js', applied: 2, lines: 10 });
    expect(fs.readFileSync(path.join(root, 'm.js'), 'utf8')).toBe(
      'function add(a, b) {\n  return a + b;\n}\n\nfunction sub(a, b) {\n  return a - b;\n}\n\nconst x = 1;\nconst y = 1;\n',
    );
  });

  it('fails on absent text, naming the edit, and writes nothing (all or nothing)', async () => {
    const root = tempProject({ 'm.js': original });
    const err = await caught(() =>
      editProjectFile(root, 'm.js', [
        { old_text: 'return a - b;', new_text: 'return a + b;' },
        { old_text: 'const z = 1;', new_text: 'const z = 2;' },
      ]),
    );
    expect(err.message).toMatch(/^Edit 2 of 2: old_text was not found in "m\.js" as it stands after edit 1\. Nothing was written\./);
    expect(fs.readFileSync(path.join(root, 'm.js'), 'utf8')).toBe(original);
    expect(fs.readdirSync(root)).toEqual(['m.js']);
  });

  it('fails on ambiguous text, saying how many times it occurs', async () => {
    const root = tempProject({ 'm.js': original });
    const err = await caught(() => editProjectFile(root, 'm.js', [{ old_text: ' = 1;', new_text: ' = 2;' }]));
    expect(err.message).toMatch(/^Edit 1 of 1: old_text occurs 2 times in "m\.js"\. Nothing was written\. Include more surrounding lines/);
    expect(fs.readFileSync(path.join(root, 'm.js'), 'utf8')).toBe(original);
  });

  it('keeps $& and $1 in new_text literal', async () => {
    const root = tempProject({ 'p.js': 'const price = 0;\n' });
    await editProjectFile(root, 'p.js', [{ old_text: '0', new_text: "'$&$1'" }]);
    expect(fs.readFileSync(path.join(root, 'p.js'), 'utf8')).toBe("const price = '$&$1';\n");
  });

  it('matches across Windows line endings and keeps them', async () => {
    const root = tempProject({ 'w.txt': 'alpha\r\nbeta\r\ngamma\r\n' });
    await editProjectFile(root, 'w.txt', [{ old_text: 'alpha\nbeta', new_text: 'alpha\nBETA' }]);
    expect(fs.readFileSync(path.join(root, 'w.txt'), 'utf8')).toBe('alpha\r\nBETA\r\ngamma\r\n');
  });

  it('refuses a missing file and files in Forge/', async () => {
    const root = tempProject({ 'Forge/Contracts/stack.md': 'stack' });
    expect((await caught(() => editProjectFile(root, 'nope.js', [{ old_text: 'a', new_text: 'b' }]))).code).toBe('not_found');
    expect((await caught(() => editProjectFile(root, 'Forge/Contracts/stack.md', [{ old_text: 'stack', new_text: 'x' }]))).reason).toBe('read_only');
    expect(fs.readFileSync(path.join(root, 'Forge/Contracts/stack.md'), 'utf8')).toBe('stack');
  });
});
