import { AppError, ConflictError, InvalidInputError, isAppError, NotFoundError } from '../../common/errors';
import { countsInBook } from '../../common/expression-status';
import { categoryInfo, checkRecordAuthority, parseRecord, renderRecord, routePath, type ForgeFS, type MemoryDocument } from '../../fs';
import { withAssignedId } from '../../fs/memory-backend';
import type { GuardrailLimits, Violation } from '../../guardrails';
import { applyWrite } from '../../tools';

/**
 * The PM's own writes to memory (memory/write): a View or an Expression created or edited in the
 * UI, through the analyst's write pipeline (archive, audit as `pm`, side effects, guardrails).
 * What differs from the analyst: an edit names the version it started from, so a change made
 * meanwhile (the analyst, the scheduler, another window) is refused instead of overwritten; and
 * an Expression written here is always a proposal — capital goes live only through
 * expressions/approve, which re-checks the limits at that moment.
 */

export interface PmWriteInput {
  path: string;
  content: string;
  expectedVersion?: number;
}

export interface PmWriteResult {
  path: string;
  id: string;
  version: number;
  status: string | null;
  message: string;
}

/** Header fields only the approval and close steps may set; a proposal carries none of them. */
const STAMPS = ['approved_by', 'approved_at', 'activated_at', 'closed_at'];

/**
 * A record's version: 1 as first written, +1 per change. Every change of a View or an Expression
 * archives the version before it, so the archive count is the number of earlier versions.
 * Null when there is no live record at `path`.
 */
export function recordVersion(fs: ForgeFS, path: string): number | null {
  if (!fs.exists(path)) return null;
  return fs.history(path).versions.length + 1;
}

function currentState(fs: ForgeFS, path: string): { status: string | null; header: Record<string, unknown> } | undefined {
  const info = fs.recordInfo(path);
  return info ? { status: info.status, header: info.header } : undefined;
}

/** The draft's header if it parses (a malformed draft is reported with its line further on). */
function draftState(content: string): { status: string | null; header: Record<string, unknown> } | null {
  try {
    const doc = parseRecord(withAssignedId(content, 'X-000'));
    return { status: null, header: doc.header };
  } catch {
    return null;
  }
}

/** Parses the PM's draft; every line error carries `['content', line]` so the editor can mark it. */
function parseDraft(content: string, placeholderId: string | null): MemoryDocument {
  try {
    return parseRecord(placeholderId ? withAssignedId(content, placeholderId) : content);
  } catch (e) {
    if (!isAppError(e) || e.issues) throw e;
    const line = /^Line (\d+):/.exec(e.message);
    if (line) throw new InvalidInputError(e.message, [{ path: ['content', Number(line[1])], message: e.message }]);
    throw e;
  }
}

function statusOf(doc: MemoryDocument): string {
  const s = doc.header.status;
  return typeof s === 'string' ? s.trim().toLowerCase() : '';
}

/** Why an Expression that is no longer a proposal is not edited here, and what to do instead. */
function notEditable(id: string, status: string): AppError {
  const live = countsInBook(status);
  return new AppError(
    'forbidden',
    live
      ? `${id} is ${status}: a live trade is not edited here. To change it, create a new Expression with \`replaces: ${id}\` in its header; it is checked against the limits and waits for your approval.`
      : `${id} is ${status}: its decision is on record. To propose the trade again, create a new Expression.`,
  );
}

function guardrailError(violations: Violation[]): AppError {
  const lines = violations.map((v) => `- ${v.rule}: value ${v.actual}, limit ${v.limit} — ${v.message}`);
  return new AppError(
    'guardrail_violation',
    [
      `Blocked by ${violations.length === 1 ? 'a hard limit' : `${violations.length} hard limits`}; nothing was saved.`,
      ...lines,
      'Change the Expression so every limit passes.',
    ].join('\n'),
    // Structured for the editor's table: ['guardrails', rule, value, limit] (see memory/write in the API).
    { issues: violations.map((v) => ({ path: ['guardrails', v.rule, v.actual, v.limit], message: v.message })) },
  );
}

