import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { EventMessage } from '../../api/events';
import { EnvSecretStore } from '../../config/secrets';
import { defaultModelRouting, routerFor } from '../../config/models';
import { startMockAnthropicServer, type MockAnthropicServer, type MockStep, type RecordedRequest } from '../../llm/testing';
import { createCore, type Core } from '../core';
import { REPO_SKILLS } from './tasks-harness';

/**
 * The analyst with all eight tools, end to end through the real core: createCore on a temp
 * folder, the real AnthropicModel (the one the analyst, the sub-agents and the reviewer share)
 * talking to the mock Anthropic server, which answers each conversation from its own script.
 */

type Block = { type: string; text?: string; content?: string | { type: string; text?: string }[]; name?: string };
type Message = { role: string; content: string | Block[] };

const systemText = (r: RecordedRequest) => {
  const s = r.body.system as string | { text: string }[] | undefined;
  return typeof s === 'string' ? s : (s ?? []).map((b) => b.text).join('\n');
};
const messagesOf = (r: RecordedRequest) => r.body.messages as Message[];
const blockText = (b: Block): string =>
  b.type === 'text'
    ? (b.text ?? '')
    : b.type === 'tool_result'
      ? typeof b.content === 'string'
        ? b.content
        : (b.content ?? []).map((c) => c.text ?? '').join('')
      : '';
const textOf = (m: Message | undefined) => (!m ? '' : typeof m.content === 'string' ? m.content : m.content.map(blockText).join('\n'));
const kindOf = (r: RecordedRequest) => {
  const sys = systemText(r);
  if (sys.startsWith('You are Forge')) return 'agent';
  if (sys.startsWith('You review a proposed output')) return 'reviewer';
  if (sys.includes('# Context Retrieval')) return 'subagent';
  return 'unknown';
};

const EXPRESSION = `# new — Receive 5y SOFR, sized from the stop
view_id: V-001
category: macro_regime
instrument: USD 5y SOFR swap (receive fixed)
notional: 8
max_loss_pct: 0.9
duration_impact: 0.7
factor: usd_swaps
---
## SUMMARY
A small 5y receiver adds to V-001 with a 20bp stop; one bad print costs under 1% of NAV.`;

/** Scripts keyed by conversation: each step answers the request with that many assistant turns before it. */
type Script = (step: number, lastUser: string) => MockStep;

let mock: MockAnthropicServer;
let t: { core: Core; dataDir: string; dispose(): Promise<void> };
let events: EventMessage[];

function respondWith(scripts: Record<string, Script>) {
  mock.setResponder((r) => {
    const messages = messagesOf(r);
    const step = messages.filter((m) => m.role === 'assistant').length;
    const first = textOf(messages[0]);
    const kind = kindOf(r);
    const key = kind === 'agent' ? Object.keys(scripts).find((k) => k.startsWith('agent:') && first.includes(k.slice(6))) : kind;
    const script = key ? scripts[key] : undefined;
    if (!script) return { text: `UNSCRIPTED ${kind} request` };
    return script(step, textOf(messages.at(-1)));
  });
}

async function run(message: string, sessionId?: string): Promise<{ runId: string; sessionId: string; done: EventMessage }> {
  const sent = await t.core.invoke('agent/send', { message, ...(sessionId ? { sessionId } : {}) });
  if (!sent.ok) throw new Error(sent.error.message);
  const { runId } = sent.value;
  const done = await new Promise<EventMessage>((resolve) => {
    const find = () => events.find((e) => (e.event === 'agent/done' || e.event === 'agent/error') && (e.payload as { runId: string }).runId === runId);
    const hit = find();
    if (hit) return resolve(hit);
    const off = t.core.context.events.subscribe(() => {
      const h = find();
      if (h) {
        off();
        resolve(h);
      }
    });
  });
  return { runId, sessionId: sent.value.sessionId, done };
}

const toolResults = (runId: string) =>
  events
    .filter((e) => e.event === 'agent/tool-result' && (e.payload as { runId: string }).runId === runId)
    .map((e) => e.payload as { name: string; content: string; isError: boolean });

