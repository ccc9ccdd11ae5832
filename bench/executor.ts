/**
 * TaskExecutor benchmark, with scripted sub-agents at a fixed latency per model call (default 300 ms):
 *  - 16 independent tasks at concurrency 8 vs the same 16 run one by one (speedup, target ≥ 6×);
 *  - a diamond A → (B, C) → D vs its critical path of three model calls (target ≤ 1.1×);
 *  - executor overhead per task excluding model time: dispatch, persistence, skill loading, prompt
 *    building, the agent loop, writing the result file (p50, target ≤ 2 ms);
 *  - cancel latency: cancel() on a running task until its waiter hears `cancelled` (target ≤ 200 ms).
 * Everything is real except the model: SQLite workspace, ForgeFS, the repo's skills, runAgent, tools.
 * Usage: npm run bench -- executor [latencyMs=300] [tasks=16] [overheadRuns=200]
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runAgent } from '../src-main/tools/loop';
import { TaskExecutor } from '../src-main/executor';
import { ScriptedSubAgents } from '../src-main/executor/testing';
import { openWorkspace } from '../src-main/fs';
import { defaultGuardrailLimits } from '../src-main/guardrails';
import { ProviderRegistry } from '../src-main/providers';
import { SkillLoader } from '../src-main/skills';
import { readTool, searchTool, type AnalystTool, type AnalystToolContext } from '../src-main/tools';
import { subAgentToolFactory } from '../src-main/tools/dispatch';
import { median, percentile, report, round } from './_stats';

const LATENCY = Number(process.argv[2] ?? 300);
const TASKS = Number(process.argv[3] ?? 16);
const OVERHEAD_RUNS = Number(process.argv[4] ?? 200);
const CONCURRENCY = 8;

const dir = mkdtempSync(join(tmpdir(), 'forge-bench-exec-'));
const ws = openWorkspace({ dataDir: dir, bundledSkillsDir: null, seedDir: null });
const skills = new SkillLoader(join(process.cwd(), 'skills'));
const providers = new ProviderRegistry([]);

const output = (k: string) =>
  k.startsWith('synthesis:')
    ? // A synthesis task's output is read for its YAML blocks (empty here: nothing to write).
      `## SUMMARY\nResult of ${k}: V-001 holds.\n\n## VIEW UPDATES\n\`\`\`yaml\n[]\n\`\`\`\n\n## EXPRESSION IMPLICATIONS\n\`\`\`yaml\n[]\n\`\`\`\n`
    : `## SUMMARY\nResult of ${k}: claims rose for a fifth week; V-001 holds.\n\n## EVIDENCE\n- Continuing claims 1.97m (2026-11-19).\n`;
// Overhead tasks (objective word starting with "O") answer at once: their wall time is nearly all executor.
const model = new ScriptedSubAgents((k) => ({ turns: [{ reply: { text: output(k) } }] }), { latencyMs: (k) => (k.startsWith('subagent:O') ? 0 : LATENCY) });
const contextFor = (sessionId: string): AnalystToolContext => ({
  fs: ws.fs.forSession(sessionId),
  writer: { actor: 'agent', sessionId },
  limits: () => defaultGuardrailLimits,
  providers,
});
const executor = new TaskExecutor<AnalystTool, AnalystToolContext>({
  db: ws.store.db,
  files: ws.fs,
  skills,
  model,
  runLoop: runAgent,
  toolsFor: subAgentToolFactory({ available: [readTool as unknown as AnalystTool, searchTool as unknown as AnalystTool], skills, contextFor }),
  concurrency: CONCURRENCY,
});

const ms = (t0: number) => performance.now() - t0;
let n = 0;
const objective = (tag: string) => `${tag}${++n} Gather the labour-market evidence for V-001.`;

async function independent(sessionId: string, concurrency: number): Promise<number> {
  executor.setConcurrency(concurrency);
  const t0 = performance.now();
  for (let i = 0; i < TASKS; i++) executor.submit(sessionId, { id: `t${i}`, skill: 'context-retrieval', objective: objective('P') });
  await executor.waitAll(sessionId);
  const wall = ms(t0);
  const failed = executor.list({ sessionId }).filter((t) => t.status !== 'ok');
  if (failed.length) throw new Error(`${failed.length} tasks failed: ${failed[0]!.error}`);
  return wall;
}

async function diamond(sessionId: string): Promise<number> {
  executor.setConcurrency(CONCURRENCY);
  const t0 = performance.now();
  executor.submit(sessionId, { id: 'A', skill: 'context-retrieval', objective: objective('D') });
  executor.submit(sessionId, { id: 'B', skill: 'context-retrieval', objective: objective('D'), dependsOn: ['A'] });
  executor.submit(sessionId, { id: 'C', skill: 'context-retrieval', objective: objective('D'), dependsOn: ['A'] });
  executor.submit(sessionId, { id: 'D', skill: 'portfolio-synthesis', objective: objective('D'), dependsOn: ['B', 'C'] });
  const d = await executor.waitFor(sessionId, 'D');
  if (d.status !== 'ok') throw new Error(`diamond failed: ${d.error}`);
  return ms(t0);
}

async function overheadSamples(): Promise<number[]> {
  executor.setConcurrency(CONCURRENCY);
  const out: number[] = [];
  for (let i = 0; i < OVERHEAD_RUNS + 20; i++) {
    const sid = `bench_over_${i}`;
    const goal = objective('O');
    const t0 = performance.now();
    executor.submit(sid, { id: 'o', skill: 'context-retrieval', objective: goal });
    await executor.waitFor(sid, 'o');
    const wall = ms(t0);
    // Model time: the scripted calls of this task, keyed by the objective's first word.
    const mine = `:${goal.split(' ')[0]}`;
    const modelMs = model.calls.filter((c) => c.key.endsWith(mine)).reduce((sum, c) => sum + (c.end - c.start), 0);
    if (i >= 20) out.push(wall - modelMs); // first 20 warm up
  }
  return out;
}

async function cancelSamples(runs = 10): Promise<number[]> {
  const out: number[] = [];
  for (let i = 0; i < runs; i++) {
    const sid = `bench_cancel_${i}`;
    executor.submit(sid, { id: 'c', skill: 'context-retrieval', objective: objective('C') });
    await new Promise((r) => setTimeout(r, Math.min(50, LATENCY / 3)));
    if (executor.find(sid, 'c')!.status !== 'running') throw new Error('cancel sample: the task was not running yet');
    const t0 = performance.now();
    executor.cancel(sid, 'c');
    const r = await executor.waitFor(sid, 'c');
    out.push(ms(t0));
    if (r.status !== 'cancelled') throw new Error(`cancel sample ended ${r.status}`);
  }
  return out;
}

try {
  // Warm up module loading, SQLite statements and the skill files once.
  await independent('bench_warm', CONCURRENCY);
  const parallel = await independent('bench_parallel', CONCURRENCY);
  const sequential = await independent('bench_sequential', 1);
  const diamondMs = await diamond('bench_diamond');
  const criticalPath = 3 * LATENCY;
  const overhead = await overheadSamples();
  const cancel = await cancelSamples();
  const speedup = sequential / parallel;

  console.log(`model latency ${LATENCY} ms per call; ${TASKS} tasks; concurrency ${CONCURRENCY}`);
  console.log(`independent: parallel ${round(parallel, 1)} ms, sequential ${round(sequential, 1)} ms → ${round(speedup, 2)}× (target ≥ 6×)`);
  console.log(
    `diamond A→(B,C)→D: ${round(diamondMs, 1)} ms vs critical path ${criticalPath} ms (3 model calls) → ${round(diamondMs / criticalPath, 3)}× (target ≤ 1.1×)`,
  );
  console.log(
    `overhead per task excl. model time: p50 ${round(median(overhead), 3)} ms, p95 ${round(percentile(overhead, 95), 3)} ms over ${overhead.length} tasks (target p50 ≤ 2 ms)`,
  );
  console.log(`cancel latency: median ${round(median(cancel), 3)} ms, max ${round(Math.max(...cancel), 3)} ms (target ≤ 200 ms)`);
  report({
    bench: 'executor',
    parallel_ms: round(parallel, 1),
    sequential_ms: round(sequential, 1),
    speedup: round(speedup, 2),
    diamond_ms: round(diamondMs, 1),
    critical_path_ms: criticalPath,
    diamond_ratio: round(diamondMs / criticalPath, 3),
    overhead_p50_ms: round(median(overhead), 3),
    overhead_p95_ms: round(percentile(overhead, 95), 3),
    cancel_ms: round(median(cancel), 3),
    latency_ms: LATENCY,
    ratio: round(speedup, 2),
  });
} finally {
  await executor.close();
  skills.close();
  ws.close();
  rmSync(dir, { recursive: true, force: true });
}
