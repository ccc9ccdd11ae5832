import type { ApiErrorBody } from '../../src-main/api';

/**
 * Turns the core's input problems (zod issues with their code and limits) into sentences a PM
 * reads without knowing what zod is: "The filter can be at most 2,000 characters", not
 * "Too big: expected string to have <=2000 characters". Pure, so every wording is tested.
 */

export type ApiIssue = NonNullable<ApiErrorBody['issues']>[number];

/**
 * Field path → the label a PM knows the field by, written to start a sentence. Keys are dotted
 * paths; a shorter tail also matches (`displayName` labels `settings.displayName`). Screens pass
 * their own map on top of these with `withLabels`.
 */
export type FieldLabels = Readonly<Record<string, string>>;

export const defaultLabels: FieldLabels = {
  query: 'The filter',
  filters: 'The filter',
  message: 'Your message',
  reason: 'The reason',
  answer: 'Your answer',
  content: 'The record',
  notional: 'Notional',
  maxLoss: 'Max loss',
  max_loss: 'Max loss',
  horizon: 'Horizon',
  instrument: 'Instrument',
  confidence: 'Confidence',
  displayName: 'Display name',
  timezone: 'Time zone',
  theme: 'Theme',
  sessionTimeoutMinutes: 'Session timeout',
  anthropicBaseUrl: 'Anthropic base URL',
  'searchWeights.semantic': 'Semantic weight',
  'searchWeights.recency': 'Recency weight',
  workDir: 'The work folder',
  limit: 'The number of results',
  id: 'The id',
  url: 'The address',
  baseUrl: 'The base URL',
};

export function withLabels(extra: Record<string, string>, base: FieldLabels = defaultLabels): FieldLabels {
  return { ...base, ...extra };
}

/** "sessionTimeoutMinutes" → "Session timeout minutes": a fallback when no label was given. */
function humanise(segment: string): string {
  const words = segment
    .replace(/[_-]+/g, ' ')
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .trim()
    .toLowerCase();
  return words ? words[0]!.toUpperCase() + words.slice(1) : 'This field';
}

export function labelFor(path: readonly (string | number)[], labels: FieldLabels = defaultLabels): string {
  // Array positions say which item, not which field: `models.0.name` is labelled like `models.name`.
  const names = path.filter((p): p is string => typeof p === 'string');
  for (let start = 0; start < names.length; start++) {
    const key = names.slice(start).join('.');
    if (labels[key]) return labels[key];
  }
  const last = names[names.length - 1];
  return last ? humanise(last) : 'The input';
}

const count = (n: number) => n.toLocaleString('en-US');
const plural = (n: number, one: string, many: string) => `${count(n)} ${n === 1 ? one : many}`;

/** zod's own wording starts like this; anything else was written by whoever wrote the schema. */
const zodDefault = /^(Too (big|small)|Invalid|Expected|Unrecognized|Number must|String must|Required)/i;

function tooBig(label: string, issue: ApiIssue): string | null {
  const max = issue.maximum;
  if (max === undefined) return null;
  switch (issue.origin) {
    case 'string':
      return `${label} can be at most ${plural(max, 'character', 'characters')}`;
    case 'array':
    case 'set':
      return `${label} can have at most ${plural(max, 'item', 'items')}`;
    case 'number':
    case 'int':
    case 'bigint':
      return `${label} can be at most ${count(max)}`;
    default:
      return null;
  }
}

function tooSmall(label: string, issue: ApiIssue): string | null {
  const min = issue.minimum;
  if (min === undefined) return null;
  switch (issue.origin) {
    case 'string':
      return min <= 1 ? `${label} cannot be empty` : `${label} needs at least ${plural(min, 'character', 'characters')}`;
    case 'array':
    case 'set':
      return `${label} needs at least ${plural(min, 'item', 'items')}`;
    case 'number':
    case 'int':
    case 'bigint':
      return `${label} must be at least ${count(min)}`;
    default:
      return null;
  }
}

const typeWords: Record<string, string> = {
  number: 'a number',
  int: 'a whole number',
  bigint: 'a whole number',
  string: 'text',
  boolean: 'yes or no',
  array: 'a list',
  date: 'a date',
};

function invalidType(label: string, issue: ApiIssue): string | null {
  // zod says "received undefined" when the field was left out altogether.
  if (/received undefined/.test(issue.message)) return `${label} is required`;
  const words = issue.expected ? typeWords[issue.expected] : undefined;
  return words ? `${label} must be ${words}` : null;
}

function invalidFormat(label: string, issue: ApiIssue): string | null {
  switch (issue.format) {
    case 'date':
      return `${label}: enter a date as YYYY-MM-DD`;
    case 'datetime':
      return `${label}: enter a date and time as YYYY-MM-DDTHH:MM`;
    case 'time':
      return `${label}: enter a time as HH:MM`;
    case 'url':
      return `${label} must be a web address such as https://example.com`;
    case 'email':
      return `${label} must be an email address`;
    default:
      return zodDefault.test(issue.message) ? `${label} is not in the expected format` : null;
  }
}

/** One issue in plain words with its field's label. Unknown codes keep the core's own sentence. */
export function plainIssue(issue: ApiIssue, labels: FieldLabels = defaultLabels): string {
  const label = labelFor(issue.path, labels);
  let sentence: string | null = null;
  switch (issue.code) {
    case 'too_big':
      sentence = tooBig(label, issue);
      break;
    case 'too_small':
      sentence = tooSmall(label, issue);
      break;
    case 'invalid_type':
      sentence = invalidType(label, issue);
      break;
    case 'invalid_format':
      sentence = invalidFormat(label, issue);
      break;
    case 'invalid_value':
      sentence = issue.values?.length ? `${label} must be one of: ${issue.values.join(', ')}` : null;
      break;
    case 'unrecognized_keys':
      sentence = 'Forge does not know one of the fields sent; reload the window and try again';
      break;
  }
  if (sentence) return sentence;
  // A sentence the core wrote for this field (a custom rule, a query parse error) is already for
  // people; it only needs to say which field it is about.
  const message = issue.message.trim().replace(/\.$/, '');
  return issue.path.length > 0 ? `${label}: ${message}` : message;
}

/** Every issue in plain words, one sentence each, duplicates dropped. */
export function plainIssues(issues: readonly ApiIssue[], labels: FieldLabels = defaultLabels): string[] {
  return [...new Set(issues.map((i) => plainIssue(i, labels)))];
}
