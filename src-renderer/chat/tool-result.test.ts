import { describe, expect, it } from 'vitest';
import type { ToolCallView } from './store';
import { brokenLimits, toolArgument, writtenRecord } from './tool-result';

// Result texts as the write pipeline words them (src-main/tools/write-pipeline.ts, guardrails/check.ts formatViolations).
const call = (content: string, isError = false, path = '/memory/expressions/new.md'): ToolCallView => ({
  callId: 'c1',
  name: 'write',
  input: { path, content: '# new — Long 10y' },
  result: { content, isError, untrusted: false, durationMs: 12 },
});

describe('chat tool results', () => {
  it('links the Expression a write created by its id, not by the new.md the analyst asked for', () => {
    const c = call("Written: /memory/expressions/E-004.md (status proposed — waiting for the PM's approval)\nAlso: Counterfactual CF-002 recorded.");
    expect(writtenRecord(c)).toEqual({ id: 'E-004', href: '#/expressions/E-004', path: '/memory/expressions/E-004.md' });
    expect(toolArgument(c)).toBe('E-004');
  });

  it('opens records outside Views/Expressions by their path, and leaves notes without an id unlinked', () => {
    expect(writtenRecord(call('Written: /memory/pk/PK-012.md', false, '/memory/pk/new.md'))?.href).toBe(
      `#/views/${encodeURIComponent('/memory/pk/PK-012.md')}`,
    );
    expect(writtenRecord(call('Written: /session/notes.md', false, '/session/notes.md'))).toEqual({ id: 'notes.md', href: null, path: '/session/notes.md' });
  });

  it('shows a blocked write as rule / value / limit rows, and no link', () => {
    const c = call(
      [
        'Not written: /memory/expressions/new.md',
        'BLOCKED by guardrails (2 hard violations):',
        '- max_gross_exposure: actual 210, limit 200 — gross exposure would exceed the limit',
        '- max_factor_concentration: actual 42.857143, limit 30 — usd concentration too high',
        'Change the Expression so every limit passes, or drop it.',
      ].join('\n'),
      true,
    );
    expect(brokenLimits(c)).toEqual([
      { rule: 'max_gross_exposure', value: '210', limit: '200', why: 'gross exposure would exceed the limit' },
      { rule: 'max_factor_concentration', value: '42.857143', limit: '30', why: 'usd concentration too high' },
    ]);
    expect(writtenRecord(c)).toBeNull();
    expect(toolArgument(c)).toBe('/memory/expressions/new.md');
  });

  it('finds no broken limits in a failure that is not a guardrail block', () => {
    expect(brokenLimits(call('Not written: /memory/expressions/new.md — review required before the PM is asked.', true))).toEqual([]);
  });
});
