import { describe, expect, it } from 'vitest';
import { checkExpression, formatViolations } from './check';
import { shownFigure } from './figures';
import { defaultGuardrailLimits as limits } from './limits';

const views = new Set(['V-001']);
const ctx = { viewExists: (id: string) => views.has(id) };
const portfolio = { gross: 150, factors: { usd: 30, us_rates: 40 } };
const good = { viewId: 'V-001', maxLossPct: 1.5, notional: 20, durationImpact: 0.8, factor: 'usd' };

describe('guardrails', () => {
  it('lets a compliant Expression through', () => {
    // usd share after: (30 + 20) / 170 = 29.4% < 30%
    expect(checkExpression(good, portfolio, limits, ctx)).toEqual([]);
  });

  it('blocks a trade whose max loss exceeds the single-risk limit and says by how much', () => {
    const v = checkExpression({ ...good, maxLossPct: 6.5 }, portfolio, limits, ctx);
    expect(v).toEqual([expect.objectContaining({ rule: 'max_single_risk', actual: 6.5, limit: 5 })]);
  });

  it('adds the notional to portfolio gross before comparing with the gross limit', () => {
    // 150 + 60 = 210 > 200; usd share (30+60)/210 = 42.9% > 30
    const v = checkExpression({ ...good, notional: 60 }, portfolio, limits, ctx);
    expect(v.map((x) => [x.rule, x.actual, x.limit])).toEqual([
      ['max_gross_exposure', 210, 200],
      ['max_factor_concentration', 42.857143, 30],
    ]);
  });

  it('checks duration contribution in absolute value (a short is as risky as a long)', () => {
    const v = checkExpression({ ...good, durationImpact: -5.5 }, portfolio, limits, ctx);
    expect(v).toEqual([expect.objectContaining({ rule: 'max_duration_contribution', actual: 5.5 })]);
  });

  it('checks factor concentration, which the seed configured but never checked', () => {
    const v = checkExpression({ ...good, factor: 'us_rates', notional: 15 }, portfolio, limits, ctx);
    // (40 + 15) / 165 = 33.3%
    expect(v).toEqual([expect.objectContaining({ rule: 'max_factor_concentration', actual: 33.333333, limit: 30 })]);
  });

  it('requires every Expression to link to an existing View', () => {
    expect(checkExpression({ ...good, viewId: undefined }, portfolio, limits, ctx)[0].rule).toBe('expression_requires_view');
    expect(checkExpression({ ...good, viewId: 'V-999' }, portfolio, limits, ctx)[0]).toMatchObject({ rule: 'expression_requires_view', actual: 'V-999' });
  });

  it('fails closed: a missing or non-numeric risk field blocks the trade (an injected "1e9" string is still checked)', () => {
    const v = checkExpression({ viewId: 'V-001', maxLossPct: 'small', notional: '1e9', durationImpact: undefined, factor: 'usd' }, portfolio, limits, ctx);
    expect(v.map((x) => x.rule).sort()).toEqual(['max_factor_concentration', 'max_gross_exposure', 'missing_risk_field', 'missing_risk_field']);
  });

  it('fails closed on a missing factor: a trade naming none is refused naming `factor`, instead of skipping the concentration limit', () => {
    // What the PM would see go wrong: a trade with no `factor:` line sailed past the 30% limit.
    for (const factor of [undefined, '', '   ', '!!!']) {
      const v = checkExpression({ ...good, factor }, portfolio, limits, ctx);
      expect(v).toEqual([expect.objectContaining({ rule: 'missing_risk_field', limit: 'a factor name' })]);
      expect(v[0]!.message).toMatch(/^factor must name the risk factor/);
    }
  });

  it('fails closed while a live Expression added to the book names no factor: no share can be shown to fit', () => {
    const v = checkExpression(good, { ...portfolio, unfactored: ['E-007'] }, limits, ctx);
    expect(v).toEqual([expect.objectContaining({ rule: 'missing_risk_field', actual: 'E-007', limit: 'a readable factor' })]);
    expect(v[0]!.message).toContain('E-007 has no readable factor');
  });

  it('formats violations with rule, actual value and limit for the tool result', () => {
    const text = formatViolations(checkExpression({ ...good, maxLossPct: 7 }, portfolio, limits, ctx));
    expect(text).toMatch(/^BLOCKED by guardrails \(1 hard violation\):/);
    expect(text).toContain('max_single_risk: actual 7, limit 5');
    expect(formatViolations([])).toBe('Guardrails: all limits pass.');
  });
});

describe('guardrail messages print rounded percentages', () => {
  // A PM reading "31.893688% of gross exposure" sees noise, not a figure; one decimal is what they quote.
  it('says 42.9%, not 42.857143%, for a factor share', () => {
    const v = checkExpression({ ...good, notional: 60 }, portfolio, limits, ctx);
    const msg = v.find((x) => x.rule === 'max_factor_concentration')?.message ?? '';
    expect(msg).toContain('usd would be 42.9% of gross exposure');
  });

  it('keeps a breach visibly above its limit instead of rounding it onto the limit', () => {
    // 5.04 rounded to one decimal is 5.0, which would read "5% exceeds the 5% limit".
    const v = checkExpression({ ...good, maxLossPct: 5.04 }, portfolio, limits, ctx);
    expect(v[0]?.message).toBe('Max loss 5.04% of NAV exceeds the 5% single-trade limit.');
  });

  it('rounds a share to one decimal everywhere through one helper', () => {
    expect(shownFigure(31.893688)).toBe('31.9');
    expect(shownFigure(30.04, 30)).toBe('30.04');
    expect(shownFigure(0.256, undefined, 2)).toBe('0.26');
  });
});