export async function writeAsPm(fs: ForgeFS, input: PmWriteInput, limits: GuardrailLimits | (() => GuardrailLimits), now?: () => Date): Promise<PmWriteResult> {
  const { path, route } = routePath(input.path);
  if (route.root !== 'memory' || route.kind !== 'record') {
    throw new InvalidInputError(
      `${path} is not a record; write /memory/views/new.md or /memory/expressions/new.md to create one, or an existing record's path to edit it.`,
    );
  }
  const info = categoryInfo(route.category);
  // Outcomes, Counterfactual results and calibration are the tracker's: say so (forbidden), naming
  // who writes them, before any other reason. ForgeFS refuses them again inside the transaction.
  checkRecordAuthority({ category: route.category, path, kind: 'write', ctx: { actor: 'pm' } }, currentState(fs, path), draftState(input.content));
  // Only versioned categories: an edit must be checkable against the version it started from.
  if (!info?.versioned) {
    throw new InvalidInputError(`${info?.noun ?? route.category}s are written by the analyst; here you can create and edit Views and Expressions.`);
  }
  const isNew = route.id === null;
  const opened = isNew ? null : recordVersion(fs, path);
  if (!isNew && opened === null) {
    throw new NotFoundError(`There is no ${info.noun} ${route.id}. To create one, write /memory/${route.category}/new.md.`);
  }
  const stale = (current: number) =>
    new ConflictError(
      `${route.id} was changed by someone else since you opened it (you edited version ${input.expectedVersion ?? opened}; it is now version ${current}). Reload it to see the changes, then edit again.`,
    );
  if (opened !== null && input.expectedVersion !== undefined && input.expectedVersion !== opened) throw stale(opened);

  const doc = parseDraft(input.content, isNew ? `${info.prefix}-000` : null);
  if (!isNew && doc.id !== route.id) {
    const problem = `the record says ${doc.id} but you are editing ${route.id}`;
    throw new InvalidInputError(`Line 1: ${problem}. Keep the title line starting with \`# ${route.id}\`.`, [{ path: ['content', 1], message: problem }]);
  }

  let content = input.content;
  let note: string | null = null;
  if (route.category === 'expressions') {
    const previous = isNew ? '' : (fs.recordInfo(path)?.status ?? '');
    if (previous && previous !== 'proposed') throw notEditable(doc.id, previous);
    // The write pipeline lets the PM write any status; this door only proposes (see the module note).
    const claimed = statusOf(doc);
    const stamped = STAMPS.filter((k) => k in doc.header);
    // proposed_by tells the approval banner whose idea it is (the analyst's proposals never carry `pm`).
    if (claimed !== 'proposed' || stamped.length || doc.header.proposed_by !== 'pm') {
      const header = Object.fromEntries(Object.entries(doc.header).filter(([k]) => !STAMPS.includes(k)));
      content = renderRecord({ ...doc, id: isNew ? 'new' : doc.id, header: { ...header, status: 'proposed', proposed_by: 'pm' } });
      if (claimed && claimed !== 'proposed') note = `You wrote status "${claimed}"; it was saved as proposed. Approve it to make it active.`;
    }
  }

  const out = await applyWrite(
    fs,
    path,
    content,
    { actor: 'pm' },
    {
      limits,
      now,
      // Checked again under the write lock: nothing may have changed between the read above and the write.
      precondition: () => {
        if (isNew) return;
        const current = recordVersion(fs, path);
        if (current === null) throw new NotFoundError(`${route.id} was deleted while you were editing it.`);
        if (current !== (input.expectedVersion ?? opened)) throw stale(current);
      },
    },
  );
  if (!out.ok) {
    if (out.violations?.length) throw guardrailError(out.violations);
    throw new AppError('blocked', out.message);
  }
  const written = out.path ?? path;
  return {
    path: written,
    id: out.id ?? route.id ?? doc.id,
    // A record this write created is at its first version (no reads after the commit to learn it).
    version: isNew ? 1 : (recordVersion(fs, written) ?? 1),
    status: out.status ?? null,
    message: note ? `${out.message}\n${note}` : out.message,
  };
}
