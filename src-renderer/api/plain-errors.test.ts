import { describe, expect, it } from 'vitest';
import { ApiError, fieldErrors, readableMessage } from './errors';
import { labelFor, plainIssue, plainIssues, withLabels } from './plain-errors';

// Issues shaped exactly as the core sends them (src-main/host/core.ts zodIssues, checked in core.test.ts).
const tooLongFilter = { path: ['query'], message: 'Too big: expected string to have <=2000 characters', code: 'too_big', origin: 'string', maximum: 2000 };

describe('plain-words errors', () => {
  it('says how long the filter may be, with a thousands separator, instead of zod’s "<=2000"', () => {
    expect(plainIssue(tooLongFilter)).toBe('The filter can be at most 2,000 characters');
  });

  it('words each zod code with the field’s label', () => {
    const cases: [object, string][] = [
      [
        { path: ['notional'], message: 'Invalid input: expected number, received string', code: 'invalid_type', expected: 'number' },
        'Notional must be a number',
      ],
      [{ path: ['settings', 'sessionTimeoutMinutes'], message: 'x', code: 'invalid_type', expected: 'int' }, 'Session timeout must be a whole number'],
      [{ path: ['reason'], message: 'Invalid input: expected string, received undefined', code: 'invalid_type', expected: 'string' }, 'The reason is required'],
      [{ path: ['expiry'], message: 'Invalid ISO date', code: 'invalid_format', format: 'date', origin: 'string' }, 'Expiry: enter a date as YYYY-MM-DD'],
      [
        { path: ['settings', 'anthropicBaseUrl'], message: 'Invalid URL', code: 'invalid_format', format: 'url' },
        'Anthropic base URL must be a web address such as https://example.com',
      ],
      [
        { path: ['settings', 'sessionTimeoutMinutes'], message: 'Too small: expected number to be >=1', code: 'too_small', origin: 'number', minimum: 1 },
        'Session timeout must be at least 1',
      ],
      [
        { path: ['settings', 'searchWeights', 'semantic'], message: 'Too big', code: 'too_big', origin: 'number', maximum: 1 },
        'Semantic weight can be at most 1',
      ],
      [{ path: ['reason'], message: 'say why', code: 'too_small', origin: 'string', minimum: 1 }, 'The reason cannot be empty'],
      [{ path: ['project_request'], message: 'Too small', code: 'too_small', origin: 'string', minimum: 10 }, 'Project request needs at least 10 characters'],
      [{ path: ['bonds'], message: 'Too big', code: 'too_big', origin: 'array', maximum: 200 }, 'Bonds can have at most 200 items'],
      [
        { path: ['settings', 'theme'], message: 'Invalid option', code: 'invalid_value', values: ['system', 'light', 'dark'] },
        'Theme must be one of: system, light, dark',
      ],
    ];
    for (const [issue, words] of cases) expect(plainIssue(issue as never)).toBe(words);
  });

  it('keeps the core’s own sentence for codes it does not know, naming the field', () => {
    expect(plainIssue({ path: ['query', 'since'], message: '"yesterday" is not a date.' })).toBe('Since: "yesterday" is not a date');
    expect(plainIssue({ path: ['id'], message: 'an Expression id such as E-004', code: 'invalid_format', format: 'regex' })).toBe(
      'The id: an Expression id such as E-004',
    );
    expect(plainIssue({ path: [], message: 'Something custom', code: 'custom' })).toBe('Something custom');
  });

  it('lets a screen name its own fields, longest path first', () => {
    const labels = withLabels({ 'legs.strike': 'Strike' });
    expect(labelFor(['legs', 0, 'strike'], labels)).toBe('Strike');
    expect(labelFor(['settings', 'displayName'])).toBe('Display name');
    expect(labelFor(['maxDrawdownPct'])).toBe('Max drawdown pct');
    expect(plainIssues([tooLongFilter, tooLongFilter])).toEqual(['The filter can be at most 2,000 characters']);
  });

  it('is what ErrorPanel and form fields show for an invalid_input ApiError', () => {
    const err = new ApiError({
      code: 'invalid_input',
      message: 'Invalid input for memory/list: query: Too big: expected string to have <=2000 characters',
      issues: [tooLongFilter],
    });
    expect(readableMessage(err)).toBe('The filter can be at most 2,000 characters.');
    expect(fieldErrors(err)).toEqual({ query: 'The filter can be at most 2,000 characters.' });
    // Screens that print error.message directly get the same words.
    expect(err.message).toBe('The filter can be at most 2,000 characters.');
    expect(err.detail).toMatch(/<=2000/);
    // A query error the core wrote for people (no zod code) keeps its column and its fix.
    const syntax = new ApiError({
      code: 'invalid_input',
      message: 'Query error at column 7: "since:2026-13" is not a date. Use YYYY-MM-DD.',
      issues: [{ path: ['query', 7], message: '"since:2026-13" is not a date' }],
    });
    expect(readableMessage(syntax)).toBe('Query error at column 7: "since:2026-13" is not a date. Use YYYY-MM-DD.');
    // Other codes keep the server's sentence: a conflict already speaks to the PM.
    expect(readableMessage(new ApiError({ code: 'conflict', message: 'V-001 changed since you opened it.' }))).toBe('V-001 changed since you opened it.');
  });
});
