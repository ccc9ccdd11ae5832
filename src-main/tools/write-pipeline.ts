import { InvalidInputError } from '../common/errors';
import { categoryInfo, parseRecord, renderRecord, routePath, trackerWriter, type ForgeFS, type ForgeTx, type MemoryDocument, type WriteContext } from '../fs';
import { withAssignedId } from '../fs/memory-backend';
import {
  CONSTRAINTS_PATH,
  formatViolations,
  readConstraints,
  recordGuardrailCheck,
  type CheckOutcome,
  type GuardrailLimits,
  type Violation,
} from '../guardrails';
import { rejectionCounterfactual } from '../tracking';
import { checkedAgainstLimits, countsInBook, isOpenProposal } from '../common/expression-status';
import { isTrustedActor, landingStatus, statusOf } from './expressions';
import { runGuardrails, type GuardrailRun } from './guardrail-run';

export interface WriteOutcome {
  ok: boolean;
  /** What the model (or the PM) reads. */
  message: string;
  path?: string;
  id?: string | null;
  status?: string;
  violations?: Violation[];
  /** Paths written as side effects (archive, Outcome, Counterfactual, flagged Expressions). */
  sideEffects: string[];
}

export interface WriteOptions {
  /** The limits in force, or how to read them: read only when an Expression is checked, so an unreadable constraints.md refuses trades, not notes. */
  limits: GuardrailLimits | (() => GuardrailLimits);
  now?: () => Date;
  /**
   * The review gate for agent-proposed Expressions: given the text as written, may it be offered
   * to the PM? Absent: no gate (the PM's own writes, tools tested alone).
   */
  review?: (content: string) => { approved: boolean; message: string };
  /**
   * Runs first inside the write transaction, under its lock; throw (e.g. a ConflictError for a
   * stale expectedVersion) to refuse with nothing written. Used by the PM's memory/write.
   */
  precondition?: (tx: ForgeTx) => void;
}

/** A record to write plus what the write decided (status, refusal, side-effect records). */
interface Plan {
  path: string;
  content: string;
  doc: MemoryDocument;
  category: string;
  status: string;
  note: string | null;
  refused?: string;
  prevStatus: string | null;
  extra: { path: string; content: string }[];
}

const STAMPS = ['approved_by', 'approved_at', 'activated_at', 'closed_at', 'proposed_by'];
const PLACEHOLDER = (prefix: string) => `${prefix}-000`;
const day = (d: Date) => d.toISOString().slice(0, 10);
const one = (v: unknown) => (v === undefined || v === null || v === '' ? undefined : String(v));

function outcomeFor(exprId: string, doc: MemoryDocument, at: Date): string {
  const h = doc.header;
  return renderRecord({
    id: 'OUT-000',
    title: `Outcome of ${exprId}: ${doc.title}`.slice(0, 200),
    header: {
      expression: exprId,
      view_id: one(h.view_id ?? h.view) ?? '',
      status: 'recorded',
      exit_reason: one(h.exit_reason) ?? 'closed',
      closed_at: at.toISOString(),
      pnl: one(h.pnl) ?? 'pending',
    },
    body: [
      '## SUMMARY',
      `${exprId} (${one(h.instrument) ?? doc.title}) closed on ${day(at)}: ${one(h.exit_reason) ?? 'closed'}. PnL: ${one(h.pnl) ?? 'pending'}.`,
      '',
      '## ENTRY',
      one(h.entry_details) ?? 'See the Expression record.',
      '',
      '## EXIT',
      one(h.exit_details) ?? 'Not recorded.',
    ].join('\n'),
  });
}

