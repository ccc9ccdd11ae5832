import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openWorkspace, type Workspace } from '../fs';
import { AnthropicModel, type Model } from '../llm';
import { startMockAnthropicServer, type MockAnthropicServer } from '../llm/testing';
import { SkillLoader } from '../skills';
import { TaskExecutor } from './executor';
import { ScriptedSubAgents } from './testing';
import type { NamedTool, SubAgentLoop, TaskRecord } from './types';

/**
 * The executor over a real SQLite workspace and real skills. The sub-agent loop is one model call
 * (these tasks use no tools); the agent's full loop is exercised in src-main/host/__tests__.
 */
let dir: string;
let ws: Workspace;
let skills: SkillLoader;
let sessionNo = 0;
const session = () => `sess_mem_${++sessionNo}`;

const oneCall: SubAgentLoop<NamedTool, unknown> = async (o) => {
  const r = await o.model.stream({ role: o.role, system: o.system, messages: o.messages, maxTokens: o.maxTokens ?? 1024, signal: o.signal }, () => {});
  o.onEvent?.({ type: 'usage', round: 1, usage: r.usage });
  return { stop: 'answered', text: r.text, rounds: 1, usage: r.usage };
};

const summary = (k: string) => ({ turns: [{ reply: { text: `## SUMMARY\nDone: ${k}.` } }] });

function executor(model: Model = new ScriptedSubAgents(summary), concurrency = 8) {
  return new TaskExecutor({
    db: ws.store.db,
    files: ws.fs,
    skills,
    model,
    runLoop: oneCall,
    toolsFor: () => ({ tools: [], context: {} }),
    concurrency,
    retry: { attempts: 3, baseDelayMs: 5 },
  });
}

