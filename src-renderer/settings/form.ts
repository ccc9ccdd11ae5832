import type { ModelRole, Settings } from '../../src-main/api';
import { type FieldLabels, withLabels } from '../api/plain-errors';
import { modelRoleInfo } from './models';

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
  /** Model id per role, keyed `models.<role>` like the server's issue paths. */
  models: Record<ModelRole, string>;
}

export type DraftField = Exclude<keyof SettingsDraft, 'models'> | `models.${ModelRole}`;

export function draftFrom(s: Settings): SettingsDraft {
  return {
    theme: s.theme,
    displayName: s.displayName,
    timezone: s.timezone,
    sessionTimeoutMinutes: String(s.sessionTimeoutMinutes),
    anthropicBaseUrl: s.anthropicBaseUrl,
    'searchWeights.semantic': String(s.searchWeights.semantic),
    'searchWeights.recency': String(s.searchWeights.recency),
    models: { ...s.models },
  };
}

/** Reads one field of the draft by its dotted name. */
export function draftValue(d: SettingsDraft, field: DraftField): string {
  if (field.startsWith('models.')) return d.models[field.slice('models.'.length) as ModelRole] ?? '';
  return d[field as Exclude<DraftField, `models.${ModelRole}`>];
}

/** A copy of the draft with one field changed. */
export function withValue(d: SettingsDraft, field: DraftField, value: string): SettingsDraft {
  if (field.startsWith('models.')) return { ...d, models: { ...d.models, [field.slice('models.'.length)]: value } };
  return { ...d, [field]: value };
}

function num(value: string, field: DraftField, errors: Partial<Record<DraftField, string>>, integer = false): number {
  const n = Number(value.trim());
  if (value.trim() === '' || !Number.isFinite(n)) errors[field] = 'Enter a number.';
  else if (integer && !Number.isInteger(n)) errors[field] = 'Enter a whole number of minutes.';
  return n;
}

/** A patch for `settings/set`, or the fields that cannot even be sent (not numbers). Range checks stay on the server. */
export function patchFrom(d: SettingsDraft): { settings: Partial<Settings>; errors: null } | { settings: null; errors: Partial<Record<DraftField, string>> } {
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
    models: Object.fromEntries(Object.entries(d.models).map(([k, v]) => [k, v.trim()])) as Settings['models'],
  };
  return Object.keys(errors).length > 0 ? { settings: null, errors } : { settings, errors: null };
}

export function sameDraft(a: SettingsDraft, b: SettingsDraft): boolean {
  const keys = Object.keys(a) as (keyof SettingsDraft)[];
  const roles = new Set([...Object.keys(a.models), ...Object.keys(b.models)]) as Set<ModelRole>;
  return keys.every((k) => k === 'models' || a[k] === b[k]) && [...roles].every((r) => a.models[r] === b.models[r]);
}

/**
 * The names the form shows, for the server's problems: `models.agent` is the field labelled
 * "Analyst", so its error must say "Analyst", not the role's internal name "Agent".
 */
export const settingsLabels: FieldLabels = withLabels(Object.fromEntries(modelRoleInfo.map((r) => [`models.${r.role}`, r.label])));

/**
 * The errors to show now: the server's answer to the last Save, less the fields the PM has
 * changed since (a fixed field must not keep its old error), then the form's own checks.
 */
export function visibleErrors(
  server: Record<string, string>,
  local: Partial<Record<DraftField, string>>,
  editedSinceSave: ReadonlySet<string>,
): Record<string, string | undefined> {
  const kept = Object.fromEntries(Object.entries(server).filter(([field]) => !editedSinceSave.has(field)));
  return { ...kept, ...local };
}
