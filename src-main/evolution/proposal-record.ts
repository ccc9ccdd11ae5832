import { parseRecord, renderRecord, type HeaderFields, type HeaderValue, type MemoryDocument } from '../fs';
import type { StanceDirection } from './pk';

/**
 * The record of a skill-edit proposal, `/memory/proposals/SEP-NNN.md`. The header holds the
 * structured fields (skill, target_file, pk_ids, rationale, created_at, base_hash, status and the
 * decision); the body holds the quoted text and its replacement in fenced blocks, so the record
 * reads well as markdown and gives back both texts byte for byte.
 */

export type ProposalStatus = 'pending' | 'approved' | 'rejected';

/** Who rejected a proposal that could no longer be applied: Forge itself, not the PM. */
export const AUTO_REJECTER = 'forge';

export interface ProposalRecord {
  id: string;
  title: string;
  status: string;
  skill: string | null;
  targetFile: string | null;
  claim: string | null;
  direction: StanceDirection | null;
  /** The PK entries the proposal cites. */
  pkIds: string[];
  /** Every PK entry of the cluster that met the bar when the proposal was made. */
  corroborating: string[];
  rationale: string;
  createdAt: string | null;
  /** sha256 of the target file when the proposal was made. */
  baseHash: string | null;
  oldText: string | null;
  newText: string | null;
  model: string | null;
  approvedBy: string | null;
  approvedAt: string | null;
  /** The skill version the approval produced (see versions.ts). */
  skillVersion: number | null;
  rejectedBy: string | null;
  rejectedAt: string | null;
  rejectionReason: string | null;
  /** Why the record cannot be applied as it stands (missing fields, no fenced text); empty when structured. */
  problems: string[];
}

export interface NewProposal {
  title: string;
  skill: string;
  targetFile: string;
  claim: string;
  direction: StanceDirection;
  pkIds: string[];
  corroborating: string[];
  rationale: string;
  createdAt: string;
  baseHash: string;
  oldText: string;
  newText: string;
  model: string;
}

const CURRENT = 'CURRENT TEXT';
const PROPOSED = 'PROPOSED TEXT';

/** Text as one header line: whitespace folded, and never mistaken for a list or cut short. */
export function headerLine(text: string, max = 500): string {
  let s = text.replace(/\s+/g, ' ').trim();
  if (s.length > max) s = `${s.slice(0, max - 1).trimEnd()}…`;
  if (s.startsWith('[') && s.endsWith(']')) s = `(${s.slice(1, -1)})`;
  return s;
}

