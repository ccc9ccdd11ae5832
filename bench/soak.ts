/**
 * `npm run bench -- soak [--seconds=300] [--agents=50] [--clients=20]`: Forge under sustained load.
 * For `seconds` (default five minutes), at once and continuously:
 *  - `agents` sub-agents in flight on the real TaskExecutor (scripted model, 200 ms per call, each
 *    task reading memory through its tools), a new one submitted as each finishes;
 *  - `clients` MCP clients over Streamable HTTP calling `forge_get_contract` back to back;
 *  - memory writes (new Views and rewrites that archive) one after another, with a filtered listing
 *    between writes.
 * Reports errors (target 0), the p95 of the PM-facing operations (an MCP call, a write, a listing)
 * under load and idle in the same run (ratio = load / idle), and heap growth from the end of
 * warm-up (the first fifth) to the end, each heap read after a full GC (target < 10%).
 * Last line: {"bench":"soak","errors","p95_ms","idle_p95_ms","heap_growth","ratio",...}.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { TaskExecutor } from '../src-main/executor';
import { openWorkspace } from '../src-main/fs';
import { defaultGuardrailLimits } from '../src-main/guardrails';
import type { Model, ModelCallRequest, ModelResult } from '../src-main/llm';
import { startMcpHttpServer } from '../src-main/mcp/http';
import { createMcpService } from '../src-main/mcp/service';
import { ProviderRegistry } from '../src-main/providers';
import { SkillLoader } from '../src-main/skills';
import { runAgent } from '../src-main/tools/loop';
import { readTool, searchTool, type AnalystTool, type AnalystToolContext } from '../src-main/tools';
import { subAgentToolFactory } from '../src-main/tools/dispatch';
import { median, percentile, report, round } from './_stats';

setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;

const arg = (name: string, dflt: number) => Number(process.argv.find((a) => a.startsWith(`--${name}=`))?.split('=')[1] ?? dflt);
const SECONDS = arg('seconds', 300);
const AGENTS = arg('agents', 50);
const CLIENTS = arg('clients', 20);
const IDLE_SECONDS = Math.min(15, Math.max(3, SECONDS / 20));
const root = join(import.meta.dirname, '..');

const dir = mkdtempSync(join(tmpdir(), 'forge-bench-soak-'));
const ws = openWorkspace({ dataDir: dir, bundledSkillsDir: null, seedDir: join(root, 'resources', 'seed') });
await ws.ready;
const skills = new SkillLoader(join(root, 'skills'));
const providers = new ProviderRegistry([]);

/**
 * A stateless scripted sub-agent (the scripted models keep one script per objective, which would
 * grow without bound over thousands of tasks and be measured as heap growth): it reads a View
 * through its tools, then answers. 200 ms per call, like a fast model.
 */
let callNo = 0;
const model: Model = {
  id: 'scripted:soak',
  isScripted: true,
  call(request) {
    return this.stream(request, () => undefined);
  },
  async stream(request: ModelCallRequest) {
    await new Promise((r) => setTimeout(r, 200));
    const last = request.messages.at(-1);
    const answered = Array.isArray(last?.content) && last.content.some((b) => b.type === 'tool_result');
    const usage = { inputTokens: 100, outputTokens: 20, cacheWriteTokens: 0, cacheReadTokens: 0, costUsd: null };
    if (answered) {
      const text = '## SUMMARY\nClaims rose for a fifth week; V-001 holds.\n\n## EVIDENCE\n- Continuing claims 1.97m.\n';
      return { content: [{ type: 'text', text }], toolCalls: [], text, stopReason: 'end_turn', usage, model: 'scripted:soak' } as ModelResult;
    }
    const call = { id: `toolu_soak_${++callNo}`, name: 'read', input: { path: '/memory/views/V-001.md' } };
    return { content: [{ type: 'tool_use', ...call }], toolCalls: [call], text: '', stopReason: 'tool_use', usage, model: 'scripted:soak' } as ModelResult;
  },
};
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
  concurrency: AGENTS,
});

const service = createMcpService({ dataDir: dir, contractsDir: join(root, 'contracts'), workDir: dir, mode: 'local', env: {} });
const http = await startMcpHttpServer({ service });
async function mcpClient(): Promise<Client> {
  const client = new Client({ name: 'soak', version: '1' });
  await client.connect(new StreamableHTTPClientTransport(new URL(http.url), { requestInit: { headers: { authorization: `Bearer ${service.token.get()}` } } }));
  return client;
}

let errors = 0;
const firstErrors: string[] = [];
function failed(what: string, e: unknown) {
  errors++;
  if (firstErrors.length < 5) firstErrors.push(`${what}: ${(e as Error)?.message ?? String(e)}`.slice(0, 300));
}

async function timed(samples: number[], fn: () => Promise<unknown> | unknown, what: string) {
  const t0 = performance.now();
  try {
    await fn();
    samples.push(performance.now() - t0);
  } catch (e) {
    failed(what, e);
  }
}

function viewDoc(i: number, id = 'new'): string {
  return `# ${id} — Soak view ${i} on curve steepening\nstatus: active\nconfidence: ${(0.3 + (i % 60) / 100).toFixed(2)}\nscope: rates\ncategory: macro_regime\nhorizon: 2027-06-15\n---\n## SUMMARY\nTerm premium rebuilds as supply rises; note ${i}.\n`;
}

