import type { LineageStep, LineageView } from '../api/lineage';
import { InvalidInputError, NotFoundError } from '../common/errors';
import { reviewKey } from '../executor';
import { parseRecord, type ForgeFS } from '../fs';
import type { GuardrailCheckRecord } from '../guardrails';
import { guardrailSteps } from './guardrail-steps';
import { sessionSteps, type SkillVersionLookup, writerName } from './session-steps';

/**
 * Decision lineage for one Expression (issue #29 §3), built from what is already stored: the
 * Expression's audit rows (who wrote it, from which session; the PM's approve/reject), the Views it
 * expresses as they stood when it was proposed (record versions), the proposing session's tool log,
 * tasks and reviews, and the Outcomes and Counterfactuals that name it. The link between session and
 * Expression is the session id on the audit row of the Expression's first write — never a guess by
 * time. Whatever was not stored becomes a step that says so.
 */

export interface LineageOptions {
  skillVersion?: SkillVersionLookup;
}

const ID = /^E-\d{3,}$/;

interface AuditRow {
  seq: number;
  at: string;
  actor: string;
  operation: string;
  path: string;
  session_id: string | null;
  content_hash: string | null;
}

const text = (v: unknown) => (typeof v === 'string' ? v.trim() : typeof v === 'number' ? String(v) : '');

const step = (s: Omit<LineageStep, 'figures' | 'links' | 'recorded'> & Partial<LineageStep>): LineageStep => ({
  figures: [],
  links: [],
  recorded: true,
  ...s,
});

/** View ids an Expression header names: `view_id: V-001` or a list `[V-001, V-002]`. */
function viewIds(header: Record<string, unknown>): string[] {
  const raw = header.view_id ?? header.view;
  const items = Array.isArray(raw) ? raw : typeof raw === 'string' ? raw.replace(/^\[|\]$/g, '').split(',') : [];
  return [...new Set(items.map((x) => text(x)).filter((x) => /^V-\d+$/.test(x)))];
}

/**
 * The View as it stood at `at`: a version archived at T was the live one until T, so the version
 * current at `at` is the first one archived after it, or the live record when none was.
 */
function viewStep(fs: ForgeFS, viewId: string, at: string): LineageStep {
  const path = `/memory/views/${viewId}.md`;
  let history: ReturnType<ForgeFS['history']>;
  try {
    history = fs.history(path);
  } catch {
    return step({
      at,
      kind: 'gap',
      title: `View ${viewId} not found`,
      summary: `The Expression names ${viewId}, but no version of it is stored.`,
      recorded: false,
    });
  }
  const current = history.current;
  if (current && current.createdAt > at) {
    return step({
      at: current.createdAt,
      kind: 'view',
      title: `View ${viewId}: version then not recorded`,
      summary: `${viewId} as it stood when this Expression was first written is not stored: its earliest stored version was written later, at ${current.createdAt} (a seeded or imported workspace writes its records in one pass).`,
      figures: [{ label: 'earliest stored version', value: current.createdAt }],
      links: [path],
      recorded: false,
    });
  }
  const later = [...history.versions].filter((v) => v.archivedAt > at).sort((a, b) => a.archivedAt.localeCompare(b.archivedAt))[0];
  const versions = history.versions.length + (current ? 1 : 0);
  const title = later?.title ?? current?.title ?? viewId;
  const hash = later?.contentHash ?? current?.contentHash ?? '';
  const status = later?.status ?? current?.status ?? '';
  const confidence = later?.confidence ?? current?.confidence ?? null;
  const which = later ? `an earlier version, archived at ${later.archivedAt}` : 'the version still current';
  // It was in force from the previous archive (the write that replaced the one before) or its creation.
  const began =
    history.versions
      .map((v) => v.archivedAt)
      .filter((t) => t <= at)
      .sort()
      .at(-1) ??
    current?.createdAt ??
    null;
  return step({
    at: began,
    kind: 'view',
    title: `View ${viewId}: ${title}`,
    summary: `Expressed ${viewId} as it stood when the Expression was proposed: ${which} (${versions} version${versions === 1 ? '' : 's'} stored).`,
    figures: [
      { label: 'status then', value: status || 'not recorded' },
      { label: 'confidence then', value: confidence === null ? 'not recorded' : String(confidence) },
      { label: 'content sha256', value: hash.slice(0, 16) || 'not recorded' },
      { label: 'in force since', value: began ?? 'not recorded' },
    ],
    links: later ? [later.archivePath, path] : [path],
  });
}

