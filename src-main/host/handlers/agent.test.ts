import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { EventMessage } from '../../api/events';
import { startMockAnthropicServer, type MockAnthropicServer, type MockStep } from '../../llm/testing';
import { tempCore } from '../testing';
import type { Core } from '../core';

let mock: MockAnthropicServer;
beforeAll(async () => {
  mock = await startMockAnthropicServer();
});
afterAll(() => mock.close());

let core: Core;
let dispose: () => Promise<void>;
let events: EventMessage[];
beforeEach(async () => {
  mock.reset();
  const t = tempCore({ ANTHROPIC_API_KEY: 'sk-test-key' });
  core = t.core;
  dispose = t.dispose;
  events = [];
  core.context.events.subscribe((m) => events.push(m));
  const r = await core.invoke('settings/set', { settings: { anthropicBaseUrl: mock.url } });
  expect(r.ok).toBe(true);
  await core.context.memory.ready;
});
afterEach(() => dispose());

function until(pred: (m: EventMessage) => boolean, ms = 10_000): Promise<EventMessage> {
  return new Promise((resolve, reject) => {
    const hit = events.find(pred);
    if (hit) return resolve(hit);
    const timer = setTimeout(() => reject(new Error(`no matching event in ${ms} ms: ${events.map((e) => e.event).join(', ')}`)), ms);
    const off = core.context.events.subscribe((m) => {
      if (pred(m)) {
        clearTimeout(timer);
        off();
        resolve(m);
      }
    });
  });
}
const ended = (runId: string) => until((m) => (m.event === 'agent/done' || m.event === 'agent/error') && (m.payload as { runId: string }).runId === runId);
const memorySnapshot = () => {
  const db = core.context.memory.store.db;
  return {
    records: (db.prepare('SELECT count(*) AS n FROM memory_records').get() as { n: number }).n,
    audit: (db.prepare("SELECT count(*) AS n FROM audit_log WHERE path LIKE '/memory/%'").get() as { n: number }).n,
  };
};

