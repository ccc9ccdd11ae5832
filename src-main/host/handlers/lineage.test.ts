import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tempCore } from '../testing';

/** The lineage procedures through the real core (seeded workspace, envelope, zod at the edge). */
let t: ReturnType<typeof tempCore>;
beforeAll(() => {
  t = tempCore();
});
afterAll(() => t.dispose());

describe('lineage API', () => {
  it('traces a seeded Expression the PM wrote without a session, saying what was not recorded, and exports it as Markdown', async () => {
    // If this failed, the Lineage page of a PM's own trade would be empty, invent a session, or offer no file.
    const r = await t.core.invoke('lineage/expression', { id: 'E-001' });
    expect(r).toMatchObject({ ok: true });
    if (!r.ok) return;
    expect(r.value.id).toBe('E-001');
    expect(r.value.sessionId).toBeNull();
    const gap = r.value.steps.find((s) => s.kind === 'gap' && s.title === 'No analyst session');
    expect(gap?.recorded).toBe(false);
    expect(r.value.steps.some((s) => s.kind === 'view' && s.links.includes('/memory/views/V-001.md'))).toBe(true);
    const md = await t.core.invoke('lineage/export', { id: 'E-001' });
    expect(md.ok && md.value.fileName).toBe('lineage-E-001.md');
    expect(md.ok && md.value.markdown).toMatch(/^# Decision lineage — E-001: /);
    expect(md.ok && md.value.markdown).toContain('_Not recorded._');
  });

  it('answers an unknown id with not_found and a non-Expression id with invalid_input', async () => {
    // If this failed, a mistyped link would show an empty trace instead of saying there is no such Expression.
    const missing = await t.core.invoke('lineage/expression', { id: 'E-999' });
    expect(missing).toMatchObject({ ok: false, error: { code: 'not_found' } });
    const bad = await t.core.invoke('lineage/export', { id: 'V-001' } as never);
    expect(bad).toMatchObject({ ok: false, error: { code: 'invalid_input' } });
  });
});
