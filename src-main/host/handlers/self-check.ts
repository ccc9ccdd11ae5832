import { checkBubblewrap } from '../../sandbox';
import { runScriptOfSkill, type SkillLoader } from '../../skills';
import { keywordRankingStatus } from '../../search';
import type { Db } from '../../store';
import type { PartialHandlerMap } from './types';

/**
 * `app/self-check`: does this installation run what it ships? Unlike `app/health` (cheap, polled),
 * this does real work once, on demand: it runs a script of a skill Forge ships through the same
 * launcher the analyst's sub-agents use (inside the desktop app that is the app's script host, a
 * separate utility process), and reports the optional parts that decide how the app behaves here.
 * The release pipeline's desktop smoke test calls it on the packaged app; a PM or an IT desk can
 * call it when something looks different on one machine.
 */

/** A shipped skill script with a known answer: a ten-point spread whose mean is 1.905. */
const PROBE = { skill: 'rv-analysis', script: 'zscore.mjs', input: { series: [1, 2, 1.5, 2.5, 1.8, 2.2, 1.9, 2.1, 2.0, 2.05] }, mean: 1.905 };

export interface SelfCheck {
  name: string;
  ok: boolean;
  detail: string;
}

async function skillScriptCheck(skills: SkillLoader): Promise<SelfCheck> {
  const label = `${PROBE.skill}/scripts/${PROBE.script}`;
  try {
    const r = await runScriptOfSkill(skills, PROBE.skill, PROBE.script, PROBE.input, { timeoutMs: 30_000 });
    const mean = (r.output as { mean?: unknown } | null)?.mean;
    if (typeof mean !== 'number' || Math.abs(mean - PROBE.mean) > 1e-9) {
      return { name: 'skill scripts', ok: false, detail: `${label} ran but answered ${JSON.stringify(mean)} for a mean of ${PROBE.mean}` };
    }
    return { name: 'skill scripts', ok: true, detail: `${label} ran${r.sandboxed ? ' with a file-permission limit' : ''} and answered correctly` };
  } catch (e) {
    return { name: 'skill scripts', ok: false, detail: `${label} did not run: ${(e as Error).message}` };
  }
}

export async function confinementCheck(): Promise<SelfCheck> {
  const r = await checkBubblewrap();
  return r.ok
    ? { name: 'script confinement', ok: true, detail: `Python and shell skill scripts run inside bubblewrap (${r.bwrap})` }
    : // Not a failure of the installation: Forge then refuses those scripts and says why.
      { name: 'script confinement', ok: true, detail: `Python and shell skill scripts are refused here: ${r.reason}` };
}

/**
 * Keyword ranking is TypeScript (search/keyword-index/), the same on every target, so it is never
 * missing; the detail says whether this workspace's index is built yet (or why SQLite's bm25() stands in).
 */
export function rankingCheck(db?: Db): SelfCheck {
  return { name: 'keyword ranking', ok: true, detail: db ? keywordRankingStatus(db) : 'exact BM25, in memory' };
}

export function selfCheckHandlers(skills: () => SkillLoader): PartialHandlerMap {
  return {
    'app/self-check': async (_input, ctx) => {
      const checks = [await skillScriptCheck(skills()), await confinementCheck(), rankingCheck(ctx.memory.store.db)];
      return { status: checks.every((c) => c.ok) ? 'ok' : 'degraded', checks };
    },
  };
}
