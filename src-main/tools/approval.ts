import { ConflictError, InvalidInputError, NotFoundError } from '../common/errors';
import { isDecidable } from '../common/expression-status';
import { parseRecord, renderRecord, type ForgeFS } from '../fs';
import { recordGuardrailCheck, type GuardrailLimits, type Violation } from '../guardrails';
import { statusOf } from './expressions';
import { runGuardrails } from './guardrail-run';
import { rewriteRecord } from './rewrite';

const ID = /^E-\d{3,}$/;

export interface ApprovalResult {
  id: string;
  approved: boolean;
  status: string;
  violations: Violation[];
  message: string;
}

function pathOf(id: string): string {
  if (!ID.test(id)) throw new InvalidInputError(`"${id.slice(0, 20)}" is not an Expression id such as E-004.`);
  return `/memory/expressions/${id}.md`;
}

/**
 * The PM's approval: the guardrails run again now (the book may have moved since the proposal),
 * and only if every limit passes does the Expression become `active`, written as the PM.
 */
export async function approveExpression(fs: ForgeFS, id: string, limits: GuardrailLimits, now: () => Date = () => new Date()): Promise<ApprovalResult> {
  const path = pathOf(id);
  return fs.transaction((tx) => {
    if (!tx.exists(path)) throw new NotFoundError(`There is no Expression ${id}; list /memory/expressions/ to see them.`);
    const doc = parseRecord(tx.readFile(path));
    const status = statusOf(doc.header);
    // The same decision twice (a double-click, a retry after a dropped reply) is not a conflict:
    // the PM asked for an active trade and has one. Nothing is written, so the audit keeps one approval.
    if (status === 'active') return { id, approved: true, status, violations: [], message: `${id} was already active; nothing changed.` };
    if (!isDecidable(status)) {
      throw new ConflictError(`${id} is ${status || 'without a status'}; only a proposed Expression (or one sent back for review) can be approved.`);
    }
    // The book as committed so far, read under the write lock this transaction holds: a second
    // approval racing this one waits for it and then sees this trade in the book.
    const at = now().toISOString();
    const ran = runGuardrails(fs, doc.header, limits, (v) => /^V-\d+$/.test(v) && tx.exists(`/memory/views/${v}.md`), id);
    const violations = ran.violations;
    // Kept with its figures either way, in this transaction: the lineage shows what approval measured.
    const keep = (outcome: 'approved' | 'refused') =>
      recordGuardrailCheck(fs.store.db, { at, path, stage: 'approve', outcome, actor: 'pm', checks: ran.checks, bookAsOf: ran.bookAsOf });
    if (violations.length) {
      keep('refused');
      return {
        id,
        approved: false,
        status,
        violations,
        message: `${id} was not approved: ${violations.map((v) => `${v.rule} ${v.actual} (limit ${v.limit})`).join('; ')}.`,
      };
    }
    keep('approved');
    // A trade back from review keeps when it first went live (the snapshot may hold it); a proposal goes live now.
    const activatedAt = status === 'review_required' && doc.header.activated_at ? doc.header.activated_at : at;
    const header = { ...doc.header, status: 'active', approved_by: 'pm', approved_at: at, activated_at: activatedAt };
    tx.writeFile(path, renderRecord({ ...doc, header }), { actor: 'pm', operation: 'approve' });
    return { id, approved: true, status: 'active', violations: [], message: `${id} is active.` };
  });
}

/** Thrown when an earlier reject already landed (found on any read, before or under the lock); caught below. */
class AlreadyRejected extends Error {}

/**
 * The PM declines a proposal: it becomes `rejected` (audited as `reject`, the reason kept in the
 * record) and a Counterfactual starts tracking it. Rejecting an already-rejected Expression is
 * success with a note: the first reason and Counterfactual stand.
 */
export async function rejectExpression(
  fs: ForgeFS,
  id: string,
  reason: string,
  limits: GuardrailLimits,
  now: () => Date = () => new Date(),
): Promise<{ id: string; status: string; counterfactual: string | null; message: string }> {
  const path = pathOf(id);
  if (!fs.exists(path)) throw new NotFoundError(`There is no Expression ${id}; list /memory/expressions/ to see them.`);
  const rejection_reason = reason.replace(/\s+/g, ' ').trim().slice(0, 300) || 'declined by the PM';
  // Built from the text as it is at the write: a PM edit landing meanwhile (a moved stop) is kept,
  // not overwritten by a version read before it (rewriteRecord re-renders on a fresh read).
  const render = (current: string) => {
    const doc = parseRecord(current);
    const status = statusOf(doc.header);
    if (status === 'rejected') throw new AlreadyRejected();
    if (!isDecidable(status))
      throw new ConflictError(`${id} is ${status || 'without a status'}; only a proposed Expression (or one under review) can be rejected.`);
    return renderRecord({ ...doc, header: { ...doc.header, status: 'rejected', rejection_reason } });
  };
  try {
    const out = await rewriteRecord(fs, path, render, { actor: 'pm', operation: 'reject' }, { limits, now });
    const cf = /Counterfactual (CF-\d+)/.exec(out.message)?.[1] ?? null;
    return { id, status: 'rejected', counterfactual: cf, message: out.message };
  } catch (e) {
    if (e instanceof AlreadyRejected) return alreadyRejected(fs, id);
    throw e;
  }
}

function alreadyRejected(fs: ForgeFS, id: string): { id: string; status: string; counterfactual: string | null; message: string } {
  const cf = fs.listDir('/memory/counterfactuals/', `expression:${id}`, { limit: 1 }).entries[0]?.id ?? null;
  return { id, status: 'rejected', counterfactual: cf, message: `${id} was already rejected; nothing changed.` };
}
