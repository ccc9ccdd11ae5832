import { Reviewer, ReviewLedger, TaskExecutor, type TaskBudget } from '../executor';
import type { ForgeFS } from '../fs';
import { formatBook, readBook, type GuardrailLimits } from '../guardrails';
import type { Model } from '../llm';
import type { ProviderRegistry } from '../providers';
import type { SearchRequest, SearchResponse } from '../search';
import type { SkillLoader } from '../skills';
import { calibrationSummaryLine } from '../tracking';
import { analystTools, reviewerToolFactory, subAgentToolFactory, type AnalystTool, type AnalystToolContext } from '../tools';
import { runAgent } from '../tools/loop';
import { synthesisWriter } from './synthesis-writer';

export interface DelegationOptions {
  fs: ForgeFS;
  skills: SkillLoader;
  /** The analyst's own model: sub-agents, validators and the reviewer route by role through it. */
  model: Model;
  providers: ProviderRegistry;
  limits: () => GuardrailLimits;
  search?: (request: SearchRequest) => Promise<SearchResponse>;
  concurrency?: number;
  budget?: Partial<TaskBudget>;
  now?: () => Date;
  /** The as-of date of a session (a retrospective): its sub-agents and reviewer fetch nothing later. */
  asOf?: (sessionId: string) => string | undefined;
}

/** What dispatch, collect and review run on, built once per workspace. */
export interface Delegation {
  executor: TaskExecutor<AnalystTool, AnalystToolContext>;
  reviewer: Reviewer<AnalystTool, AnalystToolContext>;
  reviews: ReviewLedger;
  /** Stops running sub-agents (they are recorded as interrupted); call before the database closes. */
  close(): Promise<void>;
}

/**
 * The executor and the reviewer over one workspace, sharing the analyst's model and tools:
 * sub-agents get the read-only tools their skill grants, the reviewer read and fetch. Both run the
 * same bounded loop as the analyst; every review is filed for the write tool's gate.
 */
export function buildDelegation(o: DelegationOptions): Delegation {
  const base = analystTools({ providers: o.providers });
  const contextFor = (sessionId: string): AnalystToolContext => ({
    fs: o.fs.forSession(sessionId),
    writer: { actor: 'agent', sessionId },
    limits: o.limits,
    search: o.search,
    providers: o.providers,
    model: o.model,
    now: o.now,
    asOf: o.asOf?.(sessionId),
  });
  const reviews = new ReviewLedger(o.fs.store.db, o.now);
  const reviewer = new Reviewer<AnalystTool, AnalystToolContext>({
    model: o.model,
    runLoop: runAgent,
    ledger: reviews,
    toolsFor: reviewerToolFactory({ available: base, contextFor }),
    // The reviewer judges fit against the computed book, the one the guardrails check.
    portfolio: () => formatBook(readBook(o.fs, o.limits())),
    // The worst band's bias, computed from the data (not the prose of a calibration file).
    calibrationLine: () => calibrationSummaryLine(o.fs.store),
  });
  const executor = new TaskExecutor<AnalystTool, AnalystToolContext>({
    db: o.fs.store.db,
    files: o.fs,
    skills: o.skills,
    model: o.model,
    runLoop: runAgent,
    toolsFor: subAgentToolFactory({ available: base, skills: o.skills, contextFor }),
    // A synthesis's YAML updates go through the write pipeline, the limits and the review gate.
    writeSynthesis: synthesisWriter({ fs: o.fs, limits: o.limits, reviews, reviewer, now: o.now }),
    concurrency: o.concurrency,
    budget: o.budget,
    now: o.now,
  });
  return { executor, reviewer, reviews, close: () => executor.close() };
}
