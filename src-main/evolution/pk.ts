import { z } from 'zod';
import { InvalidInputError } from '../common/errors';
import { renderRecord, type ForgeFS, type HeaderFields, type HeaderValue, type RecordInfo, type WriteContext } from '../fs';
import { normaliseSkillName } from '../skills';

/**
 * Process Knowledge: a lesson the weekly retrospective drew from real Outcomes and
 * Counterfactuals. Besides its weight, category, skills and evidence, each entry carries a
 * *stance* — a short normalised claim and whether the entry argues for or against it — so two
 * entries about the same claim pointing opposite ways are a contradiction the MetaOptimizer sees.
 *
 * In the record header the stance is one line, `stance: for size_down_before_cb_meetings`.
 */

export type StanceDirection = 'for' | 'against';

export interface Stance {
  claim: string;
  direction: StanceDirection;
}

/** What the retrospective hands to `writePk`. */
export interface PkInput {
  title: string;
  /** 0–1: how much the lesson has earned (0.1 per corroboration in the retrospective's rule). */
  weight: number;
  /** What kind of lesson: sizing, timing, thesis, relative_value… (lower-case words joined by `_`). */
  category: string;
  /** The skills the lesson concerns (folder names; `view_validation` is read as `view-validation`). */
  skills: string[];
  /** The Outcomes and Counterfactuals it rests on: OUT-… and CF-… ids. */
  evidence: string[];
  stance: Stance;
  /** The lesson in a few sentences (the record's `## SUMMARY`). */
  summary: string;
  /** Longer reasoning, if any (`## DETAIL`). */
  detail?: string;
}

/** A PK record as the MetaOptimizer and the Proposals screen read it. */
export interface ProcessKnowledge {
  id: string;
  title: string;
  weight: number | null;
  category: string | null;
  skills: string[];
  evidence: string[];
  stance: Stance | null;
  status: string | null;
}

const CLAIM_MAX = 80;
const EVIDENCE_RE = /^(OUT|CF)-\d{1,9}$/;
const CATEGORY_RE = /^[a-z][a-z0-9_]{0,39}$/;
const STANCE_RE = /^(for|against) ([a-z0-9][a-z0-9_]*)$/;

/** `Size down before CB meetings!` → `size_down_before_cb_meetings`: the key two entries share when they make the same claim. */
export function normaliseClaim(claim: string): string {
  return claim
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '_')
    .replace(/^_+|_+$/g, '')
    .slice(0, CLAIM_MAX)
    .replace(/_+$/, '');
}

export function formatStance(stance: Stance): string {
  return `${stance.direction} ${normaliseClaim(stance.claim)}`;
}

/** Reads `for some_claim` / `against some_claim`; anything else is null (the entry takes no side). */
export function parseStance(value: unknown): Stance | null {
  if (typeof value !== 'string') return null;
  const m = STANCE_RE.exec(value.trim());
  return m ? { direction: m[1] as StanceDirection, claim: m[2] } : null;
}

const oneLine = (max: number) =>
  z
    .string()
    .trim()
    .min(1, 'is required')
    .max(max, `is longer than ${max} characters`)
    .refine((s) => !/[\r\n]/.test(s), 'must be one line');

const pkSchema = z
  .object({
    title: oneLine(200),
    weight: z.number('must be a number from 0 to 1').min(0, 'must be from 0 to 1').max(1, 'must be from 0 to 1'),
    category: z.string().trim().regex(CATEGORY_RE, 'must be lower-case words joined by "_", e.g. sizing or relative_value'),
    skills: z
      .array(
        z
          .string()
          .trim()
          .regex(/^[A-Za-z0-9_-]{1,80}$/, 'must be a skill folder name such as expression-design'),
      )
      .min(1, 'must name at least one skill'),
    evidence: z
      .array(z.string().trim().regex(EVIDENCE_RE, 'must be Outcome or Counterfactual ids such as OUT-003 or CF-012'))
      .min(1, 'must cite at least one Outcome or Counterfactual'),
    stance: z.object({
      claim: z
        .string()
        .max(200, 'is longer than 200 characters')
        .refine((c) => normaliseClaim(c).length >= 3, 'must be a short claim such as size_down_before_cb_meetings'),
      direction: z.enum(['for', 'against'], 'must be "for" or "against"'),
    }),
    summary: z.string().trim().min(1, 'is required').max(4000, 'is longer than 4000 characters'),
    detail: z.string().max(20_000, 'is longer than 20000 characters').optional(),
  })
  .strict();

