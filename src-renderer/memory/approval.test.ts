import { describe, expect, it } from 'vitest';
import { awaitsDecision, cleanReason, decisionBanner, expressionIdOf, isDemoRecord, overBy, ruleLabel, withUnit } from './approval';

describe('the approval gate', () => {
  it('offers Approve/Reject only on a live proposed (or sent-back) Expression', () => {
    expect(awaitsDecision('/memory/expressions/E-004.md', 'proposed')).toBe(true);
    expect(awaitsDecision('/memory/expressions/E-004.md', 'review_required')).toBe(true);
    expect(awaitsDecision('/memory/expressions/E-004.md', 'active')).toBe(false);
    expect(awaitsDecision('/memory/expressions/E-004.md', null)).toBe(false);
    // An archived copy or a View is never decided from here.
    expect(awaitsDecision('/memory/.archive/expressions/E-004_20261121T090000000Z.md', 'proposed')).toBe(false);
    expect(awaitsDecision('/memory/views/V-001.md', 'proposed')).toBe(false);
    expect(expressionIdOf('/memory/expressions/E-012.md')).toBe('E-012');
  });

  it('says who is waiting on whom', () => {
    expect(decisionBanner('proposed')).toBe('Proposed by the analyst — awaiting your approval');
    expect(decisionBanner('proposed', 'pm')).toBe('Written by you — awaiting your approval');
    expect(decisionBanner('review_required')).toMatch(/review/);
  });

  it('labels demo records, and only them', () => {
    expect(isDemoRecord({ source: 'demo' })).toBe(true);
    expect(isDemoRecord({ source: 'Demo ' })).toBe(true);
    expect(isDemoRecord({ source: 'pm' })).toBe(false);
    expect(isDemoRecord({})).toBe(false);
  });

  it('shows a guardrail block as rule, value with its unit, limit, and how far over', () => {
    expect(ruleLabel('max_single_risk')).toBe('Single-trade risk');
    expect(ruleLabel('some_new_rule')).toBe('some new rule');
    expect(withUnit('max_single_risk', 6)).toBe('6 % of NAV');
    expect(withUnit('max_gross_exposure', 217.50001)).toBe('217.5 % of NAV');
    expect(withUnit('expression_requires_view', 'V-999')).toBe('V-999');
    expect(overBy(6, 5)).toBe('+1 (20% over)');
    expect(overBy(4, 5)).toBeNull();
    expect(overBy('V-999', 'an existing View')).toBeNull();
  });

  it('keeps a reject reason to one line of at most 300 characters', () => {
    expect(cleanReason('  too much\n US rates  ')).toBe('too much US rates');
    expect(cleanReason('x'.repeat(400))).toHaveLength(300);
    expect(cleanReason('   ')).toBe('');
  });
});
