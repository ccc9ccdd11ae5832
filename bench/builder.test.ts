import { spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { builderTokens } from '../src-main/builder/tokens';
import { startMockAnthropicServer } from '../src-main/llm/testing';
import { packageWindow } from '../src-main/mcp/spec-package';
import { readSpecPackage } from '../src-main/specs';
import { writeLargePlainPackage } from './_builder-package';
import { meets, targets } from './_targets';

/**
 * The builder bench's ratio is only meaningful on the package the issue names: a plain package whose
 * dump exceeds 25,000 tokens, phases of at most 10 tasks, the same text on every run. If the
 * generator drifted, the bench would report a ratio on a package too small (or a different one each
 * run) and the README's figure could not be reproduced.
 */

const dirs: string[] = [];
const fresh = () => {
  const d = mkdtempSync(join(tmpdir(), 'forge-bench-pkg-'));
  dirs.push(d);
  return d;
};
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

const snapshot = (dir: string) =>
  ['PLAN.md', ...readdirSync(join(dir, 'docs')).map((f) => `docs/${f}`)].map((f) => `${f}\n${readFileSync(join(dir, f), 'utf8')}`).join('\n');

describe('the large package the builder bench measures', () => {
  it('reads as a plain package of 8 phases of ≤ 10 tasks, with more than 25,000 tokens of documents', () => {
    const dir = fresh();
    expect(writeLargePlainPackage(dir)).toBe(8);
    const pkg = readSpecPackage(dir);
    expect(pkg.format).toBe('plain');
    expect(pkg.phases.map((p) => p.id)).toEqual(['1', '2', '3', '4', '5', '6', '7', '8']);
    for (const p of pkg.phases) expect(p.tasks.length).toBe(8);
    expect(pkg.preamble).toContain('Tech stack');
    const total = pkg.documents.reduce((n, d) => n + builderTokens(d.text), 0);
    expect(total).toBeGreaterThan(25_000);
    // Every window is the size of a real phase: within the 2,000-token target.
    for (const p of pkg.phases) expect(builderTokens(packageWindow(pkg, p.id).content)).toBeLessThanOrEqual(2000);
  });

  it('is written byte for byte the same on every run', () => {
    const a = fresh();
    const b = fresh();
    writeLargePlainPackage(a);
    writeLargePlainPackage(b);
    expect(snapshot(a)).toBe(snapshot(b));
  });
});

describe('npm run bench -- builder', () => {
  it("reports every example format and the large package on one JSON line, within the issue's targets", async () => {
    // A prompt or tool description that grows past 3,000 tokens, or a window past 2,000, fails here
    // rather than in a PM's build that compacts early.
    // With a key, each MCP fixed context is also sent to the Messages API's count_tokens: here the
    // mock Messages API on 127.0.0.1, which records what the bench sent.
    const root = join(__dirname, '..');
    const mock = await startMockAnthropicServer();
    let r: { status: number | null; stdout: string; stderr: string };
    try {
      // Async spawn: the mock server answers on this process's event loop, which spawnSync would block.
      r = await new Promise((resolve) => {
        const child = spawn(process.execPath, ['--import', 'tsx', join(root, 'bench', 'builder.ts')], {
          cwd: root,
          env: { ...process.env, ANTHROPIC_API_KEY: 'sk-ant-bench-test', ANTHROPIC_BASE_URL: mock.url },
        });
        let stdout = '';
        let stderr = '';
        child.stdout.on('data', (d) => (stdout += d));
        child.stderr.on('data', (d) => (stderr += d));
        child.on('close', (status) => resolve({ status, stdout, stderr }));
      });
    } finally {
      await mock.close();
    }
    const specs = join(root, 'resources', 'examples', 'specs');
    // Each example is a folder (the README beside them is not a package).
    const examples = readdirSync(specs).filter((f) => statSync(join(specs, f)).isDirectory());
    const counted = mock.requests.filter((q) => q.path === '/v1/messages/count_tokens');
    expect(counted.length).toBe(examples.length);
    expect((counted[0]!.body.tools as unknown[]).length).toBe(13);
    expect(r.status, r.stderr).toBe(0);
    const last = JSON.parse(r.stdout.trim().split('\n').pop()!) as Record<string, number | string>;
    expect(last.bench).toBe('builder');
    expect(last.tokenizer).toBe('o200k_base');
    for (const f of examples) expect(last[`${f}_mcp_fixed_tokens`], f).toBeGreaterThan(500);
    for (const t of targets.filter((x) => x.bench === 'builder')) {
      expect(meets(Number(last[t.figure]), t.op, t.value), `${t.figure} = ${last[t.figure]} (target ${t.op} ${t.value})`).toBe(true);
    }
    // The ratio is the one of the figures shown: the large package's dump over its MCP fixed context.
    expect(last.ratio).toBeCloseTo((last.large_dump_tokens as number) / (last.large_mcp_fixed_tokens as number), 1);
    expect(last.generated_ratio).toBeGreaterThanOrEqual(5);
    expect(last.api_mcp_fixed_tokens).toBeGreaterThan(500);
    expect(r.stdout).toMatch(/count_tokens \(Messages API\) for the MCP fixed context: \d+/);
    expect(r.stdout).toMatch(/mcp {2}fixed: system \d+ \+ \d+ tools \d+ \+ first message \d+ = \d+/);
  }, 120_000);
});
