import { describe, expect, it } from 'vitest';
import { draftFrom, patchFrom, sameDraft } from './form';

const saved = {
  theme: 'system' as const,
  timezone: 'America/New_York',
  displayName: 'Alex',
  sessionTimeoutMinutes: 30,
  anthropicBaseUrl: '',
  searchWeights: { semantic: 0.7, recency: 0.3 },
};

describe('settings form', () => {
  it('turns what the PM typed back into typed settings', () => {
    const d = { ...draftFrom(saved), sessionTimeoutMinutes: ' 45 ', 'searchWeights.semantic': '0.8', displayName: ' Sam ' };
    expect(patchFrom(d)).toEqual({
      settings: { ...saved, sessionTimeoutMinutes: 45, displayName: 'Sam', searchWeights: { semantic: 0.8, recency: 0.3 } },
      errors: null,
    });
  });

  it('flags numbers that are not numbers before sending anything', () => {
    const d = { ...draftFrom(saved), sessionTimeoutMinutes: '12.5', 'searchWeights.recency': 'abc' };
    expect(patchFrom(d)).toEqual({
      settings: null,
      errors: { sessionTimeoutMinutes: 'Enter a whole number of minutes.', 'searchWeights.recency': 'Enter a number.' },
    });
  });

  it('knows when nothing has changed', () => {
    expect(sameDraft(draftFrom(saved), draftFrom({ ...saved }))).toBe(true);
    expect(sameDraft(draftFrom(saved), { ...draftFrom(saved), theme: 'dark' })).toBe(false);
  });
});
