import { describe, expect, it } from 'vitest';
import type { ProposalSummary } from '../../src-main/api/proposals';
import { decisionLine, diffOf, formatWhen, rejectReasonError, routeProposal, sortProposals, stanceLine, targetLabel } from './model';

function proposal(over: Partial<ProposalSummary>): ProposalSummary {
  return {
    id: 'SEP-001',
    title: 'Halve size into central-bank meetings',
    status: 'pending',
    skill: 'expression-design',
    targetFile: 'SKILL.md',
    claim: 'size_down_before_cb_meetings',
    direction: 'for',
    pkIds: ['PK-001', 'PK-002'],
    corroborating: ['PK-001', 'PK-002', 'PK-003'],
    rationale: 'Five lessons agree.',
    createdAt: '2026-03-06T22:00:00.000Z',
    baseHash: 'abc',
    model: 'scripted:proposal',
    approvedBy: null,
    approvedAt: null,
    skillVersion: null,
    rejectedBy: null,
    rejectedAt: null,
    rejectionReason: null,
    problems: [],
    ...over,
  };
}

describe('the proposals list', () => {
  it('puts pending proposals first, the longest-waiting on top, then the most recently decided', () => {
    const list = [
      proposal({ id: 'SEP-001', status: 'approved', createdAt: '2026-03-01T00:00:00Z', approvedAt: '2026-03-02T00:00:00Z' }),
      proposal({ id: 'SEP-002', status: 'rejected', createdAt: '2026-03-03T00:00:00Z', rejectedAt: '2026-03-09T00:00:00Z' }),
      proposal({ id: 'SEP-003', status: 'pending', createdAt: '2026-03-08T00:00:00Z' }),
      proposal({ id: 'SEP-004', status: 'pending', createdAt: '2026-03-04T00:00:00Z' }),
      proposal({ id: 'SEP-005', status: 'draft?', createdAt: '2026-03-10T00:00:00Z' }),
    ];
    // A PM who sees a decided proposal above a pending one would miss what waits for them.
    expect(sortProposals(list).map((p) => p.id)).toEqual(['SEP-004', 'SEP-003', 'SEP-002', 'SEP-001', 'SEP-005']);
  });
});

describe('who decided, when and why', () => {
  it('says who approved it, when, and the skill version it produced', () => {
    const p = proposal({ status: 'approved', approvedBy: 'Dana', approvedAt: '2026-03-06T22:05:00.000Z', skillVersion: 2 });
    expect(decisionLine(p)).toBe('Approved by Dana on 6 Mar 2026, 22:05 UTC — skill version 2.');
  });

  it('tells an automatic rejection by Forge from the PM’s own, with the reason', () => {
    const auto = proposal({
      status: 'rejected',
      rejectedBy: 'forge',
      rejectedAt: '2026-03-07T09:00:00.000Z',
      rejectionReason: 'the quoted text is no longer in SKILL.md.',
    });
    expect(decisionLine(auto)).toBe('Rejected automatically by Forge on 7 Mar 2026, 09:00 UTC: the quoted text is no longer in SKILL.md.');
    const pm = proposal({ status: 'rejected', rejectedBy: 'pm', rejectedAt: '2026-03-07T09:00:00.000Z', rejectionReason: 'Only FOMC weeks' });
    expect(decisionLine(pm)).toBe('Rejected by pm on 7 Mar 2026, 09:00 UTC: Only FOMC weeks.');
  });

  it('has no decision line while pending', () => {
    expect(decisionLine(proposal({}))).toBeNull();
  });

  it('shows a malformed time as written rather than "Invalid Date"', () => {
    expect(formatWhen('yesterday-ish')).toBe('yesterday-ish');
    expect(formatWhen(null)).toBe('an unknown time');
  });
});

describe('the reject form', () => {
  it('refuses an empty or blank reason before it reaches the server', () => {
    expect(rejectReasonError('')).toMatch(/say why/i);
    expect(rejectReasonError('   \n ')).toMatch(/say why/i);
    expect(rejectReasonError('x'.repeat(2001))).toMatch(/2,000/);
    expect(rejectReasonError('The lesson is about FOMC weeks only')).toBeNull();
  });
});

describe('routes and labels', () => {
  it('opens only well-formed proposal ids from the address bar', () => {
    expect(routeProposal(['SEP-012'])).toBe('SEP-012');
    expect(routeProposal(['../etc'])).toBeNull();
    expect(routeProposal([])).toBeNull();
  });

  it('names the file an edit lands in and a PK’s stance in words', () => {
    expect(targetLabel({ skill: 'expression-design', targetFile: 'templates/output.md' })).toBe('expression-design/templates/output.md');
    expect(targetLabel({ skill: null, targetFile: null })).toBe('no skill named');
    expect(stanceLine({ claim: 'size_down_before_cb_meetings', direction: 'against' })).toBe('against size down before cb meetings');
  });
});

describe('what the diff compares', () => {
  const base = { proposal: proposal({}), citedPk: [], fileChanged: false, recordHash: 'h' };
  it('compares the whole file now with the whole file after the edit while pending', () => {
    const d = diffOf({ ...base, oldText: 'a', newText: 'b', currentText: '# S\na\n', proposedText: '# S\nb\n' });
    expect(d).toEqual({ heading: 'The file now, and as proposed', original: '# S\na\n', modified: '# S\nb\n', whole: true });
  });

  it('falls back to the quoted passage and its replacement once decided, instead of an empty diff', () => {
    const d = diffOf({ ...base, oldText: '2. Check liquidity.', newText: '2. Check liquidity; halve size.', currentText: 'whatever', proposedText: null });
    expect(d).toEqual({
      heading: 'The passage the proposal changes',
      original: '2. Check liquidity.',
      modified: '2. Check liquidity; halve size.',
      whole: false,
    });
    expect(diffOf({ ...base, oldText: null, newText: null, currentText: null, proposedText: null })).toBeNull();
  });
});