/** Every Map, Set and array the executor holds directly: what would grow if finished tasks stayed in memory. */
function heldInMemory(x: object): Record<string, number> {
  const out: Record<string, number> = {};
  for (const [name, v] of Object.entries(x)) {
    if (v instanceof Map || v instanceof Set) out[name] = v.size;
    else if (Array.isArray(v)) out[name] = v.length;
  }
  return out;
}

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'forge-exec-mem-'));
  ws = openWorkspace({ dataDir: join(dir, 'data'), bundledSkillsDir: null, seedDir: null });
  mkdirSync(join(dir, 'skills', 'quick-note'), { recursive: true });
  writeFileSync(
    join(dir, 'skills', 'quick-note', 'SKILL.md'),
    '---\nname: quick-note\ndescription: A tiny test skill for the executor tests.\nallowed-tools: read\n---\n# quick-note\n\n## Output Format\nA SUMMARY first.\n\n## Eval Criteria\n- Says something.\n',
  );
  skills = new SkillLoader(join(dir, 'skills'));
});
afterAll(() => {
  skills.close();
  ws.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('finished tasks leave memory', () => {
  it('after 200 tiny tasks nothing is held per task, yet collect still sees every result', async () => {
    const x = executor();
    const sid = session();
    for (let i = 0; i < 200; i++) x.submit(sid, { id: `t${i}`, skill: 'quick-note', objective: `T${i} tiny task` });
    // While they run, memory holds only the unfinished ones.
    const during = heldInMemory(x);
    expect(during.live).toBe(x.pendingCount(sid));
    expect(during.live).toBeGreaterThan(0);

    const all = await x.waitAll(sid);
    expect(all).toHaveLength(200);
    expect(all.map((t) => t.id)).toEqual(Array.from({ length: 200 }, (_, i) => `t${i}`)); // dispatch order
    expect(all.every((t) => t.status === 'ok' && t.summary === `Done: subagent:T${all.indexOf(t)}.`)).toBe(true);
    // A leak would leave one entry per finished task in some map, set or array.
    const after = heldInMemory(x);
    expect(Object.keys(after).length).toBeGreaterThan(0);
    expect(
      Object.values(after).every((n) => n === 0),
      JSON.stringify(after),
    ).toBe(true);
    expect(x.pendingCount(sid)).toBe(0);
    // A finished task is read back from SQLite.
    expect(x.find(sid, 't7')).toMatchObject({ status: 'ok', summary: 'Done: subagent:T7.' });
    expect((await x.waitFor(sid, 't199')).status).toBe('ok');
    await x.close();
  });

  it('collect("ready") still gives each finished task exactly once, from SQLite, with the analyst\'s reads on the trail', async () => {
    const x = executor();
    const sid = session();
    for (let i = 0; i < 5; i++) x.submit(sid, { id: `r${i}`, skill: 'quick-note', objective: `R${i} tiny task` });
    await x.waitFor(sid, 'r4');
    for (let i = 0; i < 5; i++) await x.waitFor(sid, `r${i}`);
    x.acknowledge(sid, ['r2']); // collect('r2') read it already
    const ready = x.drainCompleted(sid);
    expect(ready.map((t) => t.id).sort()).toEqual(['r0', 'r1', 'r3', 'r4']);
    expect(x.drainCompleted(sid)).toEqual([]);
    expect(x.events(sid, 'r2').filter((e) => e.kind === 'collected')).toHaveLength(1);
    expect(heldInMemory(x).live).toBe(0);
    await x.close();
    // Another run (a restart) does not hand the earlier run's results out as new.
    const next = executor();
    expect(next.drainCompleted(sid)).toEqual([]);
    expect(await next.waitAll(sid)).toEqual([]);
    await next.close();
  });
});

describe('attempts are looked up in SQL', () => {
  const stored = (sid: string, id: string, status: TaskRecord['status'], retryOf?: string, at = '2026-11-20T10:00:00.000Z'): TaskRecord => ({
    sessionId: sid,
    id,
    status,
    spec: {
      id,
      skill: 'quick-note',
      objective: `${id.replace(/[^A-Za-z]/g, '')} rates`,
      context: [],
      dependsOn: [],
      validate: false,
      validateContrastive: false,
      ...(retryOf ? { retryOf } : {}),
    },
    failure: status === 'failed' ? 'model' : null,
    error: status === 'failed' ? 'Overloaded.' : null,
    summary: status === 'ok' ? 'ok' : null,
    resultPath: null,
    validation: null,
    inputTokens: 0,
    outputTokens: 0,
    costUsd: 0,
    rounds: 0,
    createdAt: at,
    startedAt: null,
    finishedAt: at,
    updatedAt: at,
  });

  it('finds the newest non-cancelled attempt even behind 600 newer tasks (the old scan looked at the newest 500 only)', async () => {
    const x = executor();
    const sid = session();
    x.store.save(stored(sid, 'A', 'failed', undefined, '2026-11-20T09:00:00.000Z'));
    x.store.save(stored(sid, 'A-r1', 'ok', 'A', '2026-11-20T09:01:00.000Z'));
    x.store.save(stored(sid, 'A-r2', 'cancelled', 'A-r1', '2026-11-20T09:02:00.000Z'));
    ws.store.db.transaction(() => {
      for (let i = 0; i < 600; i++)
        x.store.save(
          stored(sid, `n${i}`, 'ok', undefined, `2026-11-20T10:${String(Math.floor(i / 60)).padStart(2, '0')}:${String(i % 60).padStart(2, '0')}.000Z`),
        );
    })();
    expect(x.latestAttempt(sid, 'A')).toBe('A-r1'); // A-r2 was cancelled, so A-r1 stands
    expect(x.latestAttempt(sid, 'n5')).toBe('n5');
    // A retry of a dependant re-points its dependency to that attempt.
    x.store.save({ ...stored(sid, 'B', 'failed', undefined, '2026-11-20T09:03:00.000Z'), spec: { ...stored(sid, 'B', 'failed').spec, dependsOn: ['A'] } });
    const b2 = x.retryTask(sid, 'B');
    expect(b2.id).toBe('B-r1');
    expect(b2.spec.dependsOn).toEqual(['A-r1']);
    await x.waitAll(sid);
    await x.close();
  });

  it('uses the retry_of index (migration 005), not a scan of the session', () => {
    const plan = ws.store.db
      .prepare(
        `EXPLAIN QUERY PLAN SELECT id FROM tasks WHERE session_id = ? AND retry_of = ? AND status != 'cancelled' ORDER BY created_at DESC, rowid DESC LIMIT 1`,
      )
      .all('s', 'A') as { detail: string }[];
    expect(plan.map((p) => p.detail).join('\n')).toContain('USING INDEX tasks_by_retry_of');
  });

  it('Retry picks the next free -rN id in one query, and counts from the base id', async () => {
    const x = executor();
    const sid = session();
    x.store.save(stored(sid, 'C', 'failed'));
    x.store.save(stored(sid, 'C-r1', 'failed', 'C'));
    x.store.save(stored(sid, 'C-r1x', 'failed')); // not an attempt number
    expect(x.retryTask(sid, 'C').id).toBe('C-r2');
    await x.waitFor(sid, 'C-r2');
    expect(x.retryTask(sid, 'C-r2').id).toBe('C-r3');
    await x.waitAll(sid);
    await x.close();
  });
});

describe("the sub-agents share the analyst's retry policy", () => {
  let mock: MockAnthropicServer;
  beforeAll(async () => {
    mock = await startMockAnthropicServer({ apiKey: 'k' });
  });
  afterAll(() => mock.close());

  it("an overload inside the stream is retried once by Claude's own policy, not again by the executor, and lands on the trail", async () => {
    const claude = new AnthropicModel({
      apiKey: () => 'k',
      env: {},
      baseURL: mock.url,
      defaultModel: 'claude-sonnet-5-5',
      retry: { attempts: 3, baseDelayMs: 5 },
    });
    const x = executor(claude);
    const sid = session();
    mock.enqueue({ fault: 'error_in_stream', afterEvents: 5 }, { text: '## SUMMARY\nDone after one retry.' });
    x.submit(sid, { id: 'O', skill: 'quick-note', objective: 'O overloaded once' });
    const done = await x.waitFor(sid, 'O');
    expect(done).toMatchObject({ status: 'ok', summary: 'Done after one retry.' });
    expect(mock.messageRequests()).toHaveLength(2);
    const trail = x
      .events(sid, 'O')
      .filter((e) => e.kind === 'model_retry')
      .map((e) => e.detail);
    expect(trail).toEqual([expect.stringMatching(/^attempt 1 failed \(overloaded\); retrying in \d+ ms$/)]);

    // Every attempt overloaded: 3 requests in all (not 3 x 3), and the task says so truthfully.
    mock.reset();
    mock.enqueue(...Array.from({ length: 9 }, () => ({ fault: 'error_in_stream' as const, afterEvents: 0 })));
    x.submit(sid, { id: 'P', skill: 'quick-note', objective: 'P overloaded always' });
    const failed = await x.waitFor(sid, 'P');
    expect(mock.messageRequests()).toHaveLength(3);
    expect(failed.status).toBe('failed');
    expect(failed.failure).toBe('model');
    expect(failed.error).toContain('Forge tried 3 times');
    await x.close();
  });
});
