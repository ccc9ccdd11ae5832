import Anthropic from '@anthropic-ai/sdk';
import { Analyst, buildDelegation, runAgent, stampUserMessage } from '../src-main/agent';
import { defaultModelRouting, routerFor } from '../src-main/config/models';
import { findBundledDir } from '../src-main/fs';
import { defaultGuardrailLimits } from '../src-main/guardrails';
import { AnthropicModel, ScriptedModel, toAnthropicParams, type Model, type SystemBlock } from '../src-main/llm';
import { startMockAnthropicServer, type MockAnthropicServer } from '../src-main/llm/testing';
import { SkillLoader } from '../src-main/skills';
import { openTestWorkspace, type TestWorkspace } from '../src-main/tools/testing';
import { toModelTool, type ToolDefinition } from '../src-main/tools';
import { median, percentile, report, round } from './_stats';

const TURNS = 10;
const unusedModel = {
  id: 'unused',
  isScripted: true,
  call: () => Promise.reject(new Error('not used')),
  stream: () => Promise.reject(new Error('not used')),
} as unknown as Model;
const router = routerFor(defaultModelRouting);
const MODEL = router('agent');

/** The analyst as the app builds it: all eight tools (the executor and reviewer behind dispatch/collect/review). */
function makeAnalyst(t: TestWorkspace, catalog: string, skills?: SkillLoader): Analyst {
  const delegation = skills
    ? buildDelegation({ fs: t.ws.fs, skills, model: unusedModel, providers: t.providers, limits: () => defaultGuardrailLimits })
    : undefined;
  return new Analyst({
    tasks: delegation?.executor,
    reviewer: delegation?.reviewer,
    fs: t.ws.fs,
    providers: t.providers,
    search: (req) => t.index.search(req),
    skillCatalog: () => catalog,
    model: () => {
      throw new Error('not used');
    },
    limits: () => defaultGuardrailLimits,
    settings: () => ({ sessionTimeoutMinutes: 30, timezone: 'US/Eastern' }),
    emit: () => {},
  });
}

async function fixedContextTokens(mock: MockAnthropicServer, a: Analyst): Promise<{ total: number; system: number; tools: number }> {
  const sdk = new Anthropic({ apiKey: 'bench', baseURL: mock.url, maxRetries: 0 });
  const { system, tools } = a.prompt({ sessionId: 'sess_bench', turn: 1, startedAt: new Date() });
  const modelTools = tools.map((t) => toModelTool(t as ToolDefinition));
  const msg = [{ role: 'user' as const, content: 'x' }];
  const count = async (req: { system: SystemBlock[]; tools: typeof modelTools }) => {
    const p = toAnthropicParams({ ...req, messages: msg, maxTokens: 1 }, MODEL);
    return (
      await sdk.messages.countTokens({ model: MODEL, messages: p.messages, ...(p.system ? { system: p.system } : {}), ...(p.tools ? { tools: p.tools } : {}) })
    ).input_tokens;
  };
  const empty = await count({ system: [], tools: [] });
  const withSystem = await count({ system, tools: [] });
  const all = await count({ system, tools: modelTools });
  return { total: all - empty, system: withSystem - empty, tools: all - withSystem };
}

