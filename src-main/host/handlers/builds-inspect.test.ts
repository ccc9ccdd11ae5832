import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { SpecInspection } from '../../api/builds';
import { tempCore } from '../testing';

/**
 * `builds/inspect` through the real core (API validation, handler, reader) on the example spec
 * packages: what the Builds screen shows before a build starts. If it failed, a PM pointing Forge
 * at their spec-kit feature would start a build without seeing that Forge found no phases, or
 * read another feature than the one they meant.
 */

const EXAMPLES = join(__dirname, '..', '..', '..', 'resources', 'examples', 'specs');
const app = tempCore();
const scratch = mkdtempSync(join(tmpdir(), 'forge-inspect-'));
afterAll(async () => {
  await app.dispose();
  rmSync(scratch, { recursive: true, force: true });
});

const inspect = async (input: Record<string, unknown>) => app.core.invokeUnknown('builds/inspect', input);
const ok = async (input: Record<string, unknown>): Promise<SpecInspection> => {
  const r = await inspect(input);
  if (!r.ok) throw new Error(JSON.stringify(r));
  return r.value as SpecInspection;
};

/** Every file's bytes under a folder, to show the inspection changed nothing. */
function snapshot(dir: string, out: Record<string, string> = {}, base = dir): Record<string, string> {
  for (const name of readdirSync(dir)) {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) snapshot(p, out, base);
    else out[p.slice(base.length)] = readFileSync(p, 'base64');
  }
  return out;
}

describe('builds/inspect on the example packages', () => {
  it("shows spec-kit's format, why, the feature read and the others, documents with tokens, and phases 3.1… with task counts", async () => {
    const dir = join(scratch, 'spec-kit');
    cpSync(join(EXAMPLES, 'spec-kit'), dir, { recursive: true });
    const before = snapshot(dir);
    const r = await ok({ dir });
    expect(r.format).toBe('spec-kit');
    expect(r.why).toBeTruthy();
    expect(r.feature).toBe('002-link-shortener');
    expect(r.features).toEqual(expect.arrayContaining(['001-team-accounts', '002-link-shortener']));
    expect(r.documents.map((d) => d.id)).toContain('specs/002-link-shortener/tasks.md');
    expect(r.documents.every((d) => d.tokens > 0)).toBe(true);
    expect(r.totalTokens).toBe(r.documents.reduce((n, d) => n + d.tokens, 0));
    expect(r.phases.slice(0, 2).map((p) => p.id)).toEqual(['3.1', '3.2']);
    expect(r.phases.every((p) => p.tasks > 0)).toBe(true);
    expect(r.text).toContain('Format: spec-kit');
    expect(snapshot(dir)).toEqual(before);
    // Another feature, when asked for.
    expect((await ok({ dir, feature: '001-team-accounts' })).feature).toBe('001-team-accounts');
    // One the folder does not hold: bad input on that field (the start form shows it there), naming those it does.
    const unknown = await inspect({ dir, feature: '009-billing' });
    expect(unknown).toMatchObject({ ok: false, error: { code: 'invalid_input', issues: [{ path: ['feature'] }] } });
    expect(JSON.stringify(unknown)).toContain('001-team-accounts, 002-link-shortener');
  });

  it.each(['kiro', 'openspec', 'plain', 'forge'])('names the %s format and its phases', async (format) => {
    const r = await ok({ dir: join(EXAMPLES, format) });
    expect(r.format).toBe(format);
    expect(r.phases.length).toBeGreaterThanOrEqual(2);
    expect(r.documents.length).toBeGreaterThan(0);
  });

  it('refuses a relative path on the dir field and names a missing folder, as typed errors', async () => {
    const rel = await inspect({ dir: 'projects/todo' });
    expect(rel).toMatchObject({ ok: false, error: { code: 'invalid_input', issues: [{ path: ['dir'] }] } });
    const missing = await inspect({ dir: join(scratch, 'nope') });
    expect(missing).toMatchObject({ ok: false, error: { code: 'not_found' } });
    expect(JSON.stringify(missing)).toContain(join(scratch, 'nope'));
    expect(await inspect({})).toMatchObject({ ok: false, error: { code: 'invalid_input' } });
  });
});