describe('agent API', () => {
  it('without an API key, agent/send says how to add one or run the demo', async () => {
    const t = tempCore({});
    try {
      const r = await t.core.invoke('agent/send', { message: 'Morning check' });
      expect(r.ok).toBe(false);
      if (r.ok) return;
      expect(r.error.code).toBe('missing_key');
      expect(r.error.message).toMatch(/Settings → API keys.*offline demo/s);
      const s = await t.core.invoke('agent/status', {});
      expect(s.ok && s.value.hasApiKey).toBe(false);
    } finally {
      await t.dispose();
    }
  });

  it('streams a Claude answer with a tool call through agent/* events keyed by run id', async () => {
    mock.enqueue({ text: 'Checking the book.', toolCalls: [{ name: 'read', input: { path: '/portfolio/book.md' } }] }, { text: 'Gross is 142.5% of NAV.' });
    const r = await core.invoke('agent/send', { message: 'What is our gross?' });
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    const end = await ended(r.value.runId);
    expect(end.event).toBe('agent/done');
    expect(end.payload).toMatchObject({ stop: 'answered', text: 'Gross is 142.5% of NAV.', rounds: 2, demo: false });
    const mine = events.filter((e) => (e.payload as { runId?: string }).runId === r.value.runId).map((e) => e.event);
    expect(mine).toContain('agent/tool-call');
    const result = events.find((e) => e.event === 'agent/tool-result')!.payload as { content: string; isError: boolean };
    expect(result.isError).toBe(false);
    expect(result.content).toContain('gross: 142.5');
    const req = mock.messageRequests()[0]!;
    expect(req.auth === 'bearer' || req.auth === 'x-api-key').toBe(true);
    expect((req.body.tools as { name: string }[]).map((t) => t.name)).toEqual(['read', 'search', 'write', 'fetch', 'dispatch', 'collect', 'review', 'compact']);
    const sessions = await core.invoke('sessions/list', {});
    expect(sessions.ok && sessions.value.sessions[0]).toMatchObject({ id: r.value.sessionId, turns: 1, status: 'active', title: 'What is our gross?' });
  });

  it('Stop cancels a streaming answer at once, without waiting for the rest of it', async () => {
    // About 40 s of events: only Stop can end the run within the bound below.
    mock.enqueue({ text: 'A long and slow answer '.repeat(400), eventDelayMs: 100 });
    const r = await core.invoke('agent/send', { message: 'Tell me everything' });
    if (!r.ok) throw new Error(r.error.message);
    await until((m) => m.event === 'agent/text');
    const t0 = performance.now();
    const c = await core.invoke('agent/cancel', { runId: r.value.runId });
    expect(c.ok && c.value.cancelled).toBe(true);
    const end = await ended(r.value.runId);
    expect(performance.now() - t0).toBeLessThan(10_000);
    expect(end.payload).toMatchObject({ stop: 'cancelled' });
  });

  for (const [label, steps] of [
    [
      '429 rate limits',
      [
        { fault: 'rate_limit', retryAfterMs: 5 },
        { fault: 'rate_limit', retryAfterMs: 5 },
        { fault: 'rate_limit', retryAfterMs: 5 },
      ],
    ],
    [
      '529 overloaded',
      [
        { fault: 'overloaded', retryAfterMs: 5 },
        { fault: 'overloaded', retryAfterMs: 5 },
        { fault: 'overloaded', retryAfterMs: 5 },
      ],
    ],
    [
      '500 server errors',
      [
        { fault: 'server_error', retryAfterMs: 5 },
        { fault: 'server_error', retryAfterMs: 5 },
        { fault: 'server_error', retryAfterMs: 5 },
      ],
    ],
    [
      'a connection reset mid-stream',
      [
        { fault: 'reset_mid_stream', afterEvents: 3 },
        { fault: 'reset_mid_stream', afterEvents: 3 },
        { fault: 'reset_mid_stream', afterEvents: 3 },
      ],
    ],
  ] as const) {
    it(`after retries, ${label} surface as agent/error with the request id and nothing half-written to memory`, async () => {
      const before = memorySnapshot();
      mock.enqueue(...(steps as readonly MockStep[]));
      const r = await core.invoke('agent/send', { message: 'Propose a trade' });
      if (!r.ok) throw new Error(r.error.message);
      const end = await ended(r.value.runId);
      expect(end.event).toBe('agent/error');
      const p = end.payload as { requestId: string | null; message: string; code: string };
      const last = mock.messageRequests().at(-1)!;
      expect(p.requestId).toBe(last.requestId);
      expect(p.message).toContain(last.requestId);
      expect(p.code).toBe('unavailable');
      expect(mock.messageRequests()).toHaveLength(steps.length);
      expect(memorySnapshot()).toEqual(before);
      expect(mock.pending).toBe(0);
    });
  }

  it('the PM approves a proposal through expressions/approve (guardrails re-run) and rejects another with a reason', async () => {
    const fs = core.context.memory.fs;
    const proposal = (n: number) =>
      `# new — Proposal ${n}\nstatus: proposed\nview_id: V-001\nnotional: 5\nmax_loss_pct: 1\nduration_impact: 0.5\nfactor: oil\n---\n## SUMMARY\nx\n`;
    await fs.writeFile('/memory/expressions/new.md', proposal(1), { actor: 'agent' });
    await fs.writeFile('/memory/expressions/new.md', proposal(2), { actor: 'agent' });
    const ok = await core.invoke('expressions/approve', { id: 'E-004' });
    expect(ok.ok && ok.value).toMatchObject({ approved: true, status: 'active' });
    const rej = await core.invoke('expressions/reject', { id: 'E-005', reason: 'not now' });
    expect(rej.ok && rej.value).toMatchObject({ status: 'rejected', counterfactual: 'CF-001' });
  });

  it('a double-click on Approve or Reject is answered ok both times, never with a conflict', async () => {
    const fs = core.context.memory.fs;
    const proposal = (n: number) =>
      `# new — Proposal ${n}\nstatus: proposed\nview_id: V-001\nnotional: 5\nmax_loss_pct: 1\nduration_impact: 0.5\nfactor: oil\n---\n## SUMMARY\nx\n`;
    await fs.writeFile('/memory/expressions/new.md', proposal(1), { actor: 'agent' });
    await fs.writeFile('/memory/expressions/new.md', proposal(2), { actor: 'agent' });
    const approvals = await Promise.all([core.invoke('expressions/approve', { id: 'E-004' }), core.invoke('expressions/approve', { id: 'E-004' })]);
    expect(approvals.map((r) => r.ok && r.value.status)).toEqual(['active', 'active']);
    expect(approvals.map((r) => r.ok && r.value.message).sort()).toEqual(['E-004 is active.', 'E-004 was already active; nothing changed.']);
    const rejections = await Promise.all([
      core.invoke('expressions/reject', { id: 'E-005', reason: 'not now' }),
      core.invoke('expressions/reject', { id: 'E-005', reason: 'not now' }),
    ]);
    expect(rejections.map((r) => r.ok && r.value.counterfactual)).toEqual(['CF-001', 'CF-001']);
    const audit = await core.invoke('memory/audit', { path: '/memory/expressions/E-005.md' });
    expect(audit.ok).toBe(true);
    const ops = audit.ok ? (audit.value as { entries: { operation: string }[] }).entries.map((e) => e.operation) : [];
    expect(ops.filter((o) => o === 'reject')).toHaveLength(1);
    expect(ops).not.toContain('update');
  });
});