/** Decides what a memory write becomes; pure over what it reads, so it runs before and inside the transaction alike. */
function plan(fs: ForgeFS, rawPath: string, content: string, writer: WriteContext, at: Date): Plan | null {
  const prevStatusOf = (q: string) => fs.recordInfo(q)?.status ?? null;
  const { path, route } = routePath(rawPath);
  if (route.root !== 'memory' || route.kind !== 'record') return null;
  const info = categoryInfo(route.category)!;
  const isNew = route.id === null;
  const draft = isNew ? withAssignedId(content, PLACEHOLDER(info.prefix ?? 'X')) : content;
  const doc = parseRecord(draft);
  const prevStatus = isNew ? null : prevStatusOf(path);
  const claimed = statusOf(doc.header);
  const p: Plan = { path, content, doc, category: route.category, status: claimed, note: null, prevStatus, extra: [] };
  if (route.category === 'expressions') {
    const landing = landingStatus(claimed, prevStatus, writer.actor);
    if ('refused' in landing) return { ...p, refused: landing.refused };
    p.status = landing.status;
    p.note = landing.note;
    // Only the approval procedure stamps who approved and when a trade went live or closed: the
    // book places trades by those stamps, so a writer claiming them could hide exposure.
    const forged = !isTrustedActor(writer.actor) && STAMPS.some((k) => k in doc.header);
    if (landing.status !== claimed || forged) {
      const { approved_by: _by, approved_at: _at, activated_at: _act, closed_at: _cl, proposed_by: _pb, ...rest } = doc.header;
      p.doc = { ...doc, header: { ...(forged ? rest : doc.header), status: landing.status } };
      p.content = renderRecord(p.doc);
    }
    // The computed book places a trade by when it went live and when it closed: stamp both once.
    const stamp: Record<string, string> = {};
    if (p.status === 'active' && prevStatus !== 'active' && !p.doc.header.activated_at && !p.doc.header.approved_at) stamp.activated_at = at.toISOString();
    if (p.status === 'closed' && prevStatus !== 'closed' && !p.doc.header.closed_at) stamp.closed_at = at.toISOString();
    if (Object.keys(stamp).length) {
      p.doc = { ...p.doc, header: { ...p.doc.header, ...stamp } };
      p.content = renderRecord(p.doc);
    }
    const exprId = isNew ? null : doc.id;
    if (exprId && p.status === 'closed' && prevStatus !== 'closed') p.extra.push({ path: '/memory/outcomes/new.md', content: outcomeFor(exprId, p.doc, at) });
    if (exprId && p.status === 'rejected' && prevStatus !== 'rejected')
      p.extra.push({
        path: '/memory/counterfactuals/new.md',
        // The tracking module's record: the declined trade's terms copied, so the detector can follow
        // it — or `untracked` when its stated confidence is below the minimum, as on every other path.
        content: rejectionCounterfactual(fs, p.doc, one(p.doc.header.rejection_reason) ?? 'declined', at).content,
      });
  }
  return p;
}

/**
 * A write with every side effect of seed §3.7 in ONE ForgeFS transaction: guardrails for
 * Expressions (blocked → nothing written), the landing status (agents only propose), archive of
 * the prior View/Expression (ForgeFS), auto-id for new.md, an Outcome when an Expression closes,
 * a Counterfactual when one is rejected, linked Expressions flagged `review_required` when a View
 * is invalidated, the search index and the audit entry (ForgeFS), all with the writer's actor.
 */
