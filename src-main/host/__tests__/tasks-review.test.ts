import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runAgent } from '../../tools/loop';
import { Reviewer, ReviewLedger } from '../../executor';
import { defaultGuardrailLimits, formatBook, readBook } from '../../guardrails';
import { ScriptedSubAgents } from '../../executor/testing';
import { analystTools, runTool } from '../../tools';
import { collectTool } from '../../tools/collect';
import { reviewerToolFactory, reviewTool } from '../../tools/review';
import { openTestWorkspace, type TestWorkspace } from '../../tools/testing';
import { answer, harness, removeDir, testSkillsRoot } from './tasks-harness';

let tw: TestWorkspace;
let skillsRoot: string;
beforeAll(async () => {
  tw = await openTestWorkspace();
  skillsRoot = testSkillsRoot();
});
afterAll(() => {
  tw.close();
  removeDir(skillsRoot);
});

const expression = `# new — Pay 2y SOFR into the payroll window
view_id: V-001
category: macro_regime
notional: 150
max_loss_pct: 1.2
duration_impact: 0.4
---
## SUMMARY
Pay 2y SOFR; a macro regime Expression of V-001, sized from the stop.`;

describe('review', () => {
  it('gives a fresh reviewer the portfolio, the matching calibration and relevant PK, and files its verdict for the write gate', async () => {
    const model = new ScriptedSubAgents({
      'review:': {
        turns: [
          {
            expect: {
              role: 'review',
              contains: [
                'OUTPUT TO REVIEW:\n# new — Pay 2y SOFR',
                'REVIEW FOCUS:\nsizing against the stop',
                'PORTFOLIO:\n# book — Computed book (read-only)',
                'CALIBRATION (macro_regime):\n# macro_regime',
                'PROCESS KNOWLEDGE:\n# PK-001 — Size rate trades from the stop',
              ],
            },
            reply: { toolCalls: [{ name: 'read', input: { path: '/memory/expressions/E-001.md' } }] },
          },
          { expect: { toolResult: 'read', isError: false }, reply: { text: 'Overlaps E-001 in the front end; size is fine.\nVERDICT: approve_with_notes' } },
        ],
      },
    });
    const ledger = new ReviewLedger(tw.ws.store.db);
    const reviewer = new Reviewer({
      model,
      runLoop: runAgent,
      toolsFor: reviewerToolFactory({ available: analystTools({ providers: tw.providers }), contextFor: (sid) => tw.context({ sessionId: sid }) }),
      ledger,
      portfolio: () => formatBook(readBook(tw.ws.fs, defaultGuardrailLimits)),
    });
    const ctx = tw.context({ sessionId: 'sess_review' });
    expect(ledger.approvalFor('sess_review', expression)).toMatchObject({ approved: false, verdict: null });

    const r = await runTool([reviewTool(reviewer)], 'review', { output: expression, focus: 'sizing against the stop' }, ctx);
    expect(r.isError).toBeUndefined();
    expect(r.content).toBe(
      'VERDICT: approve_with_notes\nOverlaps E-001 in the front end; size is fine.\n[calibration: macro_regime | PK: PK-001]\n[recorded: this exact text may now be offered to the PM for approval]',
    );
    expect(model.finished).toBe(true);
    // The write tool's gate: the same Expression (after its id is assigned) is approved; an edited one is not.
    expect(ledger.approvalFor('sess_review', expression.replace('# new —', '# E-004 —'))).toMatchObject({ approved: true, verdict: 'approve_with_notes' });
    expect(ledger.approvalFor('sess_review', expression.replace('150', '300')).approved).toBe(false);
    expect(ledger.approvalFor('other_session', expression).approved).toBe(false);
  });

  it('blocks an Expression whose latest review said revise', () => {
    const ledger = new ReviewLedger(tw.ws.store.db);
    ledger.record('sess_rev2', expression, { verdict: 'approve', focus: 'x', reasons: 'fine' });
    ledger.record('sess_rev2', expression, { verdict: 'revise', focus: 'x', reasons: 'stop too wide' });
    const gate = ledger.approvalFor('sess_rev2', expression);
    expect(gate).toMatchObject({ approved: false, verdict: 'revise' });
    expect(gate.message).toContain('said revise');
  });
});

describe('collect', () => {
  it('collect("ready") returns only what finished since the last look and names what is still running', async () => {
    const h = await harness(
      { 'subagent:F': answer('Fast one.'), 'subagent:S': answer('Slow one.') },
      { tw, skillsRoot, model: { latencyMs: (k) => (k === 'subagent:S' ? 300 : 5) } },
    );
    try {
      const ctx = tw.context({ sessionId: 'sess_collect' });
      const tools = [collectTool(h.executor)];
      h.executor.submit('sess_collect', { id: 'F', skill: 'quick-note', objective: 'F' });
      h.executor.submit('sess_collect', { id: 'S', skill: 'quick-note', objective: 'S' });
      expect((await runTool(tools, 'collect', { target: 'ready' }, ctx)).content).toMatch(
        /^No tasks completed yet\.\n\(2 tasks still running: (S|F) (queued|running), (S|F) (queued|running)\)$/,
      );
      await h.executor.waitFor('sess_collect', 'F');
      const ready = await runTool(tools, 'collect', { target: 'ready' }, ctx);
      expect(ready.content).toBe('── F (ok) ──\nFast one.\n[full: /session/results/F.md]\n\n(1 task still running: S running)');
      expect((await runTool(tools, 'collect', { target: 'ready' }, ctx)).content).toBe('No tasks completed yet.\n(1 task still running: S running)');
      const all = await runTool(tools, 'collect', { target: 'all' }, ctx);
      expect(all.content).toBe('── F (ok) ──\nFast one.\n[full: /session/results/F.md]\n\n── S (ok) ──\nSlow one.\n[full: /session/results/S.md]');
      const unknown = await runTool(tools, 'collect', { target: 'nope' }, ctx);
      expect(unknown.isError).toBe(true);
      expect(unknown.content).toContain('No task "nope" in this session');
    } finally {
      await h.close();
    }
  });
});
