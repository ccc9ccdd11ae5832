import { z } from 'zod';
import type { ToolDefinition } from '../llm';
import type { PkCluster } from './cluster';
import { MAX_EDIT_CHARS } from './skill-edit';

/**
 * What the proposal model is asked, and the one shape its answer may take: a call to
 * `propose_skill_edit` with the file, the exact text to replace, the replacement, the reasons and
 * the PK it rests on. Free text is never turned into an edit.
 */

export const PROPOSAL_TOOL = 'propose_skill_edit';

export const PROPOSAL_SYSTEM = `You maintain the instructions of an analyst that helps a portfolio manager run a discretionary macro book.
Several lessons drawn from real trade outcomes and declined trades agree on one point about one skill. Your job is to decide whether the skill's files should change because of it, and if so, to write the smallest edit that makes the skill carry the lesson.

Rules:
- Edit one file of the skill: SKILL.md, a file under templates/ or a file under references/. Never scripts, never another skill.
- Quote the existing text exactly as it appears in the file — every character, space and line break — and choose a passage that occurs only once. A paraphrased quote cannot be applied and is discarded.
- Change only what the lesson requires. Keep the file's structure, headings and voice. Prefer adding or sharpening one instruction over rewriting a section.
- Give the rationale in plain words a portfolio manager can judge in a minute, citing the lesson entries (PK ids) you relied on. Cite only ids listed in the request.
- If the skill already says this, or the lessons do not justify a change, do not call the tool; answer in one sentence why not.

When an edit is warranted, call ${PROPOSAL_TOOL} exactly once.`;

export const proposalInput = z.object({
  title: z.string().trim().min(1).max(160).optional(),
  target_file: z.string().trim().min(1).max(300),
  old_text: z.string().min(1).max(MAX_EDIT_CHARS),
  new_text: z.string().max(MAX_EDIT_CHARS),
  rationale: z.string().trim().min(10).max(4000),
  pk_ids: z
    .array(
      z
        .string()
        .trim()
        .regex(/^PK-\d{1,9}$/),
    )
    .min(1),
});
export type ProposalInput = z.infer<typeof proposalInput>;

export const proposalTool: ToolDefinition = {
  name: PROPOSAL_TOOL,
  description:
    'Propose one edit to a file of the skill: replace old_text (quoted exactly, occurring once in the file) with new_text. The portfolio manager sees it as a diff and approves or rejects it; nothing changes before that.',
  inputSchema: z.toJSONSchema(proposalInput, { io: 'input' }) as Record<string, unknown>,
};

export interface SkillFileText {
  path: string;
  text: string;
}

export interface PkText {
  id: string;
  content: string;
}

/** Budget for the skill files in the request; a skill's own files are far below it. */
const FILES_BUDGET = 120_000;

export function proposalRequest(cluster: PkCluster, files: SkillFileText[], pk: PkText[]): string {
  const parts = [
    `SKILL: ${cluster.skill}`,
    `LESSON: ${cluster.direction === 'for' ? 'in favour of' : 'against'} "${cluster.claim}" — ${cluster.pkIds.length} corroborating entries, none contradicting.`,
    '',
    '=== PROCESS KNOWLEDGE ===',
    ...pk.map((p) => `--- ${p.id} ---\n${p.content.trim()}`),
    '',
    "=== THE SKILL'S FILES (quote from these exactly) ===",
  ];
  let budget = FILES_BUDGET;
  for (const f of files) {
    if (f.text.length > budget) {
      parts.push(`--- FILE ${f.path} --- (left out: over the request's budget)`);
      continue;
    }
    budget -= f.text.length;
    parts.push(`--- FILE ${f.path} ---\n${f.text}\n--- END ${f.path} ---`);
  }
  parts.push('', `Decide whether ${cluster.skill} should change. If so, call ${PROPOSAL_TOOL} once; cite only ${cluster.pkIds.join(', ')}.`);
  return parts.join('\n');
}