function decisionStep(row: AuditRow, header: Record<string, unknown>, id: string, approvalCheck?: GuardrailCheckRecord): LineageStep {
  if (row.operation === 'approve') {
    return step({
      at: row.at,
      kind: 'decision',
      title: `PM approved ${id}`,
      summary: approvalCheck
        ? `Approval re-ran every hard limit against the book at that moment and only succeeds when all pass: the figures it measured are in the guardrail step at ${approvalCheck.at}.`
        : 'Approval re-ran every hard limit against the book at that moment and only succeeds when all pass; the figures it measured then were not recorded (see the guardrail steps for the figures checked at the proposal).',
      figures: [
        { label: 'decision', value: 'approve' },
        { label: 'by', value: text(header.approved_by) || row.actor },
      ],
      links: [`/memory/expressions/${id}.md`],
    });
  }
  const reason = text(header.rejection_reason);
  return step({
    at: row.at,
    kind: 'decision',
    title: `PM declined ${id}`,
    summary: reason ? `Reason: ${reason}` : 'Reason: not recorded.',
    figures: [
      { label: 'decision', value: 'decline' },
      { label: 'reason', value: reason || 'not recorded' },
    ],
    links: [`/memory/expressions/${id}.md`],
  });
}

/** Outcomes or Counterfactuals that name this Expression, each with its figures from the header. */
function followSteps(fs: ForgeFS, id: string, category: 'outcomes' | 'counterfactuals'): LineageStep[] {
  const entries = fs.listDir(`/memory/${category}/`, `expression:${id}`, { limit: 50 }).entries;
  return entries.map((e) => {
    const path = `/memory/${category}/${e.id}.md`;
    const info = fs.recordInfo(path);
    const header = info?.header ?? {};
    const skip = new Set(['expression', 'view_id', 'source']);
    const figures = Object.entries(header)
      .filter(([k, v]) => !skip.has(k) && (typeof v === 'string' || typeof v === 'number') && String(v).length <= 80)
      .slice(0, 12)
      .map(([label, v]) => ({ label, value: String(v) }));
    return step({
      at: info?.createdAt ?? null,
      kind: category === 'outcomes' ? 'outcome' : 'counterfactual',
      title: `${category === 'outcomes' ? 'Outcome' : 'Counterfactual'} ${e.id}: ${info?.title ?? ''}`.trim(),
      summary: `${info?.status ? `Status ${info.status}. ` : ''}Tracked what followed the decision on ${id}.`,
      figures,
      links: [path],
    });
  });
}

/** The steps in time order; a step whose time was not recorded keeps its place after the one before it. */
function inTimeOrder(steps: LineageStep[]): LineageStep[] {
  const keyed: { s: LineageStep; key: string; n: number }[] = [];
  let last = '';
  steps.forEach((s, n) => {
    if (s.at) last = s.at;
    keyed.push({ s, key: s.at ?? last, n });
  });
  return keyed.sort((a, b) => a.key.localeCompare(b.key) || a.n - b.n).map((k) => k.s);
}

