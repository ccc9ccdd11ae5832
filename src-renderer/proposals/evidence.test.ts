import { describe, expect, it } from 'vitest';
import type { MetaCandidateView } from '../../src-main/api/proposals';
import { evidenceFigures, verdictLabel } from './evidence';

const candidate = (over: Partial<MetaCandidateView>): MetaCandidateView => ({
  skill: 'expression-design',
  claim: 'size_down_before_cb_meetings',
  direction: 'for',
  corroborating: ['PK-001', 'PK-002', 'PK-003', 'PK-004', 'PK-005'],
  contradictions: [],
  weight: 3,
  bar: { minCorroborations: 5, minWeight: 0.4 },
  verdict: 'proposed',
  detail: 'proposed SEP-001',
  proposalId: 'SEP-001',
  ...over,
});

describe('the evidence bar on Run now', () => {
  // If this fails, the PM reads a lesson as clearing the bar when it does not (or the reverse).
  it('says how many agree of how many needed, the contradictions and the weight, and whether it clears the bar', () => {
    expect(evidenceFigures(candidate({}))).toEqual({
      corroborating: '5 of 5 corroborating',
      contradictions: '0 contradictions',
      weight: 'weight 3.00',
      meets: true,
    });
    expect(evidenceFigures(candidate({ contradictions: ['PK-009'], verdict: 'contradicted' }))).toMatchObject({
      contradictions: '1 contradiction',
      meets: false,
    });
    expect(evidenceFigures(candidate({ corroborating: ['PK-001'], weight: 0.55 }))).toMatchObject({
      corroborating: '1 of 5 corroborating',
      weight: 'weight 0.55',
      meets: false,
    });
    expect(verdictLabel('no_model')).toBe('Needs a model');
    expect(verdictLabel('something_new')).toBe('something new');
  });
});
