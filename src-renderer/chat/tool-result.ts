import { formatHash } from '../app/routes';
import { detectRecordId } from '../palette/commands';
import type { ToolCallView } from './store';

/**
 * What a tool call means to the PM, read from its result text: the record a write produced (so
 * Chat can link `E-004`, not the `new.md` the analyst asked for) and, for a write the guardrails
 * refused, each broken limit as a row. Pure, so it is tested without a DOM.
 */

export interface WrittenRecord {
  /** The id Forge assigned, e.g. E-004 (or the file name for notes that have no id). */
  id: string;
  /** Where the record opens in the app, or null when it has no screen (a session note). */
  href: string | null;
  path: string;
}

export interface BrokenLimit {
  rule: string;
  value: string;
  limit: string;
  why: string;
}

/** The write pipeline answers `Written: /memory/expressions/E-004.md (status proposed …)`. */
const WRITTEN = /^Written: (\S+)/m;
/** formatViolations (src-main/guardrails/check.ts): `- max_single_risk: actual 7, limit 5 — why`. */
const VIOLATION = /^- ([\w.-]+): actual (.+?), limit (.+?)(?: — (.*))?$/;

export function writtenRecord(call: ToolCallView): WrittenRecord | null {
  const r = call.result;
  if (call.name !== 'write' || !r || r.isError) return null;
  const path = WRITTEN.exec(r.content)?.[1];
  if (!path) return null;
  const file = path.split('/').pop() ?? path;
  const found = detectRecordId(file.replace(/\.md$/, ''));
  if (!found) return { id: file, href: null, path };
  // Views and Expressions open on their screens; other records open by path (as the palette does).
  const rest = found.rest[0]?.startsWith('/') ? [path] : found.rest;
  return { id: found.id, href: formatHash({ screen: found.screen, rest }), path };
}

/** The limits a refused write broke, in the order the guardrails reported them; empty when none. */
export function brokenLimits(call: ToolCallView): BrokenLimit[] {
  const r = call.result;
  if (!r?.isError || !/BLOCKED by guardrails/.test(r.content)) return [];
  const rows: BrokenLimit[] = [];
  for (const line of r.content.split('\n')) {
    const m = VIOLATION.exec(line.trim());
    if (m) rows.push({ rule: m[1]!, value: m[2]!, limit: m[3]!, why: m[4] ?? '' });
  }
  return rows;
}

/** The argument shown beside the tool name: the written record's id once known, else the input's path. */
export function toolArgument(call: ToolCallView): string {
  const written = writtenRecord(call);
  if (written) return written.id;
  return String(call.input.path ?? call.input.scope ?? call.input.source ?? call.input.target ?? '');
}
