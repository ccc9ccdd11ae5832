import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { defaultGuardrailLimits } from '../guardrails';
import { analystTools } from './analyst-tools';
import { approveExpression, rejectExpression } from './approval';
import { runTool } from './define';
import { openTestWorkspace, type TestWorkspace } from './testing';

let t: TestWorkspace;
beforeEach(async () => {
  t = await openTestWorkspace();
});
afterEach(() => t.close());

const proposal = (notional: number) =>
  `# new — Long EUR rates receiver\nstatus: active\nview_id: V-002\ninstrument: EUR 2y swap\nnotional: ${notional}\nmax_loss_pct: 1.5\nduration_impact: 0.6\nfactor: eur_swap_spread\n---\n## SUMMARY\nReceive EUR 2y.\n`;

async function propose(notional = 20): Promise<string> {
  const r = await runTool(analystTools({ providers: t.providers }), 'write', { path: '/memory/expressions/new.md', content: proposal(notional) }, t.context());
  expect(r.isError).toBeFalsy();
  return /E-\d+/.exec(r.content)![0];
}

describe('PM approval of Expressions', () => {
  it('moves a proposal to active as the PM once the guardrails pass again', async () => {
    const id = await propose();
    expect(t.ws.fs.recordInfo(`/memory/expressions/${id}.md`)!.status).toBe('proposed');
    const r = await approveExpression(t.ws.fs, id, defaultGuardrailLimits);
    expect(r).toMatchObject({ id, approved: true, status: 'active', violations: [] });
    const info = t.ws.fs.recordInfo(`/memory/expressions/${id}.md`)!;
    expect(info.status).toBe('active');
    expect(info.header.approved_by).toBe('pm');
    const audit = t.ws.store.audit.list({ path: `/memory/expressions/${id}.md`, limit: 5 });
    expect(audit[0]).toMatchObject({ actor: 'pm', operation: 'approve' });
  });

  it('refuses approval when the book moved and the trade would now break a limit', async () => {
    const id = await propose(40);
    // The PM's positions grow after the proposal: 142.5 → 175 gross; 175 + 40 > 200.
    const state = t.ws.fs.readFile('/portfolio/state.md').trimEnd() + '\n| Gold futures, long | gold | 32.5 | 0 | |\n';
    await t.ws.fs.writeFile('/portfolio/state.md', state, { actor: 'pm' });
    const r = await approveExpression(t.ws.fs, id, defaultGuardrailLimits);
    expect(r.approved).toBe(false);
    expect(r.violations.map((v) => [v.rule, v.actual, v.limit])).toEqual([['max_gross_exposure', 215, 200]]);
    expect(t.ws.fs.recordInfo(`/memory/expressions/${id}.md`)!.status).toBe('proposed');
  });

  it("rejects a proposal with the PM's reason and starts a Counterfactual", async () => {
    const id = await propose();
    const r = await rejectExpression(t.ws.fs, id, 'Too much EUR duration this week', defaultGuardrailLimits);
    expect(r.counterfactual).toBe('CF-001');
    const cf = t.ws.fs.readFile('/memory/counterfactuals/CF-001.md');
    expect(cf).toContain(`expression: ${id}`);
    expect(cf).toContain('reason: Too much EUR duration this week');
    expect(t.ws.fs.recordInfo(`/memory/expressions/${id}.md`)!.status).toBe('rejected');
  });

  it('will not approve an unknown Expression, nor one the PM already rejected', async () => {
    await expect(approveExpression(t.ws.fs, 'E-777', defaultGuardrailLimits)).rejects.toMatchObject({ code: 'not_found' });
    const id = await propose();
    await rejectExpression(t.ws.fs, id, 'no', defaultGuardrailLimits);
    await expect(approveExpression(t.ws.fs, id, defaultGuardrailLimits)).rejects.toMatchObject({ code: 'conflict' });
    await expect(rejectExpression(t.ws.fs, 'E-001', 'no', defaultGuardrailLimits)).rejects.toMatchObject({ code: 'conflict' });
  });

  it('a second Approve of the same Expression is success with a note, and writes nothing more', async () => {
    const id = await propose();
    const path = `/memory/expressions/${id}.md`;
    await approveExpression(t.ws.fs, id, defaultGuardrailLimits);
    const before = t.ws.fs.readFile(path);
    const again = await approveExpression(t.ws.fs, id, defaultGuardrailLimits);
    // Before: ConflictError "E-004 is active; only a proposed Expression…" shown to the PM after a double-click.
    expect(again).toEqual({ id, approved: true, status: 'active', violations: [], message: `${id} was already active; nothing changed.` });
    expect(t.ws.fs.readFile(path)).toBe(before);
    const ops = t.ws.store.audit.list({ path, limit: 10 }).map((r) => r.operation);
    expect(ops.filter((o) => o === 'approve')).toHaveLength(1);
  });

  it("audits a rejection as 'reject' (not 'update') with the reason in the record; the Counterfactual as its own create", async () => {
    const id = await propose();
    const path = `/memory/expressions/${id}.md`;
    await rejectExpression(t.ws.fs, id, 'Too much  EUR\nduration', defaultGuardrailLimits);
    const row = t.ws.store.audit.list({ path, limit: 1 })[0]!;
    expect(row).toMatchObject({ actor: 'pm', operation: 'reject' });
    // The audit row names the version that carries the reason (the audit table has no reason column).
    expect(t.ws.fs.recordInfo(path)!.header.rejection_reason).toBe('Too much EUR duration');
    expect(row.content_hash).toBeTruthy();
    expect(t.ws.store.audit.list({ path: '/memory/counterfactuals/CF-001.md', limit: 1 })[0]).toMatchObject({ actor: 'pm', operation: 'create' });
  });

  it('rejecting twice (even at once) is one rejection, one Counterfactual, and the first reason stands', async () => {
    const id = await propose();
    const path = `/memory/expressions/${id}.md`;
    const [a, b] = await Promise.all([
      rejectExpression(t.ws.fs, id, 'first reason', defaultGuardrailLimits),
      rejectExpression(t.ws.fs, id, 'second reason', defaultGuardrailLimits),
    ]);
    expect([a.status, b.status]).toEqual(['rejected', 'rejected']);
    expect(a.counterfactual).toBe('CF-001');
    expect(b).toEqual({ id, status: 'rejected', counterfactual: 'CF-001', message: `${id} was already rejected; nothing changed.` });
    const later = await rejectExpression(t.ws.fs, id, 'third reason', defaultGuardrailLimits);
    expect(later.message).toContain('already rejected');
    expect(t.ws.fs.exists('/memory/counterfactuals/CF-002.md')).toBe(false);
    expect(t.ws.fs.recordInfo(path)!.header.rejection_reason).toBe('first reason');
    const ops = t.ws.store.audit.list({ path, limit: 10 }).map((r) => r.operation);
    expect(ops.filter((o) => o === 'reject')).toHaveLength(1);
  });
});
