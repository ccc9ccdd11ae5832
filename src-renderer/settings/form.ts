import type { Settings } from '../../src-main/api';

/**
 * The settings form keeps what the PM is typing as strings (so "0." is a valid moment in typing
 * a number) and turns it into a patch only on Save. Pure functions, tested without a DOM.
 */
export interface SettingsDraft {
  theme: Settings['theme'];
  displayName: string;
  timezone: string;
  sessionTimeoutMinutes: string;
  anthropicBaseUrl: string;
  'searchWeights.semantic': string;
  'searchWeights.recency': string;
}

export type DraftField = keyof SettingsDraft;

export function draftFrom(s: Settings): SettingsDraft {
  return {
    theme: s.theme,
    displayName: s.displayName,
    timezone: s.timezone,
    sessionTimeoutMinutes: String(s.sessionTimeoutMinutes),
    anthropicBaseUrl: s.anthropicBaseUrl,
    'searchWeights.semantic': String(s.searchWeights.semantic),
    'searchWeights.recency': String(s.searchWeights.recency),
  };
}

function num(value: string, field: DraftField, errors: Partial<Record<DraftField, string>>, integer = false): number {
  const n = Number(value.trim());
  if (value.trim() === '' || !Number.isFinite(n)) errors[field] = 'Enter a number.';
  else if (integer && !Number.isInteger(n)) errors[field] = 'Enter a whole number of minutes.';
  return n;
}

/** A patch for `settings/set`, or the fields that cannot even be sent (not numbers). Range checks stay on the server. */
export function patchFrom(
  d: SettingsDraft,
): { settings: Partial<Settings>; errors: null } | { settings: null; errors: Partial<Record<DraftField, string>> } {
  const errors: Partial<Record<DraftField, string>> = {};
  const settings: Settings = {
    theme: d.theme,
    displayName: d.displayName.trim(),
    timezone: d.timezone.trim(),
    sessionTimeoutMinutes: num(d.sessionTimeoutMinutes, 'sessionTimeoutMinutes', errors, true),
    anthropicBaseUrl: d.anthropicBaseUrl.trim(),
    searchWeights: {
      semantic: num(d['searchWeights.semantic'], 'searchWeights.semantic', errors),
      recency: num(d['searchWeights.recency'], 'searchWeights.recency', errors),
    },
  };
  return Object.keys(errors).length > 0 ? { settings: null, errors } : { settings, errors: null };
}

export function sameDraft(a: SettingsDraft, b: SettingsDraft): boolean {
  return (Object.keys(a) as DraftField[]).every((k) => a[k] === b[k]);
}
