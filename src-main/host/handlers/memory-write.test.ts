import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Core } from '../core';
import { tempCore } from '../testing';

let core: Core;
let dispose: () => Promise<void>;
beforeEach(async () => {
  ({ core, dispose } = tempCore());
  // The demo workspace is seeded in the background on first start; direct fs use must wait for it.
  await core.context.memory.ready;
});
afterEach(() => dispose());

const fs = () => core.context.memory.fs;

const newView = [
  '# new — Term premium rebuilds in long-end USD',
  'status: active',
  'confidence: 0.6',
  'scope: US rates',
  '---',
  '## SUMMARY',
  'Supply and fading QT demand push the 10y term premium up.',
].join('\n');

const expression = (fields: Record<string, string | number>) =>
  [
    '# new — Pay 10y SOFR swaps',
    ...Object.entries({
      view_id: 'V-001',
      instrument: 'USD 10y SOFR swap (pay fixed)',
      notional: 4,
      max_loss_pct: 0.5,
      duration_impact: -0.4,
      factor: 'oil',
      ...fields,
    }).map(([k, v]) => `${k}: ${v}`),
    '---',
    '## SUMMARY',
    'Pay 10y as the term premium rebuilds.',
    '',
    '## ENTRY',
    'At 4.10%.',
    '',
    '## EXIT RULES',
    '- Stop 20bp against.',
  ].join('\n');

async function auditOf(path: string) {
  const a = await core.invoke('memory/audit', { path, limit: 20 });
  if (!a.ok) throw new Error(a.error.message);
  return a.value.entries;
}

