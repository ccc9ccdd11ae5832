import { describe, expect, it } from 'vitest';
import { ApiError } from '../api/errors';
import { blockedLimits, canEdit, errorLine, fileOf, recordTemplate } from './draft';

describe('the record editor', () => {
  it('starts a new Expression from its header fields, status proposed, then SUMMARY / ENTRY / EXIT RULES', () => {
    const lines = recordTemplate('expressions').split('\n');
    expect(lines.slice(0, 9)).toEqual([
      '# new — ',
      'view_id:',
      'instrument:',
      'notional:',
      'max_loss_pct:',
      'duration_impact:',
      'factor:',
      'status: proposed',
      '---',
    ]);
    expect(lines.filter((l) => l.startsWith('## '))).toEqual(['## SUMMARY', '## ENTRY', '## EXIT RULES']);
  });

  it('starts a new View with its own header fields and sections', () => {
    const text = recordTemplate('views');
    expect(text.startsWith('# new — \nstatus: active\nconfidence:\nscope:')).toBe(true);
    expect(text).toContain('\n---\n## SUMMARY\n');
    expect(text).not.toContain('view_id');
  });

  it('offers Edit on Views, and on an Expression only while it is a proposal', () => {
    expect(canEdit('/memory/views/V-001.md', 'active')).toBe(true);
    expect(canEdit('/memory/expressions/E-004.md', 'proposed')).toBe(true);
    expect(canEdit('/memory/expressions/E-001.md', 'active')).toBe(false);
    expect(canEdit('/memory/expressions/E-002.md', 'rejected')).toBe(false);
    // An archived copy is history, not something to edit.
    expect(canEdit('/memory/.archive/views/V-001_20261121T090000000Z.md', 'active')).toBe(false);
  });

  it('finds the line a parse error names, from its issue or from its message', () => {
    const fromIssue = new ApiError({ code: 'invalid_input', message: 'Line 4: expected a header line', issues: [{ path: ['content', 4], message: 'x' }] });
    expect(errorLine(fromIssue)).toBe(4);
    expect(errorLine(new ApiError({ code: 'invalid_input', message: 'Line 1: the first line must be the title line.' }))).toBe(1);
    expect(errorLine(new ApiError({ code: 'invalid_input', message: 'content: Too small' }))).toBeNull();
    expect(errorLine(new ApiError({ code: 'conflict', message: 'Line 3: changed' }))).toBeNull();
  });

  it('reads the broken limits back from a guardrail block, with value and limit', () => {
    const err = new ApiError({
      code: 'guardrail_violation',
      message: 'Blocked by a hard limit; nothing was saved.\n- max_single_risk: value 7.5, limit 5',
      issues: [{ path: ['guardrails', 'max_single_risk', 7.5, 5], message: 'Max loss 7.5% of NAV exceeds the 5% single-trade limit.' }],
    });
    expect(blockedLimits(err)).toEqual([
      { rule: 'max_single_risk', actual: 7.5, limit: 5, message: 'Max loss 7.5% of NAV exceeds the 5% single-trade limit.' },
    ]);
    expect(blockedLimits(new ApiError({ code: 'invalid_input', message: 'x', issues: [{ path: ['guardrails', 'a', 1, 2], message: '' }] }))).toEqual([]);
    expect(fileOf('/memory/views/V-007.md')).toBe('V-007.md');
  });
});
