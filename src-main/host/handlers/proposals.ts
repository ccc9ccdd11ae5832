import type { z } from 'zod';
import { AppError } from '../../common/errors';
import type { ProposalDetail as ProposalDetailView, ProposalSummary, proposalProcedures } from '../../api/proposals';
import type { MetaRunView } from '../../api/proposals';
import { type MetaOptimizerRun, type MetaOptimizerRunner, ProposalsService, type ProposalDetail, type ProposalRecord } from '../../evolution';
import type { ForgeFS } from '../../fs';
import type { SkillLoader } from '../../skills';
import type { CoreContext } from '../context';
import type { PartialHandlerMap } from './types';

type P = typeof proposalProcedures;
type ProposalHandlerMap = {
  [N in keyof P]: (input: z.output<P[N]['input']>, ctx: CoreContext) => z.output<P[N]['output']> | Promise<z.output<P[N]['output']>>;
};

export interface ProposalsHandlerDeps {
  fs: () => ForgeFS;
  /** The core's one SkillLoader over `<dataDir>/skills` (the same folder as ForgeFS's /skills/). */
  skills: () => SkillLoader;
  /** The core's one MetaOptimizer runner (shared with the weekly retrospective, so runs never overlap). */
  metaOptimizer?: MetaOptimizerRunner;
  now?: () => Date;
}

/** The run as the Proposals screen shows it: each candidate with its evidence bar. */
export function toMetaRunView(run: MetaOptimizerRun): MetaRunView {
  return {
    startedAt: run.startedAt,
    joined: run.joined,
    proposals: run.report.proposals,
    candidates: run.report.clusters.map((c) => ({
      skill: c.skill,
      claim: c.claim,
      direction: c.direction,
      corroborating: c.pkIds,
      contradictions: c.contradictions,
      weight: c.weight,
      bar: c.bar,
      verdict: c.verdict,
      detail: c.detail,
      proposalId: c.proposalId ?? null,
    })),
    ignored: run.report.ignored,
    notes: run.report.notes,
  };
}

export function toProposalSummary(r: ProposalRecord): ProposalSummary {
  const { oldText: _old, newText: _new, ...summary } = r;
  return summary;
}

function toDetailView(d: ProposalDetail): ProposalDetailView {
  return {
    proposal: toProposalSummary(d.proposal),
    oldText: d.proposal.oldText,
    newText: d.proposal.newText,
    currentText: d.currentText,
    proposedText: d.proposedText,
    fileChanged: d.fileChanged,
    citedPk: d.citedPk,
    recordHash: d.recordHash,
  };
}

/** The name approvals are recorded under: the PM's display name (Settings), else `pm`. */
const decider = (ctx: CoreContext) => ctx.settings.get().displayName?.trim() || 'pm';

/**
 * Handlers for proposals/* and skills/versions, skills/restore. One ProposalsService serves them
 * all, so its one-change-at-a-time lock covers every request (a double-clicked Approve applies once).
 */
export function proposalsHandlers(deps: ProposalsHandlerDeps): PartialHandlerMap {
  let service: ProposalsService | null = null;
  let builtFor: [ForgeFS, SkillLoader] | null = null;
  const proposals = async (ctx: CoreContext) => {
    await ctx.memory.ready;
    const fs = deps.fs();
    const skills = deps.skills();
    if (!service || builtFor?.[0] !== fs || builtFor[1] !== skills) {
      service = new ProposalsService({ fs, skills, now: deps.now, actor: 'pm' });
      builtFor = [fs, skills];
    }
    return service;
  };
  const handlers: ProposalHandlerMap = {
    'proposals/run-meta-optimizer': async (_input, ctx) => {
      await ctx.memory.ready;
      if (!deps.metaOptimizer) throw new AppError('unavailable', 'The MetaOptimizer is not wired in this core.');
      return toMetaRunView(await deps.metaOptimizer({ actor: 'pm' }));
    },
    'proposals/list': async (input, ctx) => {
      const { proposals: list, pendingCount } = await (await proposals(ctx)).listProposals(input.status);
      return { proposals: list.map(toProposalSummary), pendingCount };
    },
    'proposals/get': async (input, ctx) => toDetailView(await (await proposals(ctx)).getProposal(input.id)),
    'proposals/approve': async (input, ctx) =>
      toDetailView(await (await proposals(ctx)).approve(input.id, { by: decider(ctx), ...(input.expectHash ? { expectHash: input.expectHash } : {}) })),
    'proposals/reject': async (input, ctx) => toDetailView(await (await proposals(ctx)).reject(input.id, { reason: input.reason, by: decider(ctx) })),
    'skills/versions': async (input, ctx) => (await proposals(ctx)).skillVersions(input.skill),
    'skills/restore': async (input, ctx) => (await proposals(ctx)).restoreSkillVersion(input.skill, input.file, input.version, { by: decider(ctx) }),
  };
  return handlers as unknown as PartialHandlerMap;
}

/** Pending proposals now: the sidebar badge. */
export function pendingProposals(fs: ForgeFS): number {
  return fs.listDir('/memory/proposals/', 'status:pending', { limit: 1 }).total;
}

/**
 * Calls `emit` with the pending count after every committed write under /memory/proposals/ —
 * whoever made it (the MetaOptimizer, an approval, an automatic rejection, the analyst).
 * Returns the function that stops it.
 */
export function watchProposals(fs: ForgeFS, emit: (pendingCount: number) => void): () => void {
  return fs.onCommit((paths) => {
    if (paths.some((p) => p.startsWith('/memory/proposals/'))) emit(pendingProposals(fs));
  });
}