describe('memory/write: the PM creates and edits Views and Expressions', () => {
  it('a new View gets the next id and version 1, written as the PM', async () => {
    const next = fs().nextId('views');
    expect(fs().exists(`/memory/views/${next}.md`)).toBe(false);
    const r = await core.invoke('memory/write', { path: '/memory/views/new.md', content: newView });
    expect(r.ok && r.value).toMatchObject({ path: `/memory/views/${next}.md`, id: next, version: 1, status: 'active' });

    const read = await core.invoke('memory/read', { path: `/memory/views/${next}.md`, depth: 'full' });
    expect(read.ok && read.value.record).toMatchObject({ title: 'Term premium rebuilds in long-end USD', confidence: 0.6, version: 1 });
    expect((await auditOf(`/memory/views/${next}.md`)).map((e) => [e.actor, e.operation])).toEqual([['pm', 'create']]);
  });

  it('an edit that names the current version becomes version 2; version 1 is archived and the change is audited as the PM', async () => {
    const path = '/memory/views/V-002.md';
    const before = await core.invoke('memory/read', { path, depth: 'full' });
    if (!before.ok) throw new Error(before.error.message);
    expect(before.value.record?.version).toBe(1);
    const edited = before.value.content.replace('confidence: 0.6', 'confidence: 0.35');

    const r = await core.invoke('memory/write', { path, content: edited, expectedVersion: 1 });
    expect(r.ok && r.value).toMatchObject({ path, id: 'V-002', version: 2 });

    const after = await core.invoke('memory/read', { path });
    expect(after.ok && after.value.record).toMatchObject({ confidence: 0.35, version: 2 });
    const h = await core.invoke('memory/history', { path });
    expect(h.ok && h.value.versions.map((v) => v.confidence)).toEqual([0.6]);
    expect((await auditOf(path)).map((e) => [e.actor, e.operation])[0]).toEqual(['pm', 'update']);
    const archived = (await auditOf('/memory/.archive/views/'))[0]!;
    expect([archived.actor, archived.operation, archived.path]).toEqual(['pm', 'archive', h.ok && h.value.versions[0]!.archivePath]);
  });

  it('an edit from a stale version is refused as a conflict and changes nothing', async () => {
    const path = '/memory/views/V-003.md';
    const original = fs().readFile(path);
    // Someone else (here the analyst) changes the View after the PM opened version 1.
    await fs().writeFile(path, original.replace(/^confidence: .*$/m, 'confidence: 0.2'), { actor: 'agent' });
    const theirs = fs().readFile(path);
    const audited = (await auditOf(path)).length;

    const r = await core.invoke('memory/write', { path, content: original.replace(/^# (.*)$/m, '# $1 (PM edit)'), expectedVersion: 1 });
    expect(r.ok).toBe(false);
    if (r.ok) return;
    expect(r.error.code).toBe('conflict');
    expect(r.error.message).toMatch(/changed by someone else.*version 1.*now version 2/);
    expect(fs().readFile(path)).toBe(theirs);
    expect(fs().history(path).versions).toHaveLength(1);
    expect(await auditOf(path)).toHaveLength(audited);
  });

  it('two saves of the same version at once: one lands, the other is refused as a conflict instead of overwriting it', async () => {
    const path = '/memory/views/V-004.md';
    const original = fs().readFile(path);
    const mine = original.replace(/^# (.*)$/m, '# $1 (window A)');
    const theirs = original.replace(/^# (.*)$/m, '# $1 (window B)');
    const [a, b] = await Promise.all([
      core.invoke('memory/write', { path, content: mine, expectedVersion: 1 }),
      core.invoke('memory/write', { path, content: theirs, expectedVersion: 1 }),
    ]);
    expect([a.ok, b.ok]).toEqual([true, false]);
    expect(b.ok || b.error.code).toBe('conflict');
    expect(fs().readFile(path)).toBe(mine);
    expect(fs().history(path).versions).toHaveLength(1);
  });

  it('an Expression the PM writes as active lands proposed, without approval stamps, until it is approved', async () => {
    const r = await core.invoke('memory/write', {
      path: '/memory/expressions/new.md',
      content: expression({ status: 'active', approved_by: 'pm', activated_at: '2026-11-01T00:00:00.000Z' }),
    });
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(r.value.status).toBe('proposed');
    expect(r.value.message).toMatch(/saved as proposed/);
    const info = fs().recordInfo(r.value.path)!;
    expect(info.status).toBe('proposed');
    expect(info.header).not.toHaveProperty('approved_by');
    expect(info.header).not.toHaveProperty('activated_at');
    expect((await auditOf(r.value.path)).map((e) => e.actor)).toEqual(['pm']);
  });

  it('a live Expression is not edited here (that would change capital without an approval)', async () => {
    const path = '/memory/expressions/E-001.md';
    const before = fs().readFile(path);
    expect(fs().recordInfo(path)?.status).toBe('active');
    const r = await core.invoke('memory/write', { path, content: before.replace(/^notional: .*$/m, 'notional: 40'), expectedVersion: 1 });
    expect(r.ok || r.error.code).toBe('forbidden');
    expect(r.ok || r.error.message).toMatch(/E-001 is active.*replaces: E-001/);
    expect(fs().readFile(path)).toBe(before);
  });

  it('malformed markdown comes back as invalid_input naming the line, and nothing is written', async () => {
    const next = fs().nextId('views');
    const broken = newView.replace('scope: US rates', 'this line has no colon');
    const r = await core.invoke('memory/write', { path: '/memory/views/new.md', content: broken });
    expect(r.ok).toBe(false);
    if (r.ok) return;
    expect(r.error.code).toBe('invalid_input');
    expect(r.error.message).toMatch(/^Line 4: expected a header line/);
    expect(r.error.issues?.[0]?.path).toEqual(['content', 4]);
    expect(fs().nextId('views')).toBe(next);

    const noTitle = await core.invoke('memory/write', { path: '/memory/views/new.md', content: 'status: active\n---\n## SUMMARY\nx' });
    expect(noTitle.ok || [noTitle.error.code, noTitle.error.issues?.[0]?.path]).toEqual(['invalid_input', ['content', 1]]);
  });

  it('an Expression that breaks a hard limit is refused naming the rule, its value and the limit, and is not written', async () => {
    const next = fs().nextId('expressions');
    const count = fs().listDir('/memory/expressions/').total;
    const r = await core.invoke('memory/write', { path: '/memory/expressions/new.md', content: expression({ status: 'proposed', max_loss_pct: 7.5 }) });
    expect(r.ok).toBe(false);
    if (r.ok) return;
    expect(r.error.code).toBe('guardrail_violation');
    expect(r.error.message).toMatch(/max_single_risk: value 7\.5, limit 5\b/);
    expect(r.error.issues?.map((i) => i.path)).toEqual([['guardrails', 'max_single_risk', 7.5, 5]]);
    expect(fs().listDir('/memory/expressions/').total).toBe(count);
    expect(fs().nextId('expressions')).toBe(next);
  });

  it('only Views and Expressions are written here, and an edit needs a record that exists', async () => {
    const pk = await core.invoke('memory/write', { path: '/memory/pk/new.md', content: '# new — Size down into CPI\nweight: 0.5\n---\n## SUMMARY\nx' });
    expect(pk.ok || [pk.error.code, pk.error.message]).toEqual(['invalid_input', expect.stringMatching(/Views and Expressions/)]);
    const missing = await core.invoke('memory/write', { path: '/memory/views/V-999.md', content: '# V-999 — Nothing\nstatus: active\n---\n## SUMMARY\nx' });
    expect(missing.ok || missing.error.code).toBe('not_found');
    expect(fs().exists('/memory/views/V-999.md')).toBe(false);
  });
});
