import { parse as parseYaml } from 'yaml';
import { z } from 'zod';
import { InvalidInputError } from '../common/errors';
import { extractSection, parseRecord, renderRecord, sha256 } from '../fs';

/**
 * The synthesis output contract (skill portfolio-synthesis, templates/synthesis.md): the
 * `## VIEW UPDATES` and `## EXPRESSION IMPLICATIONS` sections each hold one fenced yaml block —
 * a list, or `[]`. Parsed and validated here so they become concrete memory updates, not prose.
 */
export const SYNTHESIS_BLOCKS = ['VIEW UPDATES', 'EXPRESSION IMPLICATIONS'] as const;
export type SynthesisBlock = (typeof SYNTHESIS_BLOCKS)[number];

const probability = z.number().min(0).max(1);

export const viewUpdateSchema = z
  .object({
    view_id: z.string().regex(/^V-\d{3,}$/, 'must be a View id such as V-001'),
    prior_confidence: probability,
    updated_confidence: probability,
    direction: z.enum(['unchanged', 'strengthened', 'weakened', 'invalidated']),
    scenario_changes: z
      .array(z.object({ scenario: z.string().min(1), prior_probability: probability, updated_probability: probability }).strict())
      .default([]),
    key_evidence: z.string().min(1, 'must say what moved the View'),
  })
  .strict();

export const expressionImplicationSchema = z
  .object({
    expression_id: z.string().regex(/^E-\d{3,}$/, 'must be an Expression id such as E-001'),
    action: z.enum(['hold', 'adjust', 'close', 'review']),
    adjustment: z.string().default(''),
    urgency: z.enum(['immediate', 'next_session', 'monitoring']),
  })
  .strict()
  .superRefine((v, ctx) => {
    if (v.action === 'adjust' && !v.adjustment.trim()) ctx.addIssue({ code: 'custom', path: ['adjustment'], message: 'must say what to change when action is adjust' });
  });

export type ViewUpdate = z.output<typeof viewUpdateSchema>;
export type ExpressionImplication = z.output<typeof expressionImplicationSchema>;

export interface SynthesisContract {
  viewUpdates: ViewUpdate[];
  expressionImplications: ExpressionImplication[];
}

/** A malformed block: names the block and the field, so the sub-agent (or PM) can fix exactly that. */
export class SynthesisContractError extends InvalidInputError {
  readonly block: SynthesisBlock;
  readonly field: string;
  constructor(block: SynthesisBlock, field: string, problem: string) {
    super(`Synthesis ${block} block${field ? `, field ${field}` : ''}: ${problem}`, [{ path: [block, ...(field ? [field] : [])], message: problem }]);
    this.name = 'SynthesisContractError';
    this.block = block;
    this.field = field;
  }
}

function fencedYaml(block: SynthesisBlock, section: string): string {
  const m = /^[ \t]*(```|~~~)[ \t]*(ya?ml)?[ \t]*\n([\s\S]*?)^[ \t]*\1[ \t]*$/m.exec(section);
  if (!m) throw new SynthesisContractError(block, '', 'no fenced ```yaml block found under the heading; write the list (or []) inside one.');
  return m[3]!;
}

function fieldPath(path: PropertyKey[]): string {
  return path.map((p, i) => (typeof p === 'number' ? `[${p}]` : `${i ? '.' : ''}${String(p)}`)).join('');
}

function parseBlock<S extends z.ZodType>(text: string, block: SynthesisBlock, item: S): z.output<S>[] {
  const section = extractSection(text, block);
  if (section === null) throw new SynthesisContractError(block, '', `the "## ${block}" section is missing; add it with a yaml list, or [] when nothing is affected.`);
  let value: unknown;
  try {
    value = parseYaml(fencedYaml(block, section));
  } catch (e) {
    throw new SynthesisContractError(block, '', `the yaml does not parse (${(e as Error).message.split('\n')[0]}).`);
  }
  if (value === null || value === undefined) value = [];
  if (!Array.isArray(value)) throw new SynthesisContractError(block, '', 'must be a yaml list (items starting with "- "), or [].');
  const parsed = z.array(item).safeParse(value);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    throw new SynthesisContractError(block, fieldPath(issue.path), issue.message);
  }
  return parsed.data;
}

