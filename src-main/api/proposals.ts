import { z } from 'zod';
import { skillName } from './skills';

/**
 * Skill-edit proposals and skill versions: the Proposals screen lists what the MetaOptimizer
 * proposed, opens one as a side-by-side diff with the Process Knowledge it cites, and approves or
 * rejects it; the Skills screen lists a skill's versions and restores one. Approve and restore are
 * the only ways a proposal changes a skill. Pure zod: no node, electron or DOM imports.
 */

export const proposalId = z.string().regex(/^SEP-\d{1,9}$/, 'a proposal id looks like SEP-001');
export const proposalStatus = z.enum(['pending', 'approved', 'rejected']);

export const proposalSummary = z.object({
  id: z.string(),
  title: z.string(),
  /** pending | approved | rejected (a hand-written record may say something else). */
  status: z.string(),
  skill: z.string().nullable(),
  /** Relative to the skill folder: `SKILL.md`, `templates/output.md`. */
  targetFile: z.string().nullable(),
  /** The lesson behind it: a normalised claim and the direction the PK argue. */
  claim: z.string().nullable(),
  direction: z.enum(['for', 'against']).nullable(),
  /** The PK the proposal cites. */
  pkIds: z.array(z.string()),
  /** Every PK of the cluster that met the evidence bar. */
  corroborating: z.array(z.string()),
  rationale: z.string(),
  createdAt: z.string().nullable(),
  baseHash: z.string().nullable(),
  model: z.string().nullable(),
  approvedBy: z.string().nullable(),
  approvedAt: z.string().nullable(),
  /** The skill version the approval produced. */
  skillVersion: z.number().int().nullable(),
  /** `forge` when it was rejected automatically (stale or not structured). */
  rejectedBy: z.string().nullable(),
  rejectedAt: z.string().nullable(),
  rejectionReason: z.string().nullable(),
  /** Why the record is not a structured proposal; empty when it is. */
  problems: z.array(z.string()),
});
export type ProposalSummary = z.infer<typeof proposalSummary>;

export const citedPkView = z.object({
  id: z.string(),
  title: z.string(),
  weight: z.number().nullable(),
  category: z.string().nullable(),
  stance: z.object({ claim: z.string(), direction: z.enum(['for', 'against']) }).nullable(),
  /** The Outcomes and Counterfactuals it rests on (OUT-…, CF-…), one click away. */
  evidence: z.array(z.string()),
  summary: z.string(),
  /** Deleted since the proposal cited it. */
  missing: z.boolean(),
});
export type CitedPkView = z.infer<typeof citedPkView>;

export const proposalDetail = z.object({
  proposal: proposalSummary,
  /** The quoted text and its replacement, as proposed. */
  oldText: z.string().nullable(),
  newText: z.string().nullable(),
  /** The target file now (left side of the diff); null when it no longer exists. */
  currentText: z.string().nullable(),
  /** The whole file after the edit (right side); null once the proposal cannot be applied or is decided. */
  proposedText: z.string().nullable(),
  /** The file changed since the proposal was made (its quote still matches). */
  fileChanged: z.boolean(),
  citedPk: z.array(citedPkView),
  /** Pass back to proposals/approve so the PM approves exactly what was shown. */
  recordHash: z.string(),
});
export type ProposalDetail = z.infer<typeof proposalDetail>;

export const skillVersionView = z.object({
  file: z.string(),
  version: z.number().int().positive(),
  createdAt: z.string(),
  by: z.string(),
  reason: z.string(),
  proposalId: z.string().nullable(),
  restoredFrom: z.number().int().nullable(),
  hash: z.string(),
  bytes: z.number().int().nonnegative(),
  /** Where its text is inside the skill folder; skills/read opens it. */
  snapshot: z.string(),
});
export type SkillVersionView = z.infer<typeof skillVersionView>;

/** One lesson the MetaOptimizer weighed: its evidence bar and what became of it. */
export const metaCandidateView = z.object({
  skill: z.string(),
  claim: z.string(),
  direction: z.enum(['for', 'against']),
  /** Entries making the claim this way (PK ids), and those making it the other way. */
  corroborating: z.array(z.string()),
  contradictions: z.array(z.string()),
  /** The summed weight of the corroborating entries. */
  weight: z.number(),
  bar: z.object({ minCorroborations: z.number().int(), minWeight: z.number() }),
  /** proposed | below_bar | contradicted | unknown_skill | pending_exists | no_new_evidence | declined | malformed | model_failed | no_model */
  verdict: z.string(),
  detail: z.string(),
  proposalId: z.string().nullable(),
});
export type MetaCandidateView = z.infer<typeof metaCandidateView>;

export const metaRunView = z.object({
  startedAt: z.string(),
  /** This request found a run under way (the weekly one, or another Run now) and shares its result. */
  joined: z.boolean(),
  proposals: z.array(z.string()),
  candidates: z.array(metaCandidateView),
  ignored: z.array(z.object({ id: z.string(), reason: z.string() })),
  notes: z.array(z.string()),
});
export type MetaRunView = z.infer<typeof metaRunView>;

export const proposalProcedures = {
  /** Runs the MetaOptimizer now (as after the weekly retrospective); joins a run already under way. */
  'proposals/run-meta-optimizer': {
    input: z.object({}).strict(),
    output: metaRunView,
  },
  'proposals/list': {
    input: z.object({ status: proposalStatus.optional() }).strict(),
    output: z.object({ proposals: z.array(proposalSummary), pendingCount: z.number().int().nonnegative() }),
  },
  'proposals/get': {
    input: z.object({ id: proposalId }).strict(),
    output: proposalDetail,
  },
  /** Applies the edit as a new version of the skill (the earlier one kept) and reloads the skill. */
  'proposals/approve': {
    input: z.object({ id: proposalId, expectHash: z.string().min(1).max(128).optional() }).strict(),
    output: proposalDetail,
  },
  'proposals/reject': {
    input: z.object({ id: proposalId, reason: z.string().trim().min(1, 'say why').max(2000) }).strict(),
    output: proposalDetail,
  },
  'skills/versions': {
    input: z.object({ skill: skillName }).strict(),
    output: z.object({ skill: z.string(), versions: z.array(skillVersionView.extend({ current: z.boolean() })) }),
  },
  /** Brings back an earlier version of one file; the restore is itself recorded as a new version. */
  'skills/restore': {
    input: z.object({ skill: skillName, file: z.string().min(1).max(500), version: z.number().int().positive() }).strict(),
    output: z.object({ changed: z.boolean(), version: skillVersionView }),
  },
} as const;

export const proposalEvents = {
  /** A proposal was written or decided; the sidebar badge shows `pendingCount`. */
  'proposals/changed': z.object({ pendingCount: z.number().int().nonnegative() }),
} as const;
