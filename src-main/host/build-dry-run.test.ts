import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { forgeBuildCli } from './build-cli';

const ROOT = join(__dirname, '..', '..');
const EXAMPLES = join(ROOT, 'resources', 'examples', 'specs');

/** `forge build --dry-run` in process, its terminal output captured. */
async function dryRun(...args: string[]) {
  const out: string[] = [];
  const err: string[] = [];
  vi.spyOn(console, 'log').mockImplementation((...a: unknown[]) => void out.push(a.join(' ')));
  vi.spyOn(console, 'error').mockImplementation((...a: unknown[]) => void err.push(a.join(' ')));
  const code = await forgeBuildCli(['--dry-run', ...args]);
  return { code, out: out.join('\n'), err: err.join('\n') };
}

afterEach(() => vi.restoreAllMocks());

describe('forge build --dry-run', () => {
  it.each([
    ['spec-kit', 'Format: spec-kit — feature 002-link-shortener', ['Phase 3.1 — Setup: 3 tasks', 'Phase 3.3 — Core implementation: 4 tasks']],
    ['kiro', 'Format: kiro — feature password-reset', ['Phase 1 — Store reset tokens: 2 tasks', 'Phase 3 — Redeem the token: 1 task ']],
    ['openspec', 'Format: openspec — change add-invoice-reminders', ['Phase 1 — Schema and worker: 3 tasks', 'Phase 2 — Emails and settings: 4 tasks']],
    ['plain', 'Format: plain', ['Phase 1 — Reading the station: 3 tasks', 'Phase 3 — Alerts: 2 tasks']],
    ['forge', 'Format: forge', ['Phase 0 — Scaffold and database: 3 tasks', 'Phase 2 — Loans and the page: 3 tasks']],
  ])('lists the format, documents and phases of the %s example', async (format, head, phases) => {
    // If this failed, a developer pointing Forge at their specs could not check what Forge read before paying for a build.
    const r = await dryRun(join(EXAMPLES, format));
    expect(r.err).toBe('');
    expect(r.code).toBe(0);
    expect(r.out.split('\n')[0]).toBe(head);
    for (const p of phases) expect(r.out).toContain(p);
    expect(r.out).toMatch(/Documents \(\d+, [\d,]+ tokens\):/);
    expect(r.out).toContain('Not understood: nothing.');
  });

  it('reads the feature asked for and reports what it could not use', async () => {
    const r = await dryRun(join(EXAMPLES, 'spec-kit'), '--feature', '001');
    expect(r.code).toBe(0);
    expect(r.out).toContain('Format: spec-kit — feature 001-team-accounts');
    expect(r.out).toContain('Phases (0):\n  none');
    expect(r.out).toMatch(/Not understood:\n {2}- specs\/001-team-accounts\/ has no tasks\.md yet/);
  });

  it('fails with one sentence on a folder that holds no specs', async () => {
    const r = await dryRun(mkdtempSync(join(tmpdir(), 'forge-empty-')));
    expect(r.code).toBe(1);
    expect(r.err).toMatch(/^forge build: No spec package in /);
  });

  it('runs as the real command with no API key and opens no workspace', () => {
    // If this failed, a dry run would need a key or create ~/.forge, i.e. it would not be a dry run.
    const home = join(mkdtempSync(join(tmpdir(), 'forge-dry-')), 'workspace');
    const r = spawnSync(join(ROOT, 'node_modules', '.bin', 'tsx'), [join(ROOT, 'src-main', 'host', 'cli.ts'), 'build', '--dry-run', join(EXAMPLES, 'kiro')], {
      env: { ...process.env, FORGE_HOME: home, ANTHROPIC_API_KEY: '' },
      encoding: 'utf8',
      timeout: 120_000,
    });
    expect(r.status).toBe(0);
    expect(r.stdout).toContain('Phase 2 — Reset views and emails: 3 tasks');
    expect(existsSync(home)).toBe(false);
  }, 150_000);
});
