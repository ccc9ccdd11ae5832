import type { Actor, ForgeFS } from '../fs';
import type { Model } from '../llm';
import type { SkillLoader } from '../skills';
import { type MetaOptimizerReport, runMetaOptimizer } from './meta-optimizer';

export interface MetaOptimizerRunnerDeps {
  fs: () => ForgeFS;
  skills: () => SkillLoader;
  /** The proposal model now (undefined without an API key: the evidence bar is still reported). */
  model: () => Model | undefined;
  now?: () => Date;
}

export interface MetaOptimizerRun {
  report: MetaOptimizerReport;
  /** True when this call found a run under way (the weekly retrospective's, or another Run now) and shares its result. */
  joined: boolean;
  startedAt: string;
}

/**
 * The MetaOptimizer as the app runs it: after the weekly retrospective and on "Run now". One run at
 * a time — a second caller while one is under way joins it and gets the same report, so two runs
 * never race to write the same proposal twice.
 */
export function metaOptimizerRunner(deps: MetaOptimizerRunnerDeps) {
  let running: Promise<Omit<MetaOptimizerRun, 'joined'>> | null = null;
  return async (options: { actor: Actor; signal?: AbortSignal }): Promise<MetaOptimizerRun> => {
    if (running) return { ...(await running), joined: true };
    const startedAt = (deps.now ?? (() => new Date()))().toISOString();
    const run = (async () => {
      const report = await runMetaOptimizer({
        fs: deps.fs(),
        skills: deps.skills(),
        model: deps.model() ?? null,
        actor: options.actor,
        ...(deps.now ? { now: deps.now } : {}),
        ...(options.signal ? { signal: options.signal } : {}),
      });
      return { report, startedAt };
    })();
    running = run;
    try {
      return { ...(await run), joined: false };
    } finally {
      running = null;
    }
  };
}
export type MetaOptimizerRunner = ReturnType<typeof metaOptimizerRunner>;
