import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { ConditionList, GuardrailTable, ReviewVerdict, SizingTable } from './parts';

const text = (html: string) => html.replace(/<[^>]+>/g, '|').replace(/\|+/g, '|');

describe('the Expression page’s guardrail table', () => {
  it('shows every rule with value, limit and Pass/Fail, numbers in right-aligned cells', () => {
    const html = renderToStaticMarkup(
      <GuardrailTable
        basis="approval"
        bookAsOf="2026-11-20T00:00:00Z"
        checks={[
          { rule: 'max_single_risk', value: 6, limit: 5, pass: false, message: 'Max loss 6% of NAV exceeds the 5% single-trade limit.' },
          { rule: 'max_duration_contribution', value: 1.5, limit: 5, pass: true, message: 'Duration contribution 1.5.' },
          { rule: 'max_gross_exposure', value: null, limit: 200, pass: true, message: 'Notional cannot be read.' },
        ]}
      />,
    );
    expect(text(html)).toContain('|Single-trade risk|Max loss 6% of NAV exceeds the 5% single-trade limit.|6 % of NAV|5 % of NAV|Fail|');
    expect(text(html)).toContain('|Duration contribution|Duration contribution 1.5.|1.5 years|5 years|Pass|');
    // Unmeasured is a dash, never a made-up zero.
    expect(text(html)).toContain('|Gross exposure after the trade|Notional cannot be read.|—|200 % of NAV|Pass|');
    expect(html).toContain('<td class="num">6 % of NAV</td>');
    expect(html).toContain('as Approve will check it');
  });

  // If this fails a rejected Expression's page promises an approval check that will never happen.
  it('does not say "as Approve will check it" on a rejected Expression', () => {
    const rejected = renderToStaticMarkup(<GuardrailTable basis="approval" status="rejected" bookAsOf="2026-11-20" checks={[]} />);
    expect(rejected).not.toContain('Approve will check');
    expect(rejected).toContain('This Expression is rejected and will not be approved');
    expect(renderToStaticMarkup(<GuardrailTable basis="approval" status="review_required" bookAsOf="2026-11-20" checks={[]} />)).toContain(
      'as Approve will check it',
    );
  });

  it('says a live trade’s figures are as it stands in the book', () => {
    expect(renderToStaticMarkup(<GuardrailTable basis="book" bookAsOf="2026-11-20" checks={[]} />)).toContain(
      'as it stands in the book (positions as of 2026-11-20)',
    );
  });
});

describe('invalidation conditions with their state', () => {
  it('labels each condition fired / not fired / not evaluated yet, and flags fired ones that are not the View’s own', () => {
    const html = renderToStaticMarkup(
      <ConditionList
        conditions={[
          { text: 'Payrolls above 200k twice', state: 'fired', basis: 'Fired in the morning review of 2026-03-02.', runId: 7 },
          { text: 'Core PCE hot', state: 'not_fired', basis: 'Not fired in the morning review of 2026-03-02.', runId: 7 },
          { text: 'ECB cuts first', state: 'unknown', basis: 'Not evaluated yet: no morning review has covered this View.', runId: null },
        ]}
        extra={['Oil spikes']}
      />,
    );
    expect(text(html)).toContain('|Fired|Payrolls above 200k twice|Fired in the morning review of 2026-03-02.|');
    expect(text(html)).toContain('|Not fired|Core PCE hot|');
    expect(text(html)).toContain('|Not evaluated yet|ECB cuts first|');
    expect(text(html)).toContain('|Fired|Oil spikes|Reported by the morning review, but not one of this View’s own conditions.|');
  });

  it('tells the PM what to add when the View has no conditions', () => {
    expect(renderToStaticMarkup(<ConditionList conditions={[]} extra={[]} />)).toContain('states no invalidation conditions');
  });
});

describe('the review verdict', () => {
  it('shows the verdict in words with its reasons, and warns when it was matched only by session', () => {
    const html = renderToStaticMarkup(
      <ReviewVerdict
        review={{ verdict: 'approve_with_notes', focus: 'sizing', reasons: 'Size from the stop.', at: '2026-03-02T07:00:00Z', sessionId: 's', matched: false }}
        reviewReason="View V-001 invalidated 2026-03-02"
      />,
    );
    expect(html).toContain('Approve with notes');
    expect(html).toContain('Size from the stop.');
    expect(html).toContain('may have been of an earlier draft');
    expect(html).toContain('Sent back for review: View V-001 invalidated 2026-03-02');
  });

  it('says plainly when no review is on file', () => {
    expect(renderToStaticMarkup(<ReviewVerdict review={null} />)).toContain('No reviewer verdict is on file');
  });
});

describe('sizing', () => {
  it('right-aligns numeric fields only', () => {
    const html = renderToStaticMarkup(
      <SizingTable
        fields={[
          { key: 'instrument', label: 'Instrument', value: 'USD 2y', numeric: false },
          { key: 'notional', label: 'Notional (% of NAV)', value: '12', numeric: true },
        ]}
      />,
    );
    expect(html).toContain('<td>USD 2y</td>');
    expect(html).toContain('<td class="num">12</td>');
  });
});
