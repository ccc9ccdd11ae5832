import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = join(__dirname, '..', '..');
const EXAMPLES = join(ROOT, 'resources', 'examples', 'specs');

/** The real `forge build --dry-run` in a child process, with no API key and a workspace folder that must stay untouched. */
function dryRun(...args: string[]) {
  const home = join(mkdtempSync(join(tmpdir(), 'forge-dry-')), 'workspace');
  const env = { ...process.env, FORGE_HOME: home, ANTHROPIC_API_KEY: '' };
  const r = spawnSync(join(ROOT, 'node_modules', '.bin', 'tsx'), [join(ROOT, 'src-main', 'host', 'cli.ts'), 'build', '--dry-run', ...args], {
    env,
    encoding: 'utf8',
    timeout: 120_000,
  });
  return { code: r.status, out: r.stdout, err: r.stderr, workspaceCreated: existsSync(home) };
}

describe('forge build --dry-run', () => {
  it.each([
    ['spec-kit', 'Format: spec-kit — feature 002-link-shortener', ['Phase 3.1 — Setup: 3 tasks', 'Phase 3.3 — Core implementation: 4 tasks']],
    ['kiro', 'Format: kiro — feature password-reset', ['Phase 1 — Store reset tokens: 2 tasks', 'Phase 3 — Redeem the token: 1 task ']],
    ['openspec', 'Format: openspec — change add-invoice-reminders', ['Phase 1 — Schema and worker: 3 tasks', 'Phase 2 — Emails and settings: 4 tasks']],
    ['plain', 'Format: plain', ['Phase 1 — Reading the station: 3 tasks', 'Phase 3 — Alerts: 2 tasks']],
    ['forge', 'Format: forge', ['Phase 0 — Scaffold and database: 3 tasks', 'Phase 2 — Loans and the page: 3 tasks']],
  ])(
    'lists the format, documents and phases of the %s example without a key or a workspace',
    (format, head, phases) => {
      // If this failed, a developer pointing Forge at their specs could not check what Forge read before paying for a build.
      const r = dryRun(join(EXAMPLES, format));
      expect(r.err.replace(/^npm warn.*\n/gm, '')).toBe('');
      expect(r.code).toBe(0);
      expect(r.out.split('\n')[0]).toBe(head);
      for (const p of phases) expect(r.out).toContain(p);
      expect(r.out).toMatch(/Documents \(\d+, [\d,]+ tokens\):/);
      expect(r.out).toContain('Not understood: nothing.');
      // No core was built: the dry run opened no workspace (and so no model client).
      expect(r.workspaceCreated).toBe(false);
    },
    150_000,
  );

  it('reads the feature asked for and reports what it could not use', () => {
    const r = dryRun(join(EXAMPLES, 'spec-kit'), '--feature', '001');
    expect(r.code).toBe(0);
    expect(r.out).toContain('Format: spec-kit — feature 001-team-accounts');
    expect(r.out).toContain('Phases (0):\n  none');
    expect(r.out).toMatch(/Not understood:\n {2}- specs\/001-team-accounts\/ has no tasks\.md yet/);
  }, 150_000);

  it('fails with one sentence on a folder that holds no specs', () => {
    const r = dryRun(mkdtempSync(join(tmpdir(), 'forge-empty-')));
    expect(r.code).toBe(1);
    expect(r.err).toMatch(/^forge build: No spec package in /m);
  }, 150_000);
});
