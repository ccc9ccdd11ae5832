import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ReviewLedger } from '../../executor';
import { createCore, type Core } from '../core';

let dir: string;
let core: Core;
beforeEach(async () => {
  dir = mkdtempSync(join(tmpdir(), 'forge-checks-'));
  core = createCore({ dataDir: dir, mode: 'test' });
  await core.context.memory.ready;
});
afterEach(async () => {
  await core.close();
  rmSync(dir, { recursive: true, force: true });
});

const oversized = (id: string) =>
  [
    `# ${id} — Receive 5y SOFR, oversized`,
    'status: proposed',
    'view_id: V-001',
    'instrument: USD 5y SOFR swap (receive fixed)',
    'notional: 20',
    'max_loss_pct: 6',
    'factor: us_rates',
    'duration_impact: 1.5',
    '---',
    '## SUMMARY',
    'Receive 5y to express two more Fed cuts.',
    '',
  ].join('\n');

describe('expressions/checks — the guardrail table and review verdict on the Expression page', () => {
  it('lists every limit for a live seed Expression, passing and failing, with the figure it makes', async () => {
    const r = await core.invoke('expressions/checks', { id: 'E-001' });
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    const book = await core.invoke('portfolio/book', {});
    if (!book.ok) throw new Error('book');
    const byRule = Object.fromEntries(r.value.checks.map((c) => [c.rule, c]));
    expect(r.value.checks.map((c) => c.rule)).toEqual([
      'expression_requires_view',
      'max_single_risk',
      'max_gross_exposure',
      'max_factor_concentration',
      'max_duration_contribution',
    ]);
    expect(r.value.basis).toBe('book');
    expect(r.value.checks.filter((c) => !c.pass)).toEqual([]);
    expect(byRule.max_factor_concentration!.value).toBeCloseTo(((book.value.factors.us_rates ?? 0) / book.value.gross) * 100, 4);
    expect(byRule.expression_requires_view).toMatchObject({ value: 'V-001', pass: true });
    expect(byRule.max_single_risk).toMatchObject({ value: 1.2, limit: 5 });
    // E-001 is already in the book: adding it again would show the PM a gross 12 points too high.
    expect(byRule.max_gross_exposure!.value).toBeCloseTo(book.value.gross, 6);
    expect(byRule.max_duration_contribution).toMatchObject({ value: 1.1, limit: 5 });
    expect(r.value.status).toBe('active');
    expect(r.value.review).toBeNull();
    // The page prints a share the PM can read (one decimal), not 31.893688%.
    for (const c of r.value.checks) expect(c.message).not.toMatch(/\d\.\d{3,}%/);
    expect(byRule.max_factor_concentration!.message).toMatch(/^us_rates is \d+(\.\d)?% of gross exposure\.$/);
  });

  it('fails exactly the rows that Approve refuses on, with the same figures', async () => {
    const fs = core.context.memory.fs;
    // Written directly (the PM pipeline would refuse it): a proposal the book has since outgrown.
    await fs.writeFile('/memory/expressions/E-050.md', oversized('E-050'), { actor: 'agent', sessionId: 'sess_big' });
    const checks = await core.invoke('expressions/checks', { id: 'E-050' });
    const approve = await core.invoke('expressions/approve', { id: 'E-050' });
    if (!checks.ok || !approve.ok) throw new Error('call failed');
    expect(approve.value.approved).toBe(false);
    expect(checks.value.basis).toBe('approval');
    const failing = checks.value.checks.filter((c) => !c.pass);
    expect(failing.map((c) => [c.rule, c.value, c.limit])).toEqual(approve.value.violations.map((v) => [v.rule, v.actual, v.limit]));
    expect(failing.find((c) => c.rule === 'max_single_risk')).toMatchObject({ value: 6, limit: 5 });
    expect(checks.value.checks.find((c) => c.rule === 'max_duration_contribution')).toMatchObject({ pass: true, value: 1.5 });
  });

  it('shows a missing View and an unreadable notional as failing rows, not as passes', async () => {
    const fs = core.context.memory.fs;
    const text = oversized('E-051')
      .replace('view_id: V-001', 'view_id: V-999')
      .replace('notional: 20', 'notional: lots')
      .replace('max_loss_pct: 6', 'max_loss_pct: 1');
    await fs.writeFile('/memory/expressions/E-051.md', text, { actor: 'agent' });
    const r = await core.invoke('expressions/checks', { id: 'E-051' });
    if (!r.ok) throw new Error(r.error.message);
    const rows = r.value.checks.map((c) => [c.rule, c.pass, c.value]);
    expect(rows).toContainEqual(['expression_requires_view', false, 'V-999']);
    expect(rows).toContainEqual(['missing_risk_field', false, 'lots']);
    expect(rows).toContainEqual(['max_gross_exposure', true, null]);
    expect(rows).toContainEqual(['max_single_risk', true, 1]);
  });

  it('shows a proposal with no factor as failing concentration, as Approve refuses it (it used to read "not measured" and pass)', async () => {
    const fs = core.context.memory.fs;
    const text = oversized('E-052').replace('factor: us_rates\n', '').replace('notional: 20', 'notional: 2').replace('max_loss_pct: 6', 'max_loss_pct: 1');
    await fs.writeFile('/memory/expressions/E-052.md', text, { actor: 'agent' });
    const checks = await core.invoke('expressions/checks', { id: 'E-052' });
    const approve = await core.invoke('expressions/approve', { id: 'E-052' });
    if (!checks.ok || !approve.ok) throw new Error('call failed');
    expect(approve.value.approved).toBe(false);
    expect(approve.value.violations.map((v) => [v.rule, v.limit])).toEqual([['missing_risk_field', 'a factor name']]);
    const rows = checks.value.checks.map((c) => [c.rule, c.pass]);
    expect(rows).toContainEqual(['missing_risk_field', false]);
    expect(rows).toContainEqual(['max_factor_concentration', false]);
  });

  it('finds the review filed for the exact text, and says when it only has a review from the writing session', async () => {
    const fs = core.context.memory.fs;
    const ledger = new ReviewLedger(fs.store.db);
    const text = oversized('E-052').replace('max_loss_pct: 6', 'max_loss_pct: 1').replace('notional: 20', 'notional: 2');
    await fs.writeFile('/memory/expressions/E-052.md', text, { actor: 'agent', sessionId: 'sess_r' });
    // Filed under the stored text (the id in the title line does not change the key).
    ledger.record('sess_r', fs.readFile('/memory/expressions/E-052.md').replace('# E-052', '# new'), {
      verdict: 'approve_with_notes',
      focus: 'sizing',
      reasons: 'Size from the stop; fine at 2% notional.',
    });
    const r = await core.invoke('expressions/checks', { id: 'E-052' });
    if (!r.ok) throw new Error(r.error.message);
    expect(r.value.review).toMatchObject({ verdict: 'approve_with_notes', focus: 'sizing', sessionId: 'sess_r', matched: true });
    expect(r.value.review?.reasons).toContain('Size from the stop');

    ledger.record('sess_d', 'a draft that was later rewritten', { verdict: 'revise', focus: 'risk', reasons: 'Too big.' });
    await fs.writeFile('/memory/expressions/E-053.md', text.replace('# E-052 — Receive 5y SOFR, oversized', '# E-053 — Receive 5y SOFR, resized'), {
      actor: 'agent',
      sessionId: 'sess_d',
    });
    const d = await core.invoke('expressions/checks', { id: 'E-053' });
    if (!d.ok) throw new Error(d.error.message);
    expect(d.value.review).toMatchObject({ verdict: 'revise', matched: false });
  });

  it('answers an unknown Expression with not_found and a malformed id with invalid_input', async () => {
    const missing = await core.invoke('expressions/checks', { id: 'E-999' });
    expect(!missing.ok && missing.error.code).toBe('not_found');
    const bad = await core.invoke('expressions/checks', { id: 'V-001' });
    expect(!bad.ok && bad.error.code).toBe('invalid_input');
  });
});