/** Ten turns of one session; returns the cache-read share over turns 2..10. */
async function session(mock: MockAnthropicServer, catalog: string, clockAtTop: boolean): Promise<number> {
  const t = await openTestWorkspace();
  try {
    mock.reset();
    const a = makeAnalyst(t, catalog);
    const model = new AnthropicModel({ apiKey: () => 'bench-key', env: {}, baseURL: mock.url, router, maxRetries: 0 });
    const perTurn: { read: number; input: number }[] = [];
    for (let turn = 1; turn <= TURNS; turn++) {
      mock.enqueue(
        { text: 'Checking.', toolCalls: [{ name: 'read', input: { path: `/memory/views/V-00${((turn - 1) % 6) + 1}.md` } }] },
        { text: `Turn ${turn}: the View still holds; nothing to change today.` },
      );
      const s = a.sessions.resolve({ type: 'pm' });
      const { system, tools } = a.prompt(s);
      const sys = clockAtTop ? [{ text: `Current time: ${new Date().toISOString()} (${process.hrtime.bigint()})`, stable: false }, ...system] : system;
      const ctx = t.context({ sessionId: s.sessionId });
      const message = `Question ${turn}: does V-00${((turn - 1) % 6) + 1} still hold after today's data?`;
      const r = await runAgent({
        model,
        role: 'agent',
        system: sys,
        messages: [{ role: 'user', content: stampUserMessage(message, new Date()) }],
        tools,
        toolContext: ctx,
        maxRounds: 4,
      });
      await a.sessions.recordTurn(s.sessionId, s.turn, message, r.text, { actor: 'agent', sessionId: s.sessionId });
      const u = r.usage;
      perTurn.push({ read: u.cacheReadTokens, input: u.inputTokens + u.cacheReadTokens + u.cacheWriteTokens });
    }
    const later = perTurn.slice(1);
    return later.reduce((n, x) => n + x.read, 0) / later.reduce((n, x) => n + x.input, 0);
  } finally {
    t.close();
  }
}

async function roundOverhead(): Promise<number[]> {
  const t = await openTestWorkspace();
  try {
    const rounds = 500;
    const turns = Array.from({ length: rounds }, (_, i) =>
      i === rounds - 1 ? { reply: { text: 'done' } } : { reply: { toolCalls: [{ name: 'read', input: { path: '/memory/views/' } }] } },
    );
    const model = new ScriptedModel({ name: 'overhead', turns }, { chunkSize: 1000 });
    const a = makeAnalyst(t, '');
    const { system, tools } = a.prompt({ sessionId: 'sess_bench', turn: 1, startedAt: new Date() });
    const r = await runAgent({ model, system, messages: [{ role: 'user', content: 'go' }], tools, toolContext: t.context(), maxRounds: rounds });
    return r.overheadMs.slice(20);
  } finally {
    t.close();
  }
}

async function main() {
  const mock = await startMockAnthropicServer();
  try {
    const skillsDir = findBundledDir('skills');
    const loader = skillsDir ? new SkillLoader(skillsDir, { mode: 'lenient' }) : null;
    const catalog = loader?.formatCatalog({ maxDescription: 100 }) ?? '';

    const t = await openTestWorkspace();
    const fixedAnalyst = makeAnalyst(t, catalog, loader ?? undefined);
    const fixed = await fixedContextTokens(mock, fixedAnalyst);
    console.log(
      `tools in the fixed context: ${fixedAnalyst
        .prompt({ sessionId: 's', turn: 1, startedAt: new Date() })
        .tools.map((x) => x.name)
        .join(', ')}`,
    );
    t.close();
    loader?.close();
    console.log(`fixed context: ${fixed.total} tokens (system ${fixed.system}, tools ${fixed.tools}) — target ≤ 3000`);

    const share = await session(mock, catalog, false);
    const baseline = await session(mock, catalog, true);
    console.log(`cache-read share, turns 2–${TURNS}: ${round(share, 4)} (stable-first) vs ${round(baseline, 4)} (clock at top) — target ≥ 0.9`);

    const overhead = await roundOverhead();
    console.log(
      `loop overhead per round: p50 ${round(median(overhead), 4)} ms, p95 ${round(percentile(overhead, 95), 4)} ms over ${overhead.length} rounds — target p50 ≤ 5 ms`,
    );

    report({
      bench: 'agent',
      fixed_context_tokens: fixed.total,
      cache_read_share: round(share, 4),
      baseline_cache_read_share: round(baseline, 4),
      ratio: round(share / Math.max(baseline, 1e-4), 2),
      round_overhead_p50_ms: round(median(overhead), 4),
    });
  } finally {
    await mock.close();
  }
}

void main().catch((e) => {
  console.error(e);
  process.exit(1);
});
