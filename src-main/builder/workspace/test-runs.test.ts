import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { detectTestCommand, formatTestRun, parseFailingTests, runProjectTests } from './test-runs';
import { caught, tempProject } from './testing';

const NODE_TESTS = `const test = require('node:test');
const assert = require('node:assert');
test('adds numbers', () => assert.strictEqual(1 + 1, 3));
test('keeps strings', () => assert.strictEqual('a', 'a'));
`;

function hasPytest(): boolean {
  try {
    execFileSync('python3', ['-m', 'pytest', '--version'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

describe('detectTestCommand', () => {
  it.each([
    [{ 'package.json': JSON.stringify({ scripts: { test: 'node --test' } }) }, 'npm test'],
    [{ 'package.json': JSON.stringify({ scripts: { test: 'echo "Error: no test specified" && exit 1' } }), 'tests/test_a.py': '' }, 'python3 -m pytest -q'],
    [{ 'pyproject.toml': '[tool.pytest.ini_options]\n' }, 'python3 -m pytest -q'],
    [{ 'go.mod': 'module example.com/m\n' }, 'go test ./...'],
    [{ 'Cargo.toml': '[package]\n' }, 'cargo test'],
    [{ Makefile: 'test:\n\tpython3 check.py\n' }, 'make test'],
    [{ 'README.md': '# nothing to run' }, null],
  ])('reads %j as %s', (files, want) => {
    expect(detectTestCommand(tempProject(files))).toBe(want);
  });
});

describe('runProjectTests', () => {
  it('detects npm test, reports a failing run with the failing test name, then a passing one', async () => {
    const root = tempProject({ 'package.json': JSON.stringify({ name: 'tiny', scripts: { test: 'node --test' } }), 'math.test.js': NODE_TESTS });
    const failed = await runProjectTests(root, { timeoutMs: 60_000 });
    expect(failed.command).toBe('npm test');
    expect(failed.passed).toBe(false);
    expect(failed.exitCode).not.toBe(0);
    expect(failed.failingTests).toContain('adds numbers');
    expect(failed.failingTests).not.toContain('keeps strings');
    expect(formatTestRun(failed)).toMatch(/^FAILED \(exit code \d+ · .*\) — npm test\nFailing: .*adds numbers/);

    fs.writeFileSync(path.join(root, 'math.test.js'), NODE_TESTS.replace('1 + 1, 3', '1 + 1, 2'));
    const passed = await runProjectTests(root, { timeoutMs: 60_000 });
    expect(passed.passed).toBe(true);
    expect(passed.exitCode).toBe(0);
    expect(passed.failingTests).toEqual([]);
  });

  it.skipIf(!hasPytest())('runs pytest for a Python project and names the failing test (skipped only when pytest is missing)', async () => {
    const root = tempProject({
      'tests/test_math.py': 'def test_adds():\n    assert 1 + 1 == 2\n\ndef test_subtracts():\n    assert 1 - 1 == 1\n',
    });
    const run = await runProjectTests(root, { timeoutMs: 60_000 });
    expect(run.command).toBe('python3 -m pytest -q');
    expect(run.passed).toBe(false);
    expect(run.failingTests).toEqual(['tests/test_math.py::test_subtracts']);
  });

  it('refuses a test command off the allow-list, and says how to give one when none is found', async () => {
    const root = tempProject({ 'README.md': '' });
    expect((await caught(() => runProjectTests(root, { command: 'bash run-tests.sh' }))).reason).toBe('not_allowed');
    const none = await caught(() => runProjectTests(root));
    expect(none.code).toBe('not_found');
    expect(none.message).toMatch(/Pass the command/);
  });

  it('a test command that runs past its timeout is not a pass', async () => {
    const root = tempProject({ 'package.json': '{}', 'forever.js': 'setInterval(() => {}, 1000)' });
    const run = await runProjectTests(root, { command: 'node forever.js', timeoutMs: 500 });
    expect(run.passed).toBe(false);
    expect(run.timedOut).toBe(true);
  });
});

describe('parseFailingTests', () => {
  it('reads vitest output (the full name, once)', () => {
    const out = ` ❯ src/math.test.ts (2 tests | 1 failed) 5ms
   ✓ math > adds 1ms
   × math > subtracts 3ms
     → expected 1 to be 2 // Object.is equality

⎯⎯⎯⎯⎯⎯⎯ Failed Tests 1 ⎯⎯⎯⎯⎯⎯⎯

 FAIL  src/math.test.ts > math > subtracts
AssertionError: expected 1 to be 2 // Object.is equality`;
    expect(parseFailingTests(out)).toEqual(['src/math.test.ts > math > subtracts']);
  });

  it('reads jest output, colour codes included', () => {
    const out = `\u001b[1m\u001b[41m FAIL \u001b[49m\u001b[22m src/math.test.js
  math
    ✓ adds (2 ms)
    ✕ subtracts (3 ms)

  ● math › subtracts

    expect(received).toBe(expected)

Tests:       1 failed, 1 passed, 2 total`;
    expect(parseFailingTests(out)).toEqual(['src/math.test.js', 'math › subtracts']);
  });

  it('reads node --test (TAP and spec), pytest, go and cargo output', () => {
    expect(parseFailingTests('TAP version 13\n# Subtest: adds\nnot ok 1 - adds\n  ---\nok 2 - keeps')).toEqual(['adds']);
    expect(parseFailingTests('✔ keeps (0.5ms)\n✖ adds (1.2ms)\n✖ failing tests:\n\n✖ adds (1.2ms)')).toEqual(['adds']);
    expect(parseFailingTests('.F\nFAILED tests/test_x.py::test_sub - assert 0 == 1\n1 failed, 1 passed in 0.03s')).toEqual(['tests/test_x.py::test_sub']);
    expect(parseFailingTests('=== RUN   TestSub\n--- FAIL: TestSub (0.00s)\n    m_test.go:9: got 0\nFAIL')).toEqual(['TestSub']);
    expect(parseFailingTests('test tests::adds ... ok\ntest tests::sub ... FAILED\n')).toEqual(['tests::sub']);
  });
});
