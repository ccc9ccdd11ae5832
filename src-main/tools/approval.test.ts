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
  `# new — Long EUR rates receiver\nstatus: active\nview_id: V-002\ninstrument: EUR 2y swap\nnotional: ${notional}\nmax_loss_pct: 1.5\nduration_impact: 0.6\n---\n## SUMMARY\nReceive EUR 2y.\n`;

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

  it('will not approve an Expression that is already active or unknown', async () => {
    await expect(approveExpression(t.ws.fs, 'E-001', defaultGuardrailLimits)).rejects.toMatchObject({ code: 'conflict' });
    await expect(approveExpression(t.ws.fs, 'E-777', defaultGuardrailLimits)).rejects.toMatchObject({ code: 'not_found' });
  });
});