/** One round of the PM-facing operations, timed: an MCP call, a memory write, a filtered listing. */
async function pmRound(client: Client, samples: number[], i: number, ids: string[]) {
  await timed(
    samples,
    async () => {
      const r = await client.callTool({ name: 'forge_get_contract', arguments: { name: i % 2 ? 'stack' : 'boundaries' } });
      if ((r as { isError?: boolean }).isError) throw new Error('MCP tool error');
    },
    'mcp call',
  );
  await timed(
    samples,
    async () => {
      if (ids.length === 0 || i % 2 === 0) ids.push((await ws.fs.writeFile('/memory/views/new.md', viewDoc(i), { actor: 'agent', sessionId: 'soak' })).id!);
      else await ws.fs.writeFile(`/memory/views/${ids[ids.length - 1]}.md`, viewDoc(i, ids[ids.length - 1]), { actor: 'pm' });
      // Bounded working set: the soak measures steady state, not an ever-growing index.
      if (ids.length > 200) ids.shift();
    },
    'memory write',
  );
  await timed(samples, () => ws.fs.listDir('/memory/views/', 'status:active confidence>=0.5 curve'), 'listing');
}

// 1. Idle: the same PM-facing operations with nothing else running.
const probe = await mcpClient();
const idle: number[] = [];
const ids: string[] = [];
let round_ = 0;
const idleEnd = performance.now() + IDLE_SECONDS * 1000;
while (performance.now() < idleEnd) await pmRound(probe, idle, round_++, ids);

// 2. Load: sub-agents, MCP clients and writes together.
let stopping = false;
const loadSamples: number[] = [];
const heaps: { at: number; bytes: number }[] = [];
const start = performance.now();
const elapsed = () => (performance.now() - start) / 1000;
let tasks = 0;

async function agentLane(lane: number) {
  const sessionId = `soak-${lane}`;
  while (!stopping) {
    const id = `t${++tasks}`;
    executor.submit(sessionId, { id, skill: 'context-retrieval', objective: `Gather the evidence for V-001 (${id}).` });
    try {
      const t = await executor.waitFor(sessionId, id);
      if (t.status !== 'ok') failed('sub-agent', new Error(`${t.status}: ${t.error}`));
    } catch (e) {
      failed('sub-agent', e);
    }
  }
}

async function clientLane(client: Client) {
  let i = 0;
  while (!stopping) {
    try {
      const r = await client.callTool({ name: 'forge_get_contract', arguments: { name: i++ % 2 ? 'stack' : 'physics' } });
      if ((r as { isError?: boolean }).isError) throw new Error('MCP tool error');
    } catch (e) {
      failed('mcp client', e);
    }
  }
}

async function pmLane() {
  while (!stopping) await pmRound(probe, loadSamples, round_++, ids);
}

const clients = await Promise.all(Array.from({ length: CLIENTS }, () => mcpClient()));
const warmupEnd = SECONDS / 5;
const sampler = setInterval(() => {
  gc();
  heaps.push({ at: elapsed(), bytes: process.memoryUsage().heapUsed });
}, 5_000);
const stopper = new Promise<void>((resolve) =>
  setTimeout(() => {
    stopping = true;
    resolve();
  }, SECONDS * 1000),
);
const lanes = [...Array.from({ length: AGENTS }, (_, i) => agentLane(i)), ...clients.map((c) => clientLane(c)), pmLane()];
const progress = setInterval(
  () => console.log(`${Math.round(elapsed())} s: ${tasks} sub-agent tasks, ${loadSamples.length} PM operations, ${errors} errors`),
  30_000,
);
await stopper;
await Promise.all(lanes);
clearInterval(sampler);
clearInterval(progress);
gc();
heaps.push({ at: elapsed(), bytes: process.memoryUsage().heapUsed });

// Only samples taken after warm-up count; their median at the start and at the end smooths GC timing.
const steady = heaps.filter((h) => h.at >= warmupEnd);
const head = median(steady.slice(0, 3).map((h) => h.bytes));
const tail = median(steady.slice(-3).map((h) => h.bytes));
const heapGrowth = steady.length >= 2 ? (tail - head) / head : Number.NaN;

for (const c of [...clients, probe]) await c.close().catch(() => undefined);
await http.close();
await executor.close?.();
skills.close();
ws.close();
rmSync(dir, { recursive: true, force: true });

const idleP95 = percentile(idle, 95);
const loadP95 = percentile(loadSamples, 95);
console.log(`sub-agent tasks finished: ${tasks - AGENTS}; PM operations under load: ${loadSamples.length}; idle: ${idle.length}`);
console.log(`heap after warm-up ${(head / 1e6).toFixed(1)} MB → end ${(tail / 1e6).toFixed(1)} MB`);
if (firstErrors.length) console.log(`first errors:\n  ${firstErrors.join('\n  ')}`);
report({
  bench: 'soak',
  seconds: SECONDS,
  agents: AGENTS,
  clients: CLIENTS,
  errors,
  p95_ms: round(loadP95, 2),
  idle_p95_ms: round(idleP95, 2),
  p50_ms: round(median(loadSamples), 2),
  heap_growth: round(heapGrowth, 4),
  tasks_completed: tasks - AGENTS,
  ratio: round(loadP95 / idleP95, 2),
});
process.exit(0);