beforeAll(async () => {
  mock = await startMockAnthropicServer();
});
afterAll(async () => {
  await mock.close();
});
beforeEach(async () => {
  mock.reset();
  // A workspace whose skills folder already holds the ten analyst skills.
  const dataDir = mkdtempSync(join(tmpdir(), 'forge-delegation-'));
  cpSync(REPO_SKILLS, join(dataDir, 'skills'), { recursive: true });
  const core = createCore({ dataDir, mode: 'test', secrets: new EnvSecretStore({ ANTHROPIC_API_KEY: 'test-key' }) });
  t = {
    core,
    dataDir,
    dispose: async () => {
      await core.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
  t.core.context.settings.update({ anthropicBaseUrl: mock.url });
  events = [];
  t.core.context.events.subscribe((m) => events.push(m));
  await t.core.context.memory.ready;
});
afterEach(async () => {
  await t.dispose();
});

describe('the analyst delegates, reviews and proposes through the real core', () => {
  it('dispatches a sub-agent with a skill, collects it, reviews the Expression and writes it as proposed; the Tasks procedures list the task', async () => {
    respondWith({
      'agent:Morning check': (step, last) => {
        if (step === 0) {
          return {
            text: 'Gathering rates context first.',
            toolCalls: [
              {
                name: 'dispatch',
                input: {
                  id: 'rates_ctx',
                  skill: 'context-retrieval',
                  objective: 'Collect what bears on V-001 after the latest payrolls.',
                  context: ['V-001:header'],
                },
              },
              { name: 'collect', input: { target: 'rates_ctx' } },
            ],
          };
        }
        if (step === 1) {
          if (!last.includes('Payrolls slowed again; V-001 holds.')) return { text: `collect did not return the summary: ${last}` };
          return { toolCalls: [{ name: 'review', input: { output: EXPRESSION, focus: 'sizing against the stop' } }] };
        }
        if (step === 2) return { toolCalls: [{ name: 'write', input: { path: '/memory/expressions/new.md', content: EXPRESSION } }] };
        return { text: 'Proposed a small 5y receiver for your approval.' };
      },
      'agent:Anything else': () => ({ text: 'Nothing else today.' }),
      subagent: (step) =>
        step === 0
          ? { toolCalls: [{ name: 'read', input: { path: '/memory/views/V-001.md' } }] }
          : { text: '## SUMMARY\nPayrolls slowed again; V-001 holds.\n\n## EVIDENCE\n- V-001 base case intact.' },
      reviewer: () => ({ text: 'The size follows from the stop and sits inside every limit.\nVERDICT: approve' }),
    });

    const first = await run('Morning check: is there a trade for V-001?');
    expect(first.done.event).toBe('agent/done');
    expect(first.done.payload).toMatchObject({ stop: 'answered', text: 'Proposed a small 5y receiver for your approval.' });

    const results = toolResults(first.runId);
    expect(results.map((r) => `${r.name}${r.isError ? '!' : ''}`)).toEqual(['dispatch', 'collect', 'review', 'write']);
    expect(results[0]!.content).toMatch(/^Dispatched: rates_ctx \| skill: context-retrieval/);
    expect(results[1]!.content).toContain('── rates_ctx (ok) ──\nPayrolls slowed again; V-001 holds.');
    expect(results[2]!.content).toMatch(/^VERDICT: approve\n/);
    expect(results[3]!.content).toMatch(/^Written: \/memory\/expressions\/E-004\.md \(status proposed/);
    const fs = t.core.context.memory.fs;
    expect(fs.readFile('/memory/expressions/E-004.md')).toMatch(/^status: proposed$/m);

    // One model, routed by role: the analyst, the sub-agent and the reviewer each asked for their own model id.
    const route = routerFor(defaultModelRouting);
    const byKind = (k: string) => mock.messageRequests().filter((r) => kindOf(r) === k);
    expect(byKind('agent').map((r) => r.body.model)).toEqual(Array(4).fill(route('agent')));
    expect(byKind('subagent').map((r) => r.body.model)).toEqual([route('subagent'), route('subagent')]);
    expect(byKind('reviewer').map((r) => r.body.model)).toEqual([route('review')]);
    // The sub-agent got its skill's read-only tools, never write; the analyst got all eight.
    const names = (r: RecordedRequest) => (r.body.tools as { name: string }[]).map((x) => x.name);
    expect(names(byKind('subagent')[0]!)).toEqual(['read', 'search', 'fetch']);
    expect(names(byKind('agent')[0]!)).toEqual(['read', 'search', 'write', 'fetch', 'dispatch', 'collect', 'review', 'compact']);
    expect(systemText(byKind('agent')[0]!)).toContain("dispatch sub-agents as needs appear, collect('ready')");
    expect(systemText(byKind('agent')[0]!)).toContain('- context-retrieval: ');

    // The Tasks screen's procedures and events see the task.
    const list = await t.core.invoke('tasks/list', { sessionId: first.sessionId });
    if (!list.ok) throw new Error(list.error.message);
    expect(list.value.tasks.map((x) => [x.id, x.skill, x.status, x.summary])).toEqual([
      ['rates_ctx', 'context-retrieval', 'ok', 'Payrolls slowed again; V-001 holds.'],
    ]);
    expect(list.value.tasks[0]!.inputTokens).toBeGreaterThan(0);
    const got = await t.core.invoke('tasks/get', { sessionId: first.sessionId, id: 'rates_ctx' });
    if (!got.ok) throw new Error(got.error.message);
    expect(got.value.output).toContain('## EVIDENCE\n- V-001 base case intact.');
    const changes = events.filter((e) => e.event === 'tasks/changed').map((e) => (e.payload as { status: string }).status);
    expect(changes[0]).toBe('queued');
    expect(changes.at(-1)).toBe('ok');

    // The next turn of the session sends the very same system prompt (served from the prompt cache); the turn goes in the message.
    const second = await run('Anything else before the open?', first.sessionId);
    expect(second.done.payload).toMatchObject({ stop: 'answered' });
    const agentCalls = byKind('agent');
    const last = agentCalls.at(-1)!;
    expect(systemText(last)).toBe(systemText(agentCalls[0]!));
    expect(textOf(messagesOf(last)[0])).toMatch(/^\[[^\]]+ · turn 2\]\nEarlier turns of this session:\n## Turn 1 /);
    const u = last.usage!;
    expect(u.cacheReadTokens / (u.cacheReadTokens + u.cacheCreationTokens + u.inputTokens)).toBeGreaterThan(0.85);
  });

  it('refuses to write an Expression nobody reviewed, or whose review said revise, and writes nothing', async () => {
    const revised = EXPRESSION.replace('notional: 8', 'notional: 12');
    respondWith({
      'agent:Propose': (step, last) => {
        if (step === 0) return { toolCalls: [{ name: 'write', input: { path: '/memory/expressions/new.md', content: EXPRESSION } }] };
        if (step === 1) return { toolCalls: [{ name: 'review', input: { output: revised, focus: 'sizing' } }] };
        if (step === 2) return { toolCalls: [{ name: 'write', input: { path: '/memory/expressions/new.md', content: revised } }] };
        return { text: `Could not propose it: ${last.slice(0, 80)}` };
      },
      reviewer: () => ({ text: 'Notional 12 breaks the stop-based sizing of PK-001.\nVERDICT: revise' }),
    });
    const before = t.core.context.memory.fs.listDir('/memory/expressions/').entries.length;
    const r = await run('Propose a 5y receiver for V-001.');
    expect(r.done.event).toBe('agent/done');
    const results = toolResults(r.runId);
    expect(results.map((x) => `${x.name}${x.isError ? '!' : ''}`)).toEqual(['write!', 'review', 'write!']);
    expect(results[0]!.content).toBe(
      'Not written: /memory/expressions/new.md — review required before the PM is asked.\nThis Expression has not been reviewed. Call review(output=<the Expression text>, focus=...) first; it must approve before the PM can be asked.',
    );
    expect(results[2]!.content).toMatch(/review required before the PM is asked\.\nThe latest review \(.+\) said revise\./);
    expect(t.core.context.memory.fs.listDir('/memory/expressions/').entries.length).toBe(before);
    expect(t.core.context.memory.fs.exists('/memory/expressions/E-004.md')).toBe(false);
  });
});
