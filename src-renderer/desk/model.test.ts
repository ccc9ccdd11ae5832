import { describe, expect, it } from 'vitest';
import { approvalSummary, bookTitle, grossLine, limitsText, parseLimits, usageShare } from './model';

describe('the Desk screen’s words for books and approvals', () => {
  it('says a book without limits can approve nothing, instead of showing a gross against a blank', () => {
    // A risk manager who saw "30 of" would not know the desk is failing closed.
    expect(grossLine({ gross: 30, limits: null })).toMatch(/no limits set: nothing can be approved/);
    expect(
      grossLine({ gross: 1250.5, limits: { maxGross: 2000, maxSingleRisk: 1, maxDuration: 1, maxFactorConcentration: 50, setBy: 'rita', setAt: '' } }),
    ).toBe('1,250.5 of 2,000');
  });

  it('names each broken limit’s book, so a PM sees whether the desk or their own book refused', () => {
    const s = approvalSummary({
      id: 'E-002',
      approved: false,
      changed: false,
      status: 'proposed',
      message: 'E-002 was not approved.',
      violations: [
        { rule: 'max_gross_exposure', actual: 60, limit: 50, message: 'Gross 60 over 50', book: 'desk' },
        { rule: 'max_single_risk', actual: 2, limit: 1, message: 'Risk 2 over 1', book: 'alice' },
      ],
    });
    expect(s.ok).toBe(false);
    expect(s.violations).toEqual(['Desk book: Gross 60 over 50', 'alice’s book: Risk 2 over 1']);
    expect(bookTitle({ kind: 'pm', ownerId: 'bob', bookId: 'bob' })).toBe('bob’s book');
  });

  it('refuses an empty, zero or oversized limit before sending it, naming the field', () => {
    const text = limitsText({ maxGross: 1000, maxSingleRisk: 5, maxDuration: 5, maxFactorConcentration: 100 });
    expect(parseLimits(text)).toEqual({ ok: true, limits: { maxGross: 1000, maxSingleRisk: 5, maxDuration: 5, maxFactorConcentration: 100 } });
    expect(parseLimits({ ...text, maxGross: '' })).toEqual({ ok: false, message: 'Gross must be a number above 0.' });
    expect(parseLimits({ ...text, maxDuration: '0' })).toMatchObject({ ok: false, message: expect.stringMatching(/^Duration/) });
    expect(parseLimits({ ...text, maxFactorConcentration: '150' })).toMatchObject({ ok: false, message: expect.stringMatching(/at most 100/) });
    expect(limitsText(null).maxGross).toBe('');
  });

  it('shows a limit’s bar full, never past its end, and empty when the limit is unset', () => {
    expect(usageShare(30, 60)).toBe(0.5);
    expect(usageShare(90, 60)).toBe(1);
    expect(usageShare(5, 0)).toBe(0);
  });
});