export function buildLineage(fs: ForgeFS, id: string, options: LineageOptions = {}): LineageView {
  if (!ID.test(id)) throw new InvalidInputError(`"${id.slice(0, 20)}" is not an Expression id such as E-004.`);
  const path = `/memory/expressions/${id}.md`;
  if (!fs.exists(path)) throw new NotFoundError(`There is no Expression ${id}; list /memory/expressions/ to see them.`);
  const doc = parseRecord(fs.readFile(path));
  const header = doc.header as Record<string, unknown>;
  const info = fs.recordInfo(path);
  const audit = fs.store.audit.list({ path, limit: 1000 }).reverse() as AuditRow[];
  const first = audit[0];
  const proposedAt = first?.at ?? info?.createdAt ?? new Date(0).toISOString();
  const sessionId = audit.find((r) => r.session_id)?.session_id ?? null;
  const steps: LineageStep[] = [];

  for (const v of viewIds(header)) steps.push(viewStep(fs, v, proposedAt));
  if (!viewIds(header).length)
    steps.push(
      step({
        at: null,
        kind: 'gap',
        title: 'No View linked',
        summary: `${id} names no View (view_id), so which View it expresses is not recorded.`,
        recorded: false,
      }),
    );

  if (sessionId) {
    // Reviews are filed by the text reviewed: any version of this record marks the review that cleared it.
    const texts = [fs.readFile(path), ...fs.history(path).versions.map((v) => fs.readFile(v.archivePath))];
    const matchKeys = new Set(texts.map(reviewKey));
    const fromSession = sessionSteps(fs.store, sessionId, proposedAt, { matchKeys, path, skillVersion: options.skillVersion });
    // The write that created this Expression is the proposal step below, not a second entry.
    steps.push(...fromSession.filter((s) => !(s.kind === 'write' && s.links.some((l) => l === path))));
  } else {
    steps.push(
      step({
        at: proposedAt,
        kind: 'gap',
        title: 'No analyst session',
        summary: `${id} was first written by ${first?.actor ?? 'an unknown writer'} outside an analyst session, so no reads, fetches, tasks or reviews are linked to it.`,
        recorded: false,
      }),
    );
  }

  // Every recorded guardrail check, before the audit rows so a check sorts ahead of the write it allowed.
  const checks = guardrailSteps(fs.store, path);
  steps.push(...checks.steps);
  if (!checks.records.length)
    steps.push(
      step({
        at: proposedAt,
        kind: 'gap',
        title: 'Guardrail checks not recorded',
        summary: `No guardrail check of ${id} is stored: it was written before Forge kept each check's figures, or not through the write pipeline (a seeded or imported record).`,
        recorded: false,
      }),
    );
  const approvals = checks.records.filter((c) => c.stage === 'approve' && c.outcome === 'approved');
  let approvalsSeen = 0;
  for (const row of audit) {
    if (row === first) {
      steps.push(
        step({
          at: row.at,
          kind: 'proposal',
          title: `${id} proposed by ${writerName(row.actor)}`,
          summary: `${info?.title ?? id}. Written through the guardrails and the review gate${row.session_id ? ` in session ${row.session_id}` : ''}.`,
          figures: ['instrument', 'notional', 'max_loss_pct', 'duration_impact', 'factor', 'confidence']
            .filter((k) => text(header[k]))
            .map((k) => ({ label: k, value: text(header[k]) })),
          links: [path, ...(row.session_id ? [`/session/${row.session_id}/turn_history.md`] : [])],
        }),
      );
    } else if (row.operation === 'approve' || row.operation === 'reject') {
      // Each approval wrote its own passed check in the same transaction: the n-th approval is the n-th such check.
      const check = row.operation === 'approve' ? approvals[approvalsSeen++] : undefined;
      steps.push(decisionStep(row, header, id, check));
    } else {
      steps.push(
        step({ at: row.at, kind: 'write', title: `${id} ${row.operation} by ${row.actor}`, summary: `The record changed (${row.operation}).`, links: [path] }),
      );
    }
  }
  if (!audit.length) steps.push(step({ at: null, kind: 'gap', title: 'Audit trail not recorded', summary: `No audit row names ${path}.`, recorded: false }));

  steps.push(...followSteps(fs, id, 'outcomes'), ...followSteps(fs, id, 'counterfactuals'));
  const status = text(header.status) || info?.status || '';
  return { id, title: info?.title ?? id, status, path, sessionId, steps: inTimeOrder(steps) };
}
