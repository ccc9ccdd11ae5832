import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { defaultGuardrailLimits } from '../guardrails';
import { openTestWorkspace, type TestWorkspace } from '../tools/testing';
import { charterFor, CHARTER } from './prompt';
import { workspaceSnapshot, worstCalibration } from './workspace';

let t: TestWorkspace;
beforeEach(async () => {
  t = await openTestWorkspace();
});
afterEach(() => t.close());

describe('the prompt built from memory', () => {
  it('carries the book, its exposures and the hard limits, the active Views in id order and the top PK by weight', () => {
    const w = workspaceSnapshot(t.ws.fs, '- view-validation: reassess a View', defaultGuardrailLimits);
    // Computed from the snapshot's POSITIONS table, not copied from its prose.
    expect(w.portfolio).toContain('gross 142.5% NAV, net 38%, duration 3.1y, 3 open.');
    expect(w.portfolio).toContain('By factor (gross % NAV): fx 41, us_rates 40, eur_rates 31.5, equity 22, us_inflation 8.');
    expect(w.portfolio).toContain('max_loss_pct ≤ 5% NAV; gross incl. the trade ≤ 200% NAV');
    expect(w.viewIndex).toEqual(['V-001(US rates)', 'V-002(EUR rates)', 'V-003(FX)', 'V-004(US rates)']);
    expect(w.topPk).toEqual([
      'PK-001 (w 0.8): Size rate trades from the stop, not the conviction',
      'PK-003 (w 0.7): Check invalidation conditions before adding to a winner',
      'PK-002 (w 0.6): Payroll weeks deserve a pre-mortem on every front-end trade',
    ]);
  });

  it('names the worst-calibrated confidence band', () => {
    expect(worstCalibration(t.ws.fs)).toBe('macro_regime 0.6-0.8 band: 58% came true (bias -0.12).');
  });

  it('does not describe tools the run does not have', () => {
    const c = charterFor(['read', 'search', 'write', 'fetch', 'compact']);
    expect(c).not.toMatch(/dispatch|collect\(|review\(/);
    expect(c).toContain("Read depth='full' before anything that touches capital");
    expect(charterFor(['read', 'dispatch', 'review'])).toBe(CHARTER);
  });
});
