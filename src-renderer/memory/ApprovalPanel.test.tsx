import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { GuardrailBlock } from './ApprovalPanel';

const text = (html: string) => html.replace(/<[^>]+>/g, '|').replace(/\|+/g, '|');

describe('a guardrail block at approval time', () => {
  it('lists each broken limit with the value the trade would reach, the limit and how far over', () => {
    // The violations the core returned for the demo's oversized 5y receiver.
    const html = renderToStaticMarkup(
      <GuardrailBlock
        result={{
          id: 'E-004',
          message: 'E-004 was not approved.',
          violations: [
            { rule: 'max_single_risk', actual: 6, limit: 5, message: 'Max loss 6% of NAV exceeds the 5% single-trade limit.' },
            { rule: 'max_gross_exposure', actual: 217.5, limit: 200, message: 'Gross exposure would be 217.5% of NAV.' },
          ],
        }}
      />,
    );
    expect(html).toContain('Not approved: 2 guardrails block E-004.');
    expect(text(html)).toContain(
      '|Single-trade risk|max_single_risk|Max loss 6% of NAV exceeds the 5% single-trade limit.|6 % of NAV|5 % of NAV|+1 (20% over)|',
    );
    expect(text(html)).toContain(
      '|Gross exposure after the trade|max_gross_exposure|Gross exposure would be 217.5% of NAV.|217.5 % of NAV|200 % of NAV|+17.5 (9% over)|',
    );
    expect(html).toContain('role="alert"');
  });

  it('shows a missing View as text, without a made-up "over by"', () => {
    const html = renderToStaticMarkup(
      <GuardrailBlock
        result={{
          id: 'E-009',
          message: '',
          violations: [{ rule: 'expression_requires_view', actual: 'V-999', limit: 'an existing View', message: 'V-999 does not exist.' }],
        }}
      />,
    );
    expect(html).toContain('Not approved: a guardrail blocks E-009.');
    expect(text(html)).toContain('|Linked View|expression_requires_view|V-999 does not exist.|V-999|an existing View|—|');
  });

  it('falls back to the core’s sentence when no violation detail came back', () => {
    const html = renderToStaticMarkup(<GuardrailBlock result={{ id: 'E-010', message: 'E-010 was not approved: limits changed.', violations: [] }} />);
    expect(html).toContain('E-010 was not approved: limits changed.');
    expect(html).not.toContain('<table');
  });
});
