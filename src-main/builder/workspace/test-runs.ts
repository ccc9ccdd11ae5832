import fs from 'node:fs';
import path from 'node:path';
import { NotFoundError } from '../../common/errors';
import { realRoot } from './confine';
import type { StopReason } from '../../sandbox';
import { networkHint, type RunCommandOptions, runCommand } from './commands';

/**
 * run_tests: the project's test command — given, or detected from the project's files — run like
 * run_command, with failing test names read from the output. Forge calls runProjectTests itself to
 * check a phase sign-off, so a sign-off stands on tests Forge ran, not on the model's word.
 */

export interface TestRun {
  command: string;
  passed: boolean;
  exitCode: number | null;
  timedOut: boolean;
  /** Why Forge stopped the run, if it did (timeout, cancelled, output_cap). */
  stoppedFor: StopReason | null;
  /** A fork was refused at the sandbox's process cap. */
  processLimitHit: boolean;
  durationMs: number;
  output: string;
  /** Best effort, from the runners' usual report lines; may be empty when the output has none. */
  failingTests: string[];
}

/** npm's placeholder for a package without tests: running it would only fail. */
const NPM_PLACEHOLDER = /no test specified/;

/** The test command a developer would type in this project, or null when nothing says how. */
export function detectTestCommand(workDir: string): string | null {
  const root = realRoot(workDir);
  const has = (f: string) => fs.existsSync(path.join(root, f));
  const read = (f: string) => {
    try {
      return fs.readFileSync(path.join(root, f), 'utf8');
    } catch {
      return '';
    }
  };
  if (has('package.json')) {
    try {
      const test = (JSON.parse(read('package.json')) as { scripts?: Record<string, unknown> }).scripts?.test;
      if (typeof test === 'string' && test.trim() && !NPM_PLACEHOLDER.test(test)) return 'npm test';
    } catch {
      /* unreadable package.json: look for other signs */
    }
  }
  const pytestConfig =
    has('pytest.ini') ||
    has('conftest.py') ||
    read('pyproject.toml').includes('[tool.pytest') ||
    read('setup.cfg').includes('[tool:pytest]') ||
    read('tox.ini').includes('[pytest]');
  if (pytestConfig || hasPythonTests(root)) return 'python3 -m pytest -q';
  if (has('go.mod')) return 'go test ./...';
  if (has('Cargo.toml')) return 'cargo test';
  if (/^test\s*:/m.test(read('Makefile'))) return 'make test';
  return null;
}

function hasPythonTests(root: string): boolean {
  for (const dir of ['tests', 'test']) {
    try {
      if (fs.readdirSync(path.join(root, dir)).some((f) => f.endsWith('.py'))) return true;
    } catch {
      /* no such folder */
    }
  }
  return false;
}

export interface RunTestsOptions extends RunCommandOptions {
  /** The command to run; detected when absent. */
  command?: string;
}

/** Runs the project's tests. Throws when no command is given or detectable, or the command is refused. */
export async function runProjectTests(workDir: string, opts: RunTestsOptions = {}): Promise<TestRun> {
  const command = opts.command?.trim() || detectTestCommand(workDir);
  if (!command) {
    throw new NotFoundError(
      'No test command found: no package.json test script, pytest config or tests/ folder, go.mod, Cargo.toml or Makefile test target. Pass the command, such as "node --test".',
    );
  }
  // One approval of "tests" covers every test run of a build where commands run unconfined.
  const run = await runCommand(workDir, command, { commandClass: 'tests', ...opts });
  const output = run.spawnError ? run.spawnError : run.output + networkHint(run);
  return {
    command: run.command,
    passed: run.exitCode === 0,
    exitCode: run.exitCode,
    timedOut: run.timedOut,
    stoppedFor: run.stoppedFor,
    processLimitHit: run.processLimitHit,
    durationMs: run.durationMs,
    output,
    failingTests: run.exitCode === 0 ? [] : parseFailingTests(run.output),
  };
}

// biome-ignore lint/suspicious/noControlCharactersInRegex: ANSI colour codes start with ESC.
const ANSI = /\u001b\[[0-9;?]*[A-Za-z]/g;
const DURATION = /\s+\(?\d+(?:\.\d+)?\s*m?s\)?$/;

/** Report lines of common runners that name a failed test, and how to read the name from each. */
const FAILURE_LINES: { re: RegExp; name: (m: RegExpMatchArray) => string }[] = [
  // vitest and jest: " FAIL  src/a.test.ts > suite > name", " FAIL  src/a.test.js"
  { re: /^\s*FAIL\s+(.+)$/, name: (m) => m[1] },
  // vitest / jest per-test marks: " × name 3ms", " ✕ name (3 ms)"
  { re: /^\s*[×✕✗]\s+(.+)$/, name: (m) => m[1] },
  // jest failure headings: "● suite › name"
  { re: /^\s*●\s+(.+)$/, name: (m) => m[1] },
  // node --test, TAP reporter: "not ok 2 - name # comment"
  { re: /^\s*not ok \d+ - (.+?)(?:\s+#.*)?$/, name: (m) => m[1] },
  // node --test, spec reporter: "✖ name (1.2ms)"
  { re: /^\s*✖\s+(.+)$/, name: (m) => m[1] },
  // pytest short summary: "FAILED tests/test_x.py::test_y - AssertionError"
  { re: /^(?:FAILED|ERROR)\s+(\S+)/, name: (m) => m[1] },
  // go test: "--- FAIL: TestName (0.00s)"
  { re: /^\s*--- FAIL: (\S+)/, name: (m) => m[1] },
  // cargo test: "test module::name ... FAILED"
  { re: /^test (\S+) \.\.\. FAILED$/, name: (m) => m[1] },
];
// Headings that share a report line's shape but name no test ("Tests:  1 failed" is jest's summary).
const NOT_NAMES = /^(failing tests:?|Test suite failed to run|Tests?:\s.*)$/i;

/** Failing test names from a runner's output, in order, without duplicates, at most 50. */
export function parseFailingTests(output: string): string[] {
  const found: string[] = [];
  for (const raw of output.replace(ANSI, '').split('\n')) {
    const line = raw.replace(/\r$/, '');
    for (const { re, name } of FAILURE_LINES) {
      const m = line.match(re);
      if (!m) continue;
      const n = name(m)
        .trim()
        .replace(DURATION, '')
        .replace(/\s+\[.*\]$/, '')
        .trim();
      if (n && !NOT_NAMES.test(n) && !found.includes(n)) found.push(n);
      break;
    }
  }
  // "file > suite > name" and a bare "name" for the same test: keep the fuller one.
  return found.filter((n) => !found.some((o) => o !== n && (o.endsWith(` > ${n}`) || o.endsWith(` › ${n}`)))).slice(0, 50);
}

/** The text the model reads. A passing run shows only the end of its output (the summary). */
export function formatTestRun(run: TestRun): string {
  const secs = `${(run.durationMs / 1000).toFixed(1)} s`;
  const how = run.timedOut
    ? `timed out after ${secs}`
    : run.stoppedFor === 'output_cap'
      ? `stopped after ${secs}: it printed more than the output cap`
      : `exit code ${run.exitCode ?? 'none'} · ${secs}`;
  if (run.passed) {
    const tail = run.output.trimEnd();
    return `PASSED (${how}) — ${run.command}\n${tail.length > 3000 ? `[…]\n${tail.slice(-3000)}` : tail}`;
  }
  const failing = run.failingTests.length ? `\nFailing: ${run.failingTests.join('; ')}` : '';
  return `FAILED (${how}) — ${run.command}${failing}\n${run.output.trimEnd()}`;
}
