import type { ProposalDetail, ProposalSummary } from '../../src-main/api/proposals';

/**
 * The Proposals screen's pure logic: list order, the decision line under a decided proposal, the
 * reject form's check and the route. Tested without a DOM.
 */

const STATUS_ORDER: Record<string, number> = { pending: 0, approved: 1, rejected: 1 };

/** When the proposal was decided (approved or rejected), else when it was made. */
function decidedAt(p: ProposalSummary): string {
  return p.approvedAt ?? p.rejectedAt ?? p.createdAt ?? '';
}

/**
 * Pending first (oldest first: the one waiting longest is read first), then the decided ones,
 * most recently decided first; anything else (a hand-written record with an odd status) last.
 */
export function sortProposals(list: readonly ProposalSummary[]): ProposalSummary[] {
  return list.slice().sort((a, b) => {
    const sa = STATUS_ORDER[a.status] ?? 2;
    const sb = STATUS_ORDER[b.status] ?? 2;
    if (sa !== sb) return sa - sb;
    if (sa === 0) return (a.createdAt ?? '').localeCompare(b.createdAt ?? '') || a.id.localeCompare(b.id);
    return decidedAt(b).localeCompare(decidedAt(a)) || b.id.localeCompare(a.id);
  });
}

export function statusLabel(status: string): string {
  if (status === 'pending') return 'Pending';
  if (status === 'approved') return 'Approved';
  if (status === 'rejected') return 'Rejected';
  return status || 'Unknown';
}

/** `2026-03-06T22:00:01Z` → `6 Mar 2026, 22:00 UTC`: decisions are read as a record, not as "3 h ago". */
export function formatWhen(iso: string | null): string {
  if (!iso) return 'an unknown time';
  const t = Date.parse(iso);
  if (Number.isNaN(t)) return iso;
  const d = new Date(t);
  const date = d.toLocaleDateString('en-GB', { day: 'numeric', month: 'short', year: 'numeric', timeZone: 'UTC' });
  const time = d.toLocaleTimeString('en-GB', { hour: '2-digit', minute: '2-digit', hour12: false, timeZone: 'UTC' });
  return `${date}, ${time} UTC`;
}

/**
 * Who decided, when and why, in one line: "Approved by Dana on 6 Mar 2026, 22:00 UTC — skill
 * version 2." / "Rejected automatically by Forge on …: the quoted text is no longer in SKILL.md."
 * Null while pending.
 */
export function decisionLine(p: ProposalSummary): string | null {
  if (p.status === 'approved') {
    const version = p.skillVersion !== null ? ` — skill version ${p.skillVersion}` : '';
    return `Approved by ${p.approvedBy ?? 'someone unrecorded'} on ${formatWhen(p.approvedAt)}${version}.`;
  }
  if (p.status === 'rejected') {
    const who = p.rejectedBy === 'forge' ? 'automatically by Forge' : `by ${p.rejectedBy ?? 'someone unrecorded'}`;
    const why = p.rejectionReason ? `: ${p.rejectionReason.replace(/\.?\s*$/, '')}` : '';
    return `Rejected ${who} on ${formatWhen(p.rejectedAt)}${why}.`;
  }
  return null;
}

/** Where the edit lands, as the PM reads it: `expression-design/SKILL.md`. */
export function targetLabel(p: Pick<ProposalSummary, 'skill' | 'targetFile'>): string {
  if (!p.skill) return 'no skill named';
  return p.targetFile ? `${p.skill}/${p.targetFile}` : `${p.skill}/(no file named)`;
}

/** The reject form's own check, so an empty reason never reaches the server. */
export function rejectReasonError(reason: string): string | null {
  const r = reason.trim();
  if (!r) return 'Say why you reject it: the reason is kept with the proposal and read by the next retrospective.';
  if (r.length > 2000) return `Keep the reason under 2,000 characters (it is ${r.length}).`;
  return null;
}

/** `#/proposals/SEP-001`: only a well-formed id opens a proposal. */
export function routeProposal(rest: readonly string[]): string | null {
  const id = rest[0];
  return id && /^SEP-\d{1,9}$/.test(id) ? id : null;
}

/** The cited PK's stance in words: "for size_down_before_cb_meetings". */
export function stanceLine(stance: { claim: string; direction: 'for' | 'against' } | null): string {
  if (!stance) return 'no stance recorded';
  return `${stance.direction} ${stance.claim.replace(/_/g, ' ')}`;
}

/** A weight as written in the PK record, or a dash. */
export function formatWeight(w: number | null): string {
  return w === null ? '—' : w.toFixed(2);
}

/**
 * Left and right of the diff. While pending: the whole file now and after the edit. Once decided
 * (or when it cannot be applied) the whole-file texts are gone, so the quoted passage and its
 * replacement are compared instead.
 */
export function diffOf(view: ProposalDetail): { heading: string; original: string; modified: string; whole: boolean } | null {
  if (view.proposedText !== null) {
    return { heading: 'The file now, and as proposed', original: view.currentText ?? '', modified: view.proposedText, whole: true };
  }
  if (view.oldText !== null && view.newText !== null) {
    return { heading: 'The passage the proposal changes', original: view.oldText, modified: view.newText, whole: false };
  }
  return null;
}
