import { describe, expect, it } from 'vitest';
import { draftFrom, draftValue, patchFrom, sameDraft, withValue } from './form';

const saved = {
  theme: 'system' as const,
  timezone: 'America/New_York',
  displayName: 'Alex',
  sessionTimeoutMinutes: 30,
  anthropicBaseUrl: '',
  searchWeights: { semantic: 0.7, recency: 0.3 },
  models: {
    agent: 'claude-opus-5-5',
    subagent: 'claude-sonnet-5-5',
    validation: 'claude-sonnet-5-5',
    contrastive: 'claude-opus-5-5',
    review: 'claude-opus-5-5',
    synthesis: 'claude-opus-5-5',
    compact: 'claude-haiku-5-5',
    proposal: 'claude-sonnet-5-5',
    builder: 'claude-opus-5-5',
    planner: 'claude-opus-5-5',
  },
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
    expect(sameDraft(draftFrom(saved), withValue(draftFrom(saved), 'models.compact', 'claude-sonnet-5-5'))).toBe(false);
  });

  it('edits the model for one role without touching the others', () => {
    const d = withValue(draftFrom(saved), 'models.compact', ' claude-sonnet-5-5 ');
    expect(draftValue(d, 'models.compact')).toBe(' claude-sonnet-5-5 ');
    const patch = patchFrom(d);
    expect(patch.settings?.models).toEqual({ ...saved.models, compact: 'claude-sonnet-5-5' });
  });
});
