import { describe, expect, it } from 'vitest';
import { ApiError, fieldErrors } from '../api/errors';
import { draftFrom, draftValue, patchFrom, sameDraft, settingsLabels, visibleErrors, withValue } from './form';

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

describe('settings errors at the fields', () => {
  const refusal = () =>
    new ApiError({
      code: 'invalid_input',
      message: 'Invalid input for settings/set',
      issues: [
        { path: ['settings', 'models', 'agent'], message: 'Enter a model id, e.g. claude-sonnet-5-5.', code: 'too_small' },
        { path: ['settings', 'timezone'], message: 'not a time zone Forge knows; use an IANA name such as Europe/London', code: 'custom' },
      ],
    });

  // If this fails the PM reads "Agent: …" under a field labelled "Analyst" and cannot find it.
  it('names a model field by the label the form shows', () => {
    const errors = fieldErrors(refusal(), 'settings', settingsLabels);
    expect(errors['models.agent']).toMatch(/^Analyst/);
    expect(errors.timezone).toBe('Time zone: not a time zone Forge knows; use an IANA name such as Europe/London.');
  });

  // If this fails a field the PM has already fixed keeps shouting its old error until the next Save.
  it('drops the error of a field changed since the Save, keeps the others', () => {
    const server = fieldErrors(refusal(), 'settings', settingsLabels);
    const shown = visibleErrors(server, {}, new Set(['timezone']));
    expect(Object.keys(shown)).toEqual(['models.agent']);
    expect(visibleErrors(server, { sessionTimeoutMinutes: 'Enter a number.' }, new Set()).sessionTimeoutMinutes).toBe('Enter a number.');
  });
});