/** Checks a PK entry; a bad field is an InvalidInputError naming that field. */
export function validatePk(input: unknown): PkInput {
  const parsed = pkSchema.safeParse(input);
  if (!parsed.success) {
    const issues = parsed.error.issues.map((i) => ({ path: i.path.map((p) => (typeof p === 'symbol' ? String(p) : p)), message: i.message }));
    const first = issues[0]!;
    throw new InvalidInputError(`Process Knowledge field "${first.path.join('.') || 'entry'}" ${first.message}.`, issues);
  }
  const d = parsed.data;
  return {
    ...d,
    skills: [...new Set(d.skills.map(normaliseSkillName))],
    evidence: [...new Set(d.evidence)],
    stance: { claim: normaliseClaim(d.stance.claim), direction: d.stance.direction },
  };
}

/** The canonical record text of a new PK entry (id assigned on write). */
export function renderPk(entry: PkInput): string {
  const body = ['## SUMMARY', entry.summary.trim(), ''];
  if (entry.detail?.trim()) body.push('## DETAIL', entry.detail.trim(), '');
  return renderRecord({
    id: 'new',
    title: entry.title,
    header: {
      weight: entry.weight,
      category: entry.category,
      skills: entry.skills,
      evidence: entry.evidence,
      stance: formatStance(entry.stance),
      status: 'active',
    },
    body: body.join('\n'),
  });
}

/**
 * Writes a PK entry as `/memory/pk/PK-NNN.md` through ForgeFS (id sequence, search index and audit
 * in one transaction). The skills must be installed and the evidence must exist, else nothing is
 * written and the error names the field.
 */
export async function writePk(fs: ForgeFS, input: unknown, ctx: WriteContext): Promise<{ id: string; path: string }> {
  const entry = validatePk(input);
  const missingSkills = entry.skills.filter((s) => !fs.exists(`/skills/${s}/SKILL.md`));
  if (missingSkills.length) {
    throw new InvalidInputError(`Process Knowledge field "skills" names ${missingSkills.join(', ')}, which is not an installed skill.`, [
      { path: ['skills'], message: `not installed: ${missingSkills.join(', ')}` },
    ]);
  }
  const content = renderPk(entry);
  const path = '/memory/pk/new.md';
  return fs.transaction(
    (tx) => {
      // Checked under the write lock so the evidence cannot vanish between the check and the write.
      const missing = entry.evidence.filter((id) => !tx.exists(`/memory/${id.startsWith('OUT-') ? 'outcomes' : 'counterfactuals'}/${id}.md`));
      if (missing.length) {
        throw new InvalidInputError(`Process Knowledge field "evidence" cites ${missing.join(', ')}, which does not exist.`, [
          { path: ['evidence'], message: `no such record: ${missing.join(', ')}` },
        ]);
      }
      const r = tx.writeFile(path, content, ctx);
      return { id: r.id!, path: r.path };
    },
    { prepare: [{ path, content }] },
  );
}

const list = (v: HeaderValue | undefined): string[] =>
  v === undefined || v === '' ? [] : (Array.isArray(v) ? v : String(v).split(/[,\s]+/)).map((x) => String(x).trim()).filter(Boolean);

/** A PK record's fields, read leniently: entries the analyst wrote by hand may lack a stance or use `skill:`. */
export function pkFromRecord(info: Pick<RecordInfo, 'id' | 'title' | 'weight' | 'status' | 'header'>): ProcessKnowledge {
  const h = info.header as HeaderFields;
  const skills = [...new Set([...list(h.skills), ...list(h.skill)].map(normaliseSkillName))];
  return {
    id: info.id,
    title: info.title,
    weight: info.weight,
    category: typeof h.category === 'string' ? h.category : null,
    skills,
    evidence: list(h.evidence),
    stance: parseStance(h.stance),
    status: info.status,
  };
}

/** Reads one PK entry, or null when there is no such record. */
export function readPk(fs: ForgeFS, id: string): ProcessKnowledge | null {
  if (!/^PK-\d{1,9}$/.test(id)) return null;
  const info = fs.recordInfo(`/memory/pk/${id}.md`);
  return info ? pkFromRecord(info) : null;
}
