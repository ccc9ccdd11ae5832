import { describe, expect, it } from 'vitest';
import { openDatabase } from '../store';
import { checkExpression } from './check';
import { guardrailChecksFor, measureChecks, recordGuardrailCheck } from './check-log';
import { defaultGuardrailLimits as limits } from './limits';

const book = { gross: 150, factors: { usd: 30, us_rates: 40 } };
const header = { view_id: 'V-001', max_loss_pct: '1.5', notional: 20, duration_impact: '-0.8', factor: 'usd' };
const check = (h: Record<string, unknown>) =>
  checkExpression(
    { viewId: h.view_id as string, maxLossPct: h.max_loss_pct, notional: h.notional, durationImpact: h.duration_impact, factor: h.factor as string },
    book,
    limits,
    { viewExists: (id) => id === 'V-001' },
  );

describe('guardrail check log', () => {
  it('measures every limit of a passing trade with the figure it makes it', () => {
    // If this failed, a trade that passed would be recorded without the figures a PM needs to see how close it came.
    const checks = measureChecks(header, book, limits, check(header));
    expect(checks.map((c) => [c.rule, c.value, c.limit, c.pass])).toEqual([
      ['expression_requires_view', 'V-001', 'an existing View', true],
      ['max_single_risk', 1.5, 5, true],
      ['max_gross_exposure', 170, 200, true],
      ['max_factor_concentration', 29.411765, 30, true], // (30 + 20) / 170
      ['max_duration_contribution', 0.8, 5, true],
    ]);
  });

  it("takes pass or fail from the check's own violations, with the violation's figure", () => {
    // If this failed, the record could say "pass" where the write was blocked (or the reverse).
    const big = { ...header, notional: 60 }; // 150 + 60 = 210 > 200; usd (30 + 60) / 210 = 42.9% > 30
    const violations = check(big);
    const checks = measureChecks(big, book, limits, violations);
    expect(checks.filter((c) => !c.pass).map((c) => [c.rule, c.value])).toEqual([
      ['max_gross_exposure', 210],
      ['max_factor_concentration', 42.857143],
    ]);
    expect(violations.map((v) => v.rule).sort()).toEqual(
      checks
        .filter((c) => !c.pass)
        .map((c) => c.rule)
        .sort(),
    );
  });

  it('fails a limit it could not measure, as the check fails closed', () => {
    // If this failed, a trade with an unreadable max loss would be recorded as passing max_single_risk.
    const bad = { ...header, max_loss_pct: 'a lot' };
    const checks = measureChecks(bad, book, limits, check(bad));
    expect(checks.find((c) => c.rule === 'missing_risk_field')).toMatchObject({ value: 'a lot', pass: false });
    expect(checks.find((c) => c.rule === 'max_single_risk')).toMatchObject({ value: null, pass: false });
  });

  it('keeps each check in order in a real database, and refuses to change or delete one', () => {
    // If this failed, the figures behind a booked trade could be lost or rewritten after the fact.
    const db = openDatabase(':memory:');
    try {
      const checks = measureChecks(header, book, limits, []);
      const base = { path: '/memory/expressions/E-001.md', actor: 'pm', bookAsOf: '2026-11-20', checks };
      recordGuardrailCheck(db, { ...base, at: '2026-11-28T00:00:01.000Z', stage: 'write', outcome: 'written', actor: 'agent', sessionId: 'sess_1' });
      recordGuardrailCheck(db, { ...base, at: '2026-11-28T00:00:02.000Z', stage: 'approve', outcome: 'refused', checks: [{ ...checks[1]!, pass: false }] });
      const back = guardrailChecksFor(db, base.path);
      expect(back.map((r) => [r.stage, r.outcome, r.passed, r.actor, r.sessionId])).toEqual([
        ['write', 'written', true, 'agent', 'sess_1'],
        ['approve', 'refused', false, 'pm', null],
      ]);
      expect(back[0]!.checks).toEqual(checks);
      expect(guardrailChecksFor(db, '/memory/expressions/E-002.md')).toEqual([]);
      expect(() => db.prepare("UPDATE guardrail_checks SET passed = 1 WHERE outcome = 'refused'").run()).toThrow(/append-only/);
      expect(() => db.prepare('DELETE FROM guardrail_checks').run()).toThrow(/append-only/);
    } finally {
      db.close();
    }
  });
});
