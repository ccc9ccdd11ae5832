import { isApiError } from '../api/errors';
import type { Violation } from './approval';

/**
 * Pure rules of the PM's record editor (New / Edit on the Views and Expressions screens): the
 * template a new record starts from, which records may be edited here, and how a refused save
 * is read back from the error (the line of a parse error, the limits a guardrail block names).
 */

export type RecordKind = 'views' | 'expressions';

/** The header fields a new record starts with, in the order the analyst writes them. */
const headers: Record<RecordKind, string[]> = {
  views: ['status: active', 'confidence:', 'scope:', 'category:', 'horizon:'],
  // Status is fixed: whatever the PM types, a new Expression is a proposal until approved.
  expressions: ['view_id:', 'instrument:', 'notional:', 'max_loss_pct:', 'duration_impact:', 'factor:', 'status: proposed'],
};

const sections: Record<RecordKind, string[]> = {
  views: ['SUMMARY', 'THESIS', 'INVALIDATION'],
  expressions: ['SUMMARY', 'ENTRY', 'EXIT RULES'],
};

/**
 * A new record's markdown: `# new — ` (the id is assigned on save; the title goes after the
 * dash), the category's header fields, `---`, then its sections.
 */
export function recordTemplate(kind: RecordKind): string {
  const body = sections[kind].flatMap((s, i) => [...(i ? [''] : []), `## ${s}`, '']);
  return ['# new — ', ...headers[kind], '---', ...body].join('\n');
}

/**
 * Whether the editor offers Edit for this record. An Expression is edited only while it is a
 * proposal; once approved (or rejected, or closed) the core refuses, so the button is not shown.
 */
export function canEdit(path: string, status: string | null | undefined): boolean {
  if (/^\/memory\/views\/V-\d{3,}\.md$/.test(path)) return true;
  if (/^\/memory\/expressions\/E-\d{3,}\.md$/.test(path)) return !status || status === 'proposed';
  return false;
}

/** The 1-based line a parse error names (`issues[].path = ['content', line]`, or "Line N:"), else null. */
export function errorLine(err: unknown): number | null {
  if (!isApiError(err) || err.code !== 'invalid_input') return null;
  for (const issue of err.issues) {
    if (issue.path[0] === 'content' && typeof issue.path[1] === 'number' && issue.path[1] >= 1) return issue.path[1];
  }
  const m = /^Line (\d+):/.exec(err.message);
  return m ? Number(m[1]) : null;
}

/** The broken limits of a `guardrail_violation` (`issues[].path = ['guardrails', rule, value, limit]`). */
export function blockedLimits(err: unknown): Violation[] {
  if (!isApiError(err) || err.code !== 'guardrail_violation') return [];
  return err.issues
    .filter((i) => i.path[0] === 'guardrails' && i.path.length >= 4)
    .map((i) => ({ rule: String(i.path[1]), actual: i.path[2] ?? '', limit: i.path[3] ?? '', message: i.message }));
}

/** The file name a saved path is opened by on its screen (`/memory/views/V-007.md` → `V-007.md`). */
export function fileOf(path: string): string {
  return path.slice(path.lastIndexOf('/') + 1);
}
