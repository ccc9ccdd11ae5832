import { describe, expect, it } from 'vitest';
import { measureChecks } from './check-log';
import { defaultGuardrailLimits as limits } from './limits';
import { readFigure, tradeFigures } from './trade-figures';

/**
 * One reading of a trade's figures serves the guardrail check log and the Expression page. If these
 * fail, the page would show a trade one size and the log another, or count a booked trade twice.
 */
const book = { gross: 150, factors: { usd: 30, us_rates: 40 } };
const header = { max_loss_pct: '-1.5%', notional: -20, duration_impact: '-0.8', factor: 'USD' };

describe('tradeFigures', () => {
  it('reads numbers and numeric text with a trailing %, and nothing else', () => {
    expect([readFigure(2), readFigure(' 2.5% '), readFigure('abc'), readFigure(''), readFigure(Number.POSITIVE_INFINITY), readFigure(null)]).toEqual([
      2,
      2.5,
      null,
      null,
      null,
      null,
    ]);
  });

  it('adds a proposal to the book once: gross with it, its factor share of that gross, sizes as absolute values', () => {
    expect(tradeFigures(header, book)).toEqual({ loss: 1.5, notional: -20, gross: 170, factor: 'usd', share: 29.411765, duration: 0.8 });
  });

  it('does not add a trade already in the book a second time', () => {
    const f = tradeFigures(header, book, { inBook: true });
    expect([f.gross, f.share]).toEqual([150, 20]);
  });

  it('leaves a figure it cannot read empty rather than guessing, and a factor share needs a factor', () => {
    const f = tradeFigures({ notional: 'lots', factor: ' ' }, book);
    expect(f).toEqual({ loss: null, notional: null, gross: null, factor: null, share: null, duration: null });
  });

  it('is what the check log stores, figure for figure', () => {
    const f = tradeFigures(header, book);
    const logged = Object.fromEntries(measureChecks(header, book, limits, []).map((c) => [c.rule, c.value]));
    expect([logged.max_single_risk, logged.max_gross_exposure, logged.max_factor_concentration, logged.max_duration_contribution]).toEqual([
      f.loss,
      f.gross,
      f.share,
      f.duration,
    ]);
  });
});
