import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { findJsonError, lineColumn } from './json-position';
import { checkSyntax, formatSyntaxCheck } from './syntax';
import { tempProject } from './testing';

function hasPython(): boolean {
  try {
    execFileSync('python3', ['--version'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

describe('check_syntax', () => {
  const root = tempProject({
    'src/bad.ts': 'export function f(a: number) {\n  return a +;\n}\n',
    'src/ok.tsx': 'export const C = () => <div className="x">{1 + 1}</div>;\n',
    'src/types-in.js': 'const x: number = 1;\n',
    'bad.json': '{\n  "name": "tiny",\n  "version": }\n',
    'trailing.json': '{\n  "a": 1,\n}\n',
    'ok.json': '{"a": [1, 2.5e3, "x\\n", null]}\n',
    'bad.yaml': 'jobs:\n  test:\n    steps: [a, b\n',
    'ok.yml': 'name: ci\non: [push]\n',
    'bad.py': 'def f(:\n    pass\n',
    'ok.py': 'def f():\n    return 1\n',
    'notes.rb': 'puts 1\n',
  });

  it('catches a TypeScript syntax error with line:column', async () => {
    const c = await checkSyntax(root, 'src/bad.ts');
    expect(c.ok).toBe(false);
    expect(c.problems[0]).toEqual({ line: 2, column: 13, message: 'Expression expected.' });
    expect(formatSyntaxCheck(c)).toBe('src/bad.ts: 1 syntax error (TypeScript):\nsrc/bad.ts:2:13: Expression expected.');
  });

  it('passes valid TSX, and flags type annotations in a .js file', async () => {
    expect(formatSyntaxCheck(await checkSyntax(root, 'src/ok.tsx'))).toBe('src/ok.tsx: no syntax errors (TypeScript).');
    const js = await checkSyntax(root, 'src/types-in.js');
    expect(js.problems.map((p) => `${p.line}:${p.column}`)).toEqual(['1:10']);
  });

  it('gives JSON errors a line:column even where V8 gives no position', async () => {
    const bad = await checkSyntax(root, 'bad.json');
    expect(bad.problems).toEqual([{ line: 3, column: 14, message: 'expected a value (string, number, object, array, true, false or null) but found "}"' }]);
    const trailing = await checkSyntax(root, 'trailing.json');
    expect(trailing.problems[0]).toMatchObject({ line: 3, column: 1, message: expect.stringMatching(/no trailing comma/) });
    expect((await checkSyntax(root, 'ok.json')).ok).toBe(true);
  });

  it('checks YAML', async () => {
    const bad = await checkSyntax(root, 'bad.yaml');
    expect(bad.ok).toBe(false);
    expect(bad.problems[0].line).toBeGreaterThanOrEqual(3);
    expect((await checkSyntax(root, 'ok.yml')).ok).toBe(true);
  });

  it.skipIf(!hasPython())('checks Python with python3, leaving no __pycache__ behind (skipped only when python3 is missing)', async () => {
    const bad = await checkSyntax(root, 'bad.py');
    expect(bad.checker).toBe('Python');
    expect(bad.problems).toHaveLength(1);
    expect(bad.problems[0].line).toBe(1);
    expect((await checkSyntax(root, 'ok.py')).ok).toBe(true);
    expect(fs.existsSync(`${root}/__pycache__`)).toBe(false);
  });

  it('says which types it supports for any other file', async () => {
    const c = await checkSyntax(root, 'notes.rb');
    expect(c.checker).toBeNull();
    expect(formatSyntaxCheck(c)).toMatch(/^notes\.rb: not checked\. Cannot check "\.rb" files\. Supported: TypeScript\/JavaScript .*Python \(\.py\)\.$/);
  });
});

describe('findJsonError', () => {
  it('agrees with JSON.parse on valid and damaged JSON', () => {
    fc.assert(
      fc.property(fc.jsonValue(), fc.nat(), fc.constantFrom('', ',', '}', ']', '"', ':', 'x', '\n', '0'), (value, at, junk) => {
        const text = JSON.stringify(value);
        expect(findJsonError(text)).toBeNull();
        const pos = at % (text.length + 1);
        const damaged = text.slice(0, pos) + junk + text.slice(pos);
        let valid = true;
        try {
          JSON.parse(damaged);
        } catch {
          valid = false;
        }
        expect(findJsonError(damaged) === null).toBe(valid);
      }),
      { numRuns: 500 },
    );
  });

  it('maps an offset to line and column', () => {
    expect(lineColumn('ab\ncd\nef', 7)).toEqual({ line: 3, column: 2 });
  });
});
