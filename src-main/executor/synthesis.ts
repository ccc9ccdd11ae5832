import { parse as parseYaml } from 'yaml';
import { z } from 'zod';
import { InvalidInputError } from '../common/errors';
import { extractSection, parseRecord, renderRecord, sha256 } from '../fs';

/**
 * The synthesis output contract (skill portfolio-synthesis, templates/synthesis.md): the
 * `## VIEW UPDATES` and `## EXPRESSION IMPLICATIONS` sections each hold one fenced yaml block —
 * a list, or `[]`; `## NEW EXPRESSIONS` and `## PROCESS KNOWLEDGE` may add one each. Parsed and
 * validated here so they become concrete memory updates, not prose; the executor writes them
 * through the write pipeline (see synthesis-step.ts).
 */
export const SYNTHESIS_BLOCKS = ['VIEW UPDATES', 'EXPRESSION IMPLICATIONS', 'NEW EXPRESSIONS', 'PROCESS KNOWLEDGE'] as const;
/** Blocks a synthesis may leave out (nothing proposed). */
const OPTIONAL_BLOCKS: readonly SynthesisBlock[] = ['NEW EXPRESSIONS', 'PROCESS KNOWLEDGE'];
export type SynthesisBlock = (typeof SYNTHESIS_BLOCKS)[number];

const probability = z.number().min(0).max(1);

export const viewUpdateSchema = z
  .object({
    view_id: z.string().regex(/^V-\d{3,}$/, 'must be a View id such as V-001'),
    prior_confidence: probability,
    updated_confidence: probability,
    direction: z.enum(['unchanged', 'strengthened', 'weakened', 'invalidated']),
    scenario_changes: z.array(z.object({ scenario: z.string().min(1), prior_probability: probability, updated_probability: probability }).strict()).default([]),
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
    if (v.action === 'adjust' && !v.adjustment.trim())
      ctx.addIssue({ code: 'custom', path: ['adjustment'], message: 'must say what to change when action is adjust' });
  });

const oneLine = (max: number) =>
  z
    .string()
    .trim()
    .min(1)
    .max(max)
    .refine((v) => !v.includes('\n'), 'must be one line');

/** A trade the synthesis proposes; it lands `proposed` after the hard limits and a review, like any agent's. */
export const newExpressionSchema = z
  .object({
    title: oneLine(200),
    view_id: z.string().regex(/^V-\d{3,}$/, 'must be a View id such as V-001'),
    instrument: oneLine(300),
    notional: z.number().positive(),
    max_loss_pct: z.number().positive(),
    duration_impact: z.number(),
    factor: oneLine(80), // required: concentration cannot be measured without it, and the write would refuse it anyway
    rationale: z.string().trim().min(1, 'must say how the trade expresses the View'),
    exit_rules: z.string().trim().default(''),
  })
  .strict();

/** A process lesson the synthesis draws; a new PK record starts light (weight 0.3 unless given). */
export const processKnowledgeSchema = z
  .object({
    title: oneLine(200),
    lesson: z.string().trim().min(1, 'must state the lesson'),
    category: z.string().regex(/^[a-z][a-z0-9_]{0,40}$/, 'must be a lowercase word such as sizing'),
    skill: z
      .string()
      .regex(/^[a-z0-9][a-z0-9-]{0,63}$/, 'must be a skill name such as expression-design')
      .optional(),
    weight: probability.default(0.3),
  })
  .strict();

export type ViewUpdate = z.output<typeof viewUpdateSchema>;
export type ExpressionImplication = z.output<typeof expressionImplicationSchema>;
export type NewExpression = z.output<typeof newExpressionSchema>;
export type NewProcessKnowledge = z.output<typeof processKnowledgeSchema>;

export interface SynthesisContract {
  viewUpdates: ViewUpdate[];
  expressionImplications: ExpressionImplication[];
  newExpressions: NewExpression[];
  processKnowledge: NewProcessKnowledge[];
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
  if (section === null && OPTIONAL_BLOCKS.includes(block)) return [];
  if (section === null)
    throw new SynthesisContractError(block, '', `the "## ${block}" section is missing; add it with a yaml list, or [] when nothing is affected.`);
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
  const newExpressions = parseBlock(text, 'NEW EXPRESSIONS', newExpressionSchema);
  const processKnowledge = parseBlock(text, 'PROCESS KNOWLEDGE', processKnowledgeSchema);
  return { viewUpdates, expressionImplications, newExpressions, processKnowledge };
}

/**
 * One concrete memory change a synthesis proposes. Those with `proposedContent` are written by the
 * executor through the write pipeline; Expression actions are for the PM (agents never edit a live trade).
 */
export interface ProposedMemoryUpdate {
  kind: 'view_update' | 'expression_action' | 'new_expression' | 'process_knowledge';
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
      out.push({
        kind: 'view_update',
        target: v.view_id,
        path,
        summary: change,
        proposedContent: null,
        baseHash: null,
        urgency: null,
        warnings: [`${v.view_id} is not in memory; nothing to update.`],
      });
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
    out.push({
      kind: 'view_update',
      target: v.view_id,
      path,
      summary: change,
      proposedContent: renderRecord(doc),
      baseHash: sha256(current),
      urgency: null,
      warnings,
    });
  }
  for (const e of contract.expressionImplications) {
    const path = `/memory/expressions/${e.expression_id}.md`;
    const exists = files.exists(path);
    const summary = `${e.expression_id}: ${e.action}${e.adjustment ? ` — ${e.adjustment}` : ''} (${e.urgency.replace('_', ' ')})`;
    out.push({
      kind: 'expression_action',
      target: e.expression_id,
      path,
      summary,
      // Trades change only through the write tool with guardrails, review and PM approval.
      proposedContent: null,
      baseHash: exists ? sha256(files.readFile(path)) : null,
      urgency: e.urgency,
      warnings: exists ? [] : [`${e.expression_id} is not in memory.`],
    });
  }
  for (const e of contract.newExpressions) {
    out.push({
      kind: 'new_expression',
      target: e.title,
      path: '/memory/expressions/new.md',
      summary: `new Expression "${e.title}" on ${e.view_id}: ${e.instrument}, notional ${e.notional}, max loss ${e.max_loss_pct}%`,
      proposedContent: renderRecord({
        id: 'new',
        title: e.title,
        header: {
          status: 'proposed',
          view_id: e.view_id,
          instrument: e.instrument,
          notional: e.notional,
          max_loss_pct: e.max_loss_pct,
          duration_impact: e.duration_impact,
          factor: e.factor,
          source: 'synthesis',
        },
        body: [`## SUMMARY`, e.rationale, ...(e.exit_rules ? ['', '## EXIT RULES', e.exit_rules] : [])].join('\n'),
      }),
      baseHash: null,
      urgency: null,
      warnings: files.exists(`/memory/views/${e.view_id}.md`) ? [] : [`${e.view_id} is not in memory.`],
    });
  }
  for (const k of contract.processKnowledge) {
    out.push({
      kind: 'process_knowledge',
      target: k.title,
      path: '/memory/pk/new.md',
      summary: `new PK "${k.title}" (${k.category}, weight ${k.weight})`,
      proposedContent: renderRecord({
        id: 'new',
        title: k.title,
        header: { weight: k.weight, category: k.category, ...(k.skill ? { skill: k.skill } : {}), status: 'active', corroborations: 1, source: 'synthesis' },
        body: `## SUMMARY\n${k.lesson}`,
      }),
      baseHash: null,
      urgency: null,
      warnings: [],
    });
  }
  return out;
}

function escapeRe(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