export async function applyWrite(fs: ForgeFS, rawPath: string, content: string, writer: WriteContext, options: WriteOptions): Promise<WriteOutcome> {
  const at = (options.now ?? (() => new Date()))();
  const { path, route } = routePath(rawPath);
  if (!isTrustedActor(writer.actor) && route.root !== 'memory' && route.root !== 'session') {
    throw new InvalidInputError(
      route.root === 'portfolio'
        ? "The portfolio is the PM's record of the book; the analyst cannot change it. Record what you found as an Observation instead."
        : 'Skills change only through skill-edit proposals the PM approves. Record the lesson as Process Knowledge (/memory/pk/new.md, with its evidence and a `stance:` line); well-corroborated lessons become proposals.',
    );
  }
  // Skill-edit proposals come only from the MetaOptimizer and are decided only by the PM: a model
  // that could write one (or mark one approved) could smuggle a skill edit past the approval gate.
  if (!isTrustedActor(writer.actor) && route.root === 'memory' && path.startsWith('/memory/proposals/')) {
    throw new InvalidInputError(
      'Skill-edit proposals are made by the weekly retrospective and decided by the PM on the Proposals screen; the analyst cannot write or approve one. Record the lesson as Process Knowledge (/memory/pk/new.md).',
    );
  }
  // Planned outside to let the search indexer prepare (embed) the exact content before the lock.
  const guess = plan(fs, path, content, writer, at);
  const prepare = guess && !guess.refused ? [{ path, content: guess.content }, ...guess.extra] : [{ path, content }];

  return fs.transaction(
    (tx) => {
      options.precondition?.(tx);
      if (route.root !== 'memory' || route.kind !== 'record') {
        // A limit line the guardrails could not read would refuse every trade after it: refuse it here, naming the line.
        if (path === CONSTRAINTS_PATH) readConstraints(content);
        const r = tx.writeFile(path, content, writer);
        return { ok: true, message: `Written: ${r.path}`, path: r.path, id: null, sideEffects: [] } satisfies WriteOutcome;
      }
      const p = plan(fs, path, content, writer, at)!;
      if (p.refused) {
        return { ok: false, message: `Not written: ${path} — ${p.refused}`, sideEffects: [] } satisfies WriteOutcome;
      }
      // Every check is kept with its figures, whatever came of it (guardrails/check-log.ts).
      let ran: GuardrailRun | null = null;
      const keep = (where: string, outcome: CheckOutcome) => {
        if (!ran) return;
        const { checks, bookAsOf } = ran;
        recordGuardrailCheck(fs.store.db, { at: at.toISOString(), path: where, stage: 'write', outcome, checks, bookAsOf, ...who(writer) });
      };
      if (p.category === 'expressions' && checkedAgainstLimits(p.status)) {
        const limits = typeof options.limits === 'function' ? options.limits() : options.limits;
        // The book read in this transaction, without this Expression wherever it counted: what it would join.
        ran = runGuardrails(fs, p.doc.header, limits, (id) => /^V-\d+$/.test(id) && tx.exists(`/memory/views/${id}.md`), p.doc.id);
        const violations = ran.violations;
        if (violations.length) {
          keep(path, 'blocked');
          return {
            ok: false,
            message: `Not written: ${path}\n${formatViolations(violations)}\nChange the Expression so every limit passes, or drop it.`,
            violations,
            sideEffects: [],
          } satisfies WriteOutcome;
        }
      }
      // Review comes after the hard limits: a trade that breaks them needs resizing, not a reviewer.
      if (options.review && p.category === 'expressions' && p.status === 'proposed' && !isTrustedActor(writer.actor) && !unchangedRecord(tx, path, p.doc)) {
        const gate = options.review(content);
        if (!gate.approved) {
          keep(path, 'not_written');
          return {
            ok: false,
            message: `Not written: ${path} — review required before the PM is asked.\n${gate.message}`,
            sideEffects: [],
          } satisfies WriteOutcome;
        }
      }
      const r = tx.writeFile(path, p.content, writer);
      keep(r.path, 'written');
      const side: string[] = [];
      if (r.archivedTo) side.push(`previous version archived to ${r.archivedTo}`);
      // An audit override (e.g. 'reject') names the PM's act on this record, not the records it creates.
      const sideWriter: WriteContext = { ...writer, operation: undefined };
      for (const e of p.extra) {
        // The Outcome of a close is Forge's record, not the closer's: only the tracker writes Outcomes.
        const outcome = e.path.startsWith('/memory/outcomes/');
        const w = tx.writeFile(e.path, e.content, outcome ? trackerWriter({ sessionId: writer.sessionId, taskId: writer.taskId }) : sideWriter);
        side.push(`${outcome ? 'Outcome' : 'Counterfactual'} ${w.id} recorded`);
      }
      if (p.category === 'views' && statusOf(p.doc.header) === 'invalidated' && p.prevStatus !== 'invalidated') {
        side.push(...flagLinkedExpressions(fs, tx, r.id!, p.doc, sideWriter, at));
      }
      const statusNote = p.category === 'expressions' ? ` (status ${p.status}${p.status === 'proposed' ? " — waiting for the PM's approval" : ''})` : '';
      const lines = [`Written: ${r.path}${statusNote}`];
      if (p.note) lines.push(`Note: ${p.note}`);
      if (side.length) lines.push(`Also: ${side.join('; ')}.`);
      return {
        ok: true,
        message: lines.join('\n'),
        path: r.path,
        id: r.id,
        status: p.category === 'expressions' ? p.status : statusOf(p.doc.header) || undefined,
        sideEffects: side,
      } satisfies WriteOutcome;
    },
    { prepare },
  );
}

/** Who ran a check, as the audit row of the same write names them. */
const who = (w: WriteContext) => ({ actor: w.actor, sessionId: w.sessionId ?? null, taskId: w.taskId ?? null });

/** True when the record at `path` already says exactly this (a re-save needs no new review). */
function unchangedRecord(tx: ForgeTx, path: string, doc: MemoryDocument): boolean {
  if (!tx.exists(path)) return false;
  const before = parseRecord(tx.readFile(path));
  return before.title === doc.title && (before.body ?? '').trim() === (doc.body ?? '').trim() && JSON.stringify(before.header) === JSON.stringify(doc.header);
}

/** Expressions linked to an invalidated View (its `expressions` list, or their `view_id`) go to review. */
function flagLinkedExpressions(fs: ForgeFS, tx: ForgeTx, viewId: string, view: MemoryDocument, writer: WriteContext, at: Date): string[] {
  const ids = new Set<string>();
  const listed = view.header.expressions;
  for (const v of Array.isArray(listed) ? listed : typeof listed === 'string' ? listed.split(/[,\s]+/) : []) {
    if (/^E-\d+$/.test(String(v))) ids.add(String(v));
  }
  for (const e of fs.listDir('/memory/expressions/', `view_id:${viewId}`, { limit: 1000 }).entries) if (e.id) ids.add(e.id);
  const out: string[] = [];
  for (const id of [...ids].sort()) {
    const p = `/memory/expressions/${id}.md`;
    if (!tx.exists(p)) continue;
    const doc = parseRecord(tx.readFile(p));
    const s = statusOf(doc.header);
    if (!countsInBook(s) && !isOpenProposal(s)) continue;
    if (s === 'review_required') continue;
    const next = renderRecord({ ...doc, header: { ...doc.header, status: 'review_required', review_reason: `View ${viewId} invalidated ${day(at)}` } });
    tx.writeFile(p, next, writer);
    out.push(`${id} flagged review_required`);
  }
  return out;
}
