import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { formatSearch, searchCode } from './search';
import { caught, tempProject } from './testing';
import { globToRegExp } from './walk';

function project() {
  const root = tempProject({
    'src/api/users.ts': 'export function getUser(id: string) {\n  return db.find(id);\n}\n',
    'src/index.ts': "import { getUser } from './api/users';\ngetUser('1');\n",
    'src/util.js': 'function getUser() {}\n',
    'other/getUser.ts': 'getUser();\n',
    'node_modules/dep/index.ts': 'getUser();\n',
    'dist/index.ts': 'getUser();\n',
    'Forge/Contracts/physics.md': 'getUser endpoint\n',
  });
  fs.writeFileSync(path.join(root, 'src/blob.ts'), Buffer.concat([Buffer.from('getUser'), Buffer.from([0, 1, 2])]));
  return root;
}

describe('search_code', () => {
  it('finds regex matches as path:line: text, skipping dependencies, build output, Forge/ and binaries', async () => {
    const root = project();
    const out = await searchCode(root, { pattern: 'getUser\\(' });
    expect(formatSearch(out, { pattern: 'getUser\\(' })).toBe(
      [
        'other/getUser.ts:1: getUser();',
        'src/api/users.ts:1: export function getUser(id: string) {',
        "src/index.ts:2: getUser('1');",
        'src/util.js:1: function getUser() {}',
      ].join('\n'),
    );
  });

  it('filters by glob', async () => {
    const root = project();
    const out = await searchCode(root, { pattern: 'getUser', glob: 'src/**/*.ts' });
    expect(out.matches.map((m) => `${m.path}:${m.line}`)).toEqual(['src/api/users.ts:1', 'src/index.ts:1', 'src/index.ts:2']);
    const byName = await searchCode(root, { pattern: 'getUser', glob: '*.js' });
    expect(byName.matches.map((m) => m.path)).toEqual(['src/util.js']);
  });

  it('treats the pattern as text when literal, and refuses an invalid regex clearly', async () => {
    const root = project();
    const lit = await searchCode(root, { pattern: 'db.find(id)', literal: true });
    expect(lit.matches).toEqual([{ path: 'src/api/users.ts', line: 2, text: 'return db.find(id);' }]);
    const err = await caught(() => searchCode(root, { pattern: 'find(id' }));
    expect(err.code).toBe('invalid_input');
    expect(err.message).toMatch(/not a valid regular expression.*literal: true/);
  });

  it('caps the matches and says so', async () => {
    const root = tempProject({ 'many.txt': 'hit\n'.repeat(50) });
    const out = await searchCode(root, { pattern: 'hit', maxMatches: 10 });
    expect(out.matches).toHaveLength(10);
    expect(out.truncated).toBe(true);
    expect(formatSearch(out, { pattern: 'hit' })).toMatch(/\[stopped at 10 matches/);
  });

  it('stops a catastrophically backtracking pattern instead of freezing the app', async () => {
    const root = tempProject({ 'a.txt': `${'a'.repeat(40)}b\n` });
    const started = Date.now();
    const err = await caught(() => searchCode(root, { pattern: '(a+)+$', budgetMs: 200 }));
    expect(err.code).toBe('unavailable');
    expect(err.message).toMatch(/took too long.*a\.txt/);
    expect(Date.now() - started).toBeLessThan(5000);
  });

  it('says when nothing matched', async () => {
    const root = project();
    expect(formatSearch(await searchCode(root, { pattern: 'nothing_here' }), { pattern: 'nothing_here' })).toMatch(
      /^No matches for "nothing_here" \(\d+ files searched\)\.$/,
    );
  });
});

describe('globToRegExp', () => {
  it.each([
    ['src/**/*.ts', 'src/a.ts', true],
    ['src/**/*.ts', 'src/x/y/a.ts', true],
    ['src/**/*.ts', 'lib/a.ts', false],
    ['src/*.ts', 'src/x/a.ts', false],
    ['*.{ts,tsx}', 'deep/a.tsx', true],
    ['test_?.py', 'tests/test_1.py', true],
    ['[ab].md', 'c.md', false],
  ])('%s against %s → %s', (glob, p, want) => {
    expect(globToRegExp(glob).test(p)).toBe(want);
  });
});