/** Reads and validates both blocks of a synthesis output. Throws SynthesisContractError. */
export function parseSynthesis(text: string): SynthesisContract {
  const viewUpdates = parseBlock(text, 'VIEW UPDATES', viewUpdateSchema);
  const expressionImplications = parseBlock(text, 'EXPRESSION IMPLICATIONS', expressionImplicationSchema);
  const dupe = (ids: string[]) => ids.find((id, i) => ids.indexOf(id) !== i);
  const dv = dupe(viewUpdates.map((v) => v.view_id));
  if (dv) throw new SynthesisContractError('VIEW UPDATES', 'view_id', `${dv} appears twice; give one item per View.`);
  const de = dupe(expressionImplications.map((e) => e.expression_id));
  if (de) throw new SynthesisContractError('EXPRESSION IMPLICATIONS', 'expression_id', `${de} appears twice; give one item per Expression.`);
  return { viewUpdates, expressionImplications };
}

/** One concrete memory change a synthesis proposes; applied by the analyst's write tool or the PM. */
export interface ProposedMemoryUpdate {
  kind: 'view_update' | 'expression_action';
  target: string;
  path: string;
  /** What changes, in the PM's words (one line). */
  summary: string;
  /** The full new record text to write (null when there is nothing to write, e.g. hold, or the record is missing). */
  proposedContent: string | null;
  /** Hash of the record the proposal was computed from; a write should refuse if it changed since. */
  baseHash: string | null;
  urgency: 'immediate' | 'next_session' | 'monitoring' | null;
  /** Mismatches a PM should see (stated prior confidence differs from memory, scenario not found, ...). */
  warnings: string[];
}

const pct = (p: number) => `${Math.round(p * 100)}%`;

/** Turns a parsed synthesis into proposed memory updates, reading the current records to build them. */
export function planSynthesisUpdates(
  contract: SynthesisContract,
  files: { exists(path: string): boolean; readFile(path: string): string },
  today = new Date().toISOString().slice(0, 10),
): ProposedMemoryUpdate[] {
  const out: ProposedMemoryUpdate[] = [];
  for (const v of contract.viewUpdates) {
    const path = `/memory/views/${v.view_id}.md`;
    const warnings: string[] = [];
    const change = `${v.view_id}: confidence ${v.prior_confidence} → ${v.updated_confidence} (${v.direction})`;
    if (!files.exists(path)) {
      out.push({ kind: 'view_update', target: v.view_id, path, summary: change, proposedContent: null, baseHash: null, urgency: null, warnings: [`${v.view_id} is not in memory; nothing to update.`] });
      continue;
    }
    const current = files.readFile(path);
    const doc = parseRecord(current);
    const stored = Number(doc.header.confidence);
    if (Number.isFinite(stored) && Math.abs(stored - v.prior_confidence) > 0.005) {
      warnings.push(`The synthesis assumed prior confidence ${v.prior_confidence}, but memory says ${stored}.`);
    }
    doc.header.confidence = v.updated_confidence;
    if (v.direction === 'invalidated') doc.header.status = 'invalidated';
    let body = doc.body ?? '';
    for (const s of v.scenario_changes) {
      const re = new RegExp(`^(\\s*-\\s*${escapeRe(s.scenario)}[^\\n]*?\\()\\s*\\d+(?:\\.\\d+)?\\s*%(\\))`, 'mi');
      if (re.test(body)) body = body.replace(re, `$1${pct(s.updated_probability)}$2`);
      else warnings.push(`Scenario "${s.scenario}" was not found in ${v.view_id}'s SCENARIOS; its probability was not changed.`);
    }
    const lines = [
      `## UPDATE ${today} (synthesis)`,
      `- Confidence ${v.prior_confidence} → ${v.updated_confidence} (${v.direction}).`,
      ...v.scenario_changes.map((s) => `- ${s.scenario}: ${pct(s.prior_probability)} → ${pct(s.updated_probability)}.`),
      `- Evidence: ${v.key_evidence}`,
    ];
    doc.body = `${body.replace(/\s*$/, '')}\n\n${lines.join('\n')}\n`;
    out.push({ kind: 'view_update', target: v.view_id, path, summary: change, proposedContent: renderRecord(doc), baseHash: sha256(current), urgency: null, warnings });
  }
  for (const e of contract.expressionImplications) {
    const path = `/memory/expressions/${e.expression_id}.md`;
    const exists = files.exists(path);
    const summary = `${e.expression_id}: ${e.action}${e.adjustment ? ` — ${e.adjustment}` : ''} (${e.urgency.replace('_', ' ')})`;
    out.push({
      kind: 'expression_action', target: e.expression_id, path, summary,
      // Trades change only through the write tool with guardrails, review and PM approval.
      proposedContent: null,
      baseHash: exists ? sha256(files.readFile(path)) : null,
      urgency: e.urgency,
      warnings: exists ? [] : [`${e.expression_id} is not in memory.`],
    });
  }
  return out;
}

function escapeRe(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
