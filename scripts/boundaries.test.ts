import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { checkBoundaries, listImports, type BoundaryRules } from './boundaries';

const root = join(__dirname, '..');
const rules = JSON.parse(readFileSync(join(root, 'contracts', 'boundaries.json'), 'utf8')) as BoundaryRules;

describe('boundary check', () => {
  it('passes on the real source tree (otherwise a layer leaks: e.g. the core would crash importing electron)', () => {
    const { violations, filesChecked } = checkBoundaries(root, rules);
    expect(filesChecked).toBeGreaterThan(10);
    expect(violations).toEqual([]);
  });

  it('names the file, line and import of every violation in the fixture tree', () => {
    const { violations } = checkBoundaries(join(__dirname, 'fixtures', 'boundaries'), rules);
    const found = violations.map((v) => `${v.file}:${v.line} ${v.specifier}`).sort();
    expect(found).toEqual(
      [
        'src-main/api/contract.ts:1 node:fs', // api must run in the renderer too
        'src-main/fs/uses-electron.ts:1 electron', // electron outside the shell
        'src-main/store/thing.ts:1 ../host/core', // a lower layer importing a higher one
        'src-renderer/screen.tsx:2 ../src-main/api/contract', // renderer: types only from api
        'src-renderer/screen.tsx:3 ../src-main/host/core', // renderer reaching main code
      ].sort(),
    );
    const electron = violations.find((v) => v.specifier === 'electron')!;
    expect(electron.rule).toMatch(/only in app, preload/);
    // The shell and the preload may import electron; type-only imports are allowed anywhere.
    expect(violations.some((v) => v.file.startsWith('src-main/app/') || v.file.startsWith('src-preload/'))).toBe(false);
    expect(violations.some((v) => v.file === 'src-main/fs/fine.ts')).toBe(false);
  });

  it('sees dynamic imports, require calls and re-exports, and knows type-only imports', () => {
    const refs = listImports(
      'x.ts',
      [
        "import type { A } from './a';",
        "import { type B, type C } from './b';",
        "import { D, type E } from './d';",
        "export { F } from './f';",
        "const g = await import('./g');",
        "const h = require('./h');",
      ].join('\n'),
    );
    expect(refs.map((r) => [r.specifier, r.line, r.typeOnly])).toEqual([
      ['./a', 1, true],
      ['./b', 2, true],
      ['./d', 3, false],
      ['./f', 4, false],
      ['./g', 5, false],
      ['./h', 6, false],
    ]);
  });
});
