import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { CitedPk } from './CitedPk';

const text = (html: string) => html.replace(/<[^>]+>/g, '|').replace(/\|+/g, '|');

describe('the cited Process Knowledge under a proposal', () => {
  it('shows each entry’s weight, stance and evidence ids one click away, and a deleted one as deleted', () => {
    const html = renderToStaticMarkup(
      <CitedPk
        corroborating={['PK-001', 'PK-002', 'PK-007']}
        entries={[
          {
            id: 'PK-001',
            title: 'Size down before central-bank meetings',
            weight: 0.6,
            category: 'sizing',
            stance: { claim: 'size_down_before_cb_meetings', direction: 'for' },
            evidence: ['OUT-003', 'CF-002'],
            summary: 'Trades held full size into a meeting lost more than their stop allowed.',
            missing: false,
          },
          { id: 'PK-002', title: '', weight: null, category: null, stance: null, evidence: [], summary: '', missing: true },
        ]}
      />,
    );
    const t = text(html);
    expect(t).toContain('Cited Process Knowledge (2)');
    expect(t).toContain('|Weight|0.60|Stance|for size down before cb meetings|Category|sizing|Evidence|OUT-003|, |CF-002|');
    expect(t).toContain('lost more than their stop allowed');
    expect(t).toContain('PK-002| |deleted since the proposal cited it|');
    expect(t).toContain('|Evidence|none recorded|');
    // The cluster's other corroborating entries are named too, so the "five or more" can be checked.
    expect(t).toContain('Also corroborating when it was proposed: PK-007.');
    // Collapsed by default: one click (a <details>) opens each entry.
    expect(html.match(/<details/g)).toHaveLength(2);
  });
});