/** A fence longer than any run of backticks in the text, so the text can hold fences of its own. */
function fence(text: string): string {
  const longest = Math.max(0, ...[...text.matchAll(/`+/g)].map((m) => m[0].length));
  return '`'.repeat(Math.max(3, longest + 1));
}

function fenced(text: string): string {
  const f = fence(text);
  return `${f}text\n${text}\n${f}`;
}

/**
 * The fenced block under the first `## heading` line at or after `from`, exactly as `fenced` wrote
 * it, and where it ends; null when there is none. The quoted text is read first and the
 * replacement after it, so a heading inside a quoted text is never taken for the next section.
 */
function readFenced(body: string, heading: string, from = 0): { text: string; end: number } | null {
  const marker = `## ${heading}\n`;
  const at = body.startsWith(marker, from) ? from : body.indexOf(`\n${marker}`, from);
  if (at < 0) return null;
  const start = (at === from && body.startsWith(marker, from) ? at : at + 1) + marker.length;
  const opener = /(`{3,})text\n/y;
  opener.lastIndex = start;
  const open = opener.exec(body);
  if (!open) return null;
  const f = open[1]!;
  const textStart = start + open[0].length;
  // The text holds no run of backticks as long as the fence, so the first `\n<fence>` closes it.
  const end = body.indexOf(`\n${f}`, textStart);
  if (end < 0) return null;
  const after = body[end + 1 + f.length];
  if (after !== undefined && after !== '\n') return null;
  return { text: body.slice(textStart, end), end: end + 1 + f.length };
}

/** Rationale lines that look like headings are indented, so they can never be read as a section. */
function quietHeadings(text: string): string {
  return text.replace(/^#/gm, ' #');
}

export function renderProposal(p: NewProposal): string {
  const body = [
    '## SUMMARY',
    `Edit ${p.targetFile} of the ${p.skill} skill: ${p.direction} "${p.claim}", backed by ${p.corroborating.length} corroborating Process Knowledge entries (cited: ${p.pkIds.join(', ')}). Waiting for the PM's decision.`,
    '',
    '## RATIONALE',
    quietHeadings(p.rationale.trim()),
    '',
    `## ${CURRENT}`,
    fenced(p.oldText),
    '',
    `## ${PROPOSED}`,
    fenced(p.newText),
    '',
  ];
  return renderRecord({
    id: 'new',
    title: headerLine(p.title, 160),
    header: {
      status: 'pending',
      skill: p.skill,
      target_file: p.targetFile,
      claim: p.claim,
      direction: p.direction,
      pk_ids: p.pkIds,
      corroborating: p.corroborating,
      rationale: headerLine(p.rationale),
      created_at: p.createdAt,
      base_hash: p.baseHash,
      model: headerLine(p.model, 120),
    },
    body: body.join('\n'),
  });
}

const text = (v: HeaderValue | undefined): string | null => (v === undefined || v === '' || Array.isArray(v) ? null : String(v));
const ids = (v: HeaderValue | undefined): string[] =>
  v === undefined || v === '' ? [] : (Array.isArray(v) ? v : String(v).split(/[,\s]+/)).map((x) => String(x).trim()).filter(Boolean);

/** Reads a proposal record; what a structured proposal needs but lacks is listed in `problems`. */
export function proposalFromDocument(doc: MemoryDocument): ProposalRecord {
  const h = doc.header;
  const body = doc.body ?? '';
  const direction = text(h.direction);
  const version = h.skill_version;
  const current = readFenced(body, CURRENT);
  const proposed = current ? readFenced(body, PROPOSED, current.end) : null;
  const r: ProposalRecord = {
    id: doc.id,
    title: doc.title,
    status: (text(h.status) ?? 'pending').toLowerCase(),
    skill: text(h.skill),
    targetFile: text(h.target_file),
    claim: text(h.claim),
    direction: direction === 'for' || direction === 'against' ? direction : null,
    pkIds: ids(h.pk_ids),
    corroborating: ids(h.corroborating),
    rationale: text(h.rationale) ?? '',
    createdAt: text(h.created_at),
    baseHash: text(h.base_hash),
    oldText: current?.text ?? null,
    newText: proposed?.text ?? null,
    model: text(h.model),
    approvedBy: text(h.approved_by),
    approvedAt: text(h.approved_at),
    skillVersion: typeof version === 'number' && Number.isInteger(version) ? version : null,
    rejectedBy: text(h.rejected_by),
    rejectedAt: text(h.rejected_at),
    rejectionReason: text(h.rejection_reason),
    problems: [],
  };
  if (!r.skill) r.problems.push('it names no skill (`skill:`)');
  if (!r.targetFile) r.problems.push('it names no target file (`target_file:`)');
  if (r.oldText === null) r.problems.push(`it has no quoted text (a fenced block under "## ${CURRENT}")`);
  if (r.newText === null) r.problems.push(`it has no replacement (a fenced block under "## ${PROPOSED}")`);
  return r;
}

export function parseProposal(content: string): ProposalRecord {
  return proposalFromDocument(parseRecord(content));
}

/**
 * The record with a decision stamped on it: header fields set, and a `## DECISION` section
 * appended so the reason reads with the proposal.
 */
export function withDecision(content: string, fields: HeaderFields, note: string): string {
  const doc = parseRecord(content);
  const body = (doc.body ?? '').replace(/\s*$/, '\n');
  return renderRecord({ ...doc, header: { ...doc.header, ...fields }, body: `${body}\n## DECISION\n${note.trim()}\n` });
}
