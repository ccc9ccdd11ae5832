import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { EventMessage } from '../../api/events';
import { procedureNames } from '../../api/procedures';
import { startMockAnthropicServer, type MockAnthropicServer } from '../../llm/testing';
import { startHeadlessHost, type HeadlessHost } from '../http/server';
import { tempCore, untilEvent } from '../testing';

/**
 * The keys a PM gives Forge must never be written anywhere a person or another program could read
 * them: not the database (memory, audit trail, task outputs, sessions), not the data folder's
 * files, not a log line, not an event or API answer the renderer receives. The test runs real
 * work with recognisable keys (an analyst run that dispatches a sub-agent and writes, and a
 * model API that answers 401 quoting the key back, as a misconfigured proxy would) and then
 * greps every artefact the run produced.
 */
const KEYS = {
  ANTHROPIC_API_KEY: 'sk-ant-api03-LEAKCHECK-a1b2c3d4e5f6a7b8c9d0',
  // Voyage and OpenAI keys would switch the embedder to a remote one (unreachable here); the
  // http-embedder's own tests cover their headers.
  FRED_API_KEY: 'fredLEAKCHECK0123456789abcdef01',
  BRAVE_API_KEY: 'BSA-LEAKCHECK-brave-55aa66bb77cc',
  ALPHA_VANTAGE_API_KEY: 'AVLEAKCHECK7Q2W9E',
};
const secrets = Object.values(KEYS);

let mock: MockAnthropicServer;
let t: ReturnType<typeof tempCore>;
let host: HeadlessHost;
const events: EventMessage[] = [];
const logged: string[] = [];

beforeAll(async () => {
  // Everything Forge prints while the test runs is an artefact too.
  for (const method of ['log', 'info', 'warn', 'error', 'debug'] as const) {
    vi.spyOn(console, method).mockImplementation((...args: unknown[]) => {
      logged.push(args.map(String).join(' '));
    });
  }
  mock = await startMockAnthropicServer();
  t = tempCore(KEYS);
  host = await startHeadlessHost({ core: t.core });
  t.core.context.events.subscribe((m) => events.push(m));
  const r = await t.core.invoke('settings/set', { settings: { anthropicBaseUrl: mock.url } });
  expect(r.ok).toBe(true);
  await t.core.context.memory.ready;
});

afterAll(async () => {
  vi.restoreAllMocks();
  await host?.close();
  await t?.dispose();
  await mock?.close();
});

const until = (pred: (m: EventMessage) => boolean, ms = 20_000) => untilEvent(t.core, events, pred, ms);
const ended = (runId: string) => until((m) => (m.event === 'agent/done' || m.event === 'agent/error') && (m.payload as { runId: string }).runId === runId);

function filesUnder(dir: string): string[] {
  const out: string[] = [];
  for (const name of readdirSync(dir)) {
    const full = join(dir, name);
    if (statSync(full).isDirectory()) out.push(...filesUnder(full));
    else out.push(full);
  }
  return out;
}

function leaksIn(text: string): string[] {
  return secrets.filter((s) => text.includes(s) || text.includes(s.slice(0, 24)));
}

describe('API keys never leave the secret store', () => {
  it('runs real work with the keys set (so there is something that could leak)', async () => {
    const expression = `# new — Receive 5y SOFR, sized from the stop\nview_id: V-001\ncategory: macro_regime\ninstrument: USD 5y SOFR swap (receive fixed)\nnotional: 8\nmax_loss_pct: 0.9\nduration_impact: 0.7\nfactor: usd_swaps\n---\n## SUMMARY\nA small 5y receiver adds to V-001 with a 20bp stop.`;
    let step = 0;
    mock.setResponder((req) => {
      const system = JSON.stringify(req.body.system ?? '');
      if (/OBJECTIVE/.test(JSON.stringify(req.body.messages))) return { text: '## SUMMARY\nClaims rose; V-001 holds.\n' };
      if (/reviewer|VERDICT/i.test(system)) return { text: 'Sized inside every limit.\nVERDICT: approve' };
      step++;
      if (step === 1)
        return {
          toolCalls: [{ name: 'dispatch', input: { tasks: [{ id: 'ctx', skill: 'context-retrieval', objective: 'Gather the claims data for V-001.' }] } }],
        };
      if (step === 2) return { toolCalls: [{ name: 'collect', input: { ids: ['ctx'] } }] };
      if (step === 3) return { toolCalls: [{ name: 'review', input: { output: expression, focus: 'sizing against the stop' } }] };
      if (step === 4) return { toolCalls: [{ name: 'write', input: { path: '/memory/expressions/new.md', content: expression } }] };
      return { text: 'Proposed one receiver for your approval.' };
    });
    const run = await t.core.invoke('agent/send', { message: 'Morning check: is there a trade for V-001?' });
    expect(run.ok).toBe(true);
    if (!run.ok) return;
    await ended(run.value.runId);
    const results = events.filter((m) => m.event === 'agent/tool-result').map((m) => m.payload as { name: string; content: string });
    // The run dispatched a sub-agent, collected it and wrote an Expression: task outputs and memory exist.
    expect(results.map((r) => r.name)).toEqual(expect.arrayContaining(['dispatch', 'collect', 'write']));
    expect(results.find((r) => r.name === 'write')?.content).toMatch(/^Written: /);

    // A model API (or a proxy in front of it) that quotes the key back in its error.
    mock.setResponder(() => ({ fault: 'status', status: 401, errorType: 'authentication_error', message: `invalid x-api-key: ${KEYS.ANTHROPIC_API_KEY}` }));
    const failed = await t.core.invoke('agent/send', { message: 'And the curve?' });
    expect(failed.ok).toBe(true);
    if (failed.ok) await ended(failed.value.runId);
    // The key really was used: the mock saw it on the wire.
    expect(mock.messageRequests().some((r) => r.apiKey === KEYS.ANTHROPIC_API_KEY)).toBe(true);
  });

  it('leaves no key in any file of the data folder (database, WAL, sessions, task outputs, settings)', () => {
    t.core.context.memory.store.db.pragma('wal_checkpoint(PASSIVE)');
    const leaks: string[] = [];
    for (const file of filesUnder(t.dataDir)) {
      const found = leaksIn(readFileSync(file).toString('latin1'));
      if (found.length) leaks.push(`${file.slice(t.dataDir.length)}: ${found.map((s) => s.slice(0, 12)).join(', ')}`);
    }
    expect(leaks).toEqual([]);
  });

  it('sends no key in any event the renderer receives', () => {
    expect(events.length).toBeGreaterThan(5);
    expect(leaksIn(JSON.stringify(events))).toEqual([]);
  });

  it('prints no key in any log line', () => {
    expect(leaksIn(logged.join('\n'))).toEqual([]);
  });

  it('returns no key from any read procedure over HTTP (settings, audit, tasks, sessions…)', async () => {
    const bodies: string[] = [];
    for (const name of procedureNames.filter((n) => /\/(get|list|info|health|status|audit|history|sessions?|running|view|report|reports)$/.test(n))) {
      const res = await fetch(`${host.url}/api/${name}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${host.token}` },
        body: '{}',
      });
      bodies.push(`${name}: ${await res.text()}`);
    }
    expect(bodies.length).toBeGreaterThan(10);
    expect(leaksIn(bodies.join('\n'))).toEqual([]);
    // The settings the renderer reads say which keys are set, never what they are.
    expect(bodies.find((b) => b.startsWith('settings/get:'))).toMatch(/anthropicApiKey/);
  });
});
