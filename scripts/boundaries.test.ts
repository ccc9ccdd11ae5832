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
    const found = violations.map((v) => (v.specifier ? `${v.file}:${v.line} ${v.specifier}` : `${v.file} (unlisted folder)`)).sort();
    expect(found).toEqual(
      [
        'src-main/api/contract.ts:1 node:fs', // api must run in the renderer too
        'src-main/fs/uses-electron.ts:1 electron', // electron outside the shell
        'src-main/store/thing.ts:1 ../host/core', // a lower layer importing a higher one
        'src-renderer/screen.tsx:2 ../src-main/api/contract', // renderer: types only from api
        'src-renderer/screen.tsx:3 ../src-main/host/core', // renderer reaching main code
        'src-main/widgets/gadget.ts (unlisted folder)', // a folder with no stated layer
        'src-main/mcp/config.ts:1 ./cache', // config is the bottom of the MCP package
        'src-main/mcp/local.ts:2 ./remote', // local and remote are peers
        'src-main/mcp/server.ts:3 ./service', // server may take only types from service
        'src-main/mcp/server.ts:4 ./local', // server reaching a source around dispatch
        'src-main/mcp/http.ts:3 ./tools', // a transport calling tools itself
      ].sort(),
    );
    const electron = violations.find((v) => v.specifier === 'electron')!;
    expect(electron.rule).toMatch(/only in app, preload/);
    // The shell and the preload may import electron; type-only imports are allowed anywhere.
    expect(violations.some((v) => v.file.startsWith('src-main/app/') || v.file.startsWith('src-preload/'))).toBe(false);
    expect(violations.some((v) => v.file === 'src-main/fs/fine.ts')).toBe(false);
    const rule = (file: string, spec: string) => violations.find((v) => v.file === file && v.specifier === spec)?.rule;
    expect(violations.find((v) => v.file === 'src-main/widgets/gadget.ts')?.rule).toMatch(
      /^src-main\/widgets is a folder contracts\/boundaries.json does not list/,
    );
    expect(rule('src-main/mcp/config.ts', './cache')).toMatch(/^mcp\/config may not import mcp\/cache \(allowed: no other mcp file\)/);
    expect(rule('src-main/mcp/local.ts', './remote')).toMatch(/peers/);
    expect(rule('src-main/mcp/server.ts', './service')).toMatch(/only types from mcp\/service/);
    expect(rule('src-main/mcp/server.ts', './local')).toMatch(/only through dispatch/);
  });

  it('lists every folder DESIGN.md §3 names, so a new file in builder/, scheduler/ or evolution/ passes', () => {
    const folders = [
      'app',
      'host',
      'api',
      'config',
      'store',
      'fs',
      'search',
      'llm',
      'agent',
      'tools',
      'executor',
      'skills',
      'providers',
      'guardrails',
      'tracking',
      'evolution',
      'scheduler',
      'mcp',
      'builder',
    ];
    const listed = new Set(Object.values(rules.modules).map((m) => m.path));
    expect(folders.filter((f) => !listed.has(`src-main/${f}`))).toEqual([]);
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
