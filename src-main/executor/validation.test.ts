import { describe, expect, it } from 'vitest';
import { parseVerdict } from './validation';
import { parseReviewVerdict, reviewKey } from './review';

describe('validation verdict parsing', () => {
  it('reads PASS / REVISE / FAIL with feedback, so a weak output is not shown as validated', () => {
    const r = parseVerdict('VERDICT: REVISE\nFEEDBACK: The payroll scenario has no probability.\nAdd one.', false);
    expect(r.verdict).toBe('revise');
    expect(r.feedback).toBe('The payroll scenario has no probability.\nAdd one.');
    expect(r.contrastive).toBe(false);
    expect(parseVerdict('VERDICT: PASS\nFEEDBACK: weakest point is the ECB leg', false).verdict).toBe('pass');
    expect(parseVerdict('verdict: fail\nfeedback: wrong View', false).verdict).toBe('fail');
  });

  it("tolerates markdown emphasis and the seed's accept/reject words", () => {
    expect(parseVerdict('**VERDICT:** **PASS**', false).verdict).toBe('pass');
    expect(parseVerdict('VERDICT: accept', false).verdict).toBe('pass');
    const rej = parseVerdict('VERDICT: reject\nCOUNTERARGUMENT: Term premium, not cuts, drives 10y.\nFEEDBACK: address term premium', true);
    expect(rej.verdict).toBe('revise');
    expect(rej.counterargument).toBe('Term premium, not cuts, drives 10y.');
    expect(rej.feedback).toBe('address term premium');
  });

  it('never reads an answer without a verdict line as a pass', () => {
    const r = parseVerdict('Looks good to me overall.', false);
    expect(r.verdict).toBe('unclear');
    expect(r.feedback).toContain('no VERDICT line');
    expect(r.feedback).toContain('Looks good to me overall.');
  });

  it('reads the contrastive counterargument even when it comes before the verdict', () => {
    const r = parseVerdict('COUNTERARGUMENT: Oil could squeeze headline CPI.\nVERDICT: PASS', true);
    expect(r).toMatchObject({ verdict: 'pass', counterargument: 'Oil could squeeze headline CPI.', contrastive: true });
  });
});

describe('review verdict and ledger key', () => {
  it('takes the last VERDICT line of the reviewer and keeps the reasons', () => {
    const r = parseReviewVerdict('Sizing ignores PK-001.\nStop is too wide.\nVERDICT: approve_with_notes');
    expect(r.verdict).toBe('approve_with_notes');
    expect(r.reasons).toBe('Sizing ignores PK-001.\nStop is too wide.');
    expect(parseReviewVerdict('VERDICT: Revise — cut size').verdict).toBe('revise');
    expect(parseReviewVerdict('no idea').verdict).toBe('unclear');
  });

  it('files an Expression under the same key before and after its id is assigned', () => {
    const draft = '# new — Pay 2y SOFR\nview_id: V-001\n---\n## SUMMARY\nPay 2y.';
    const written = '# E-004 — Pay 2y SOFR\nview_id: V-001\n---\n## SUMMARY\nPay 2y.\n';
    expect(reviewKey(draft)).toBe(reviewKey(written));
    expect(reviewKey(draft)).not.toBe(reviewKey(draft.replace('Pay 2y.', 'Pay 5y.')));
  });
});
