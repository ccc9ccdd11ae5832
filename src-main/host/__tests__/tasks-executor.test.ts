import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { ModelError } from '../../llm';
import { runTool } from '../../tools';
import { collectTool } from '../../tools/collect';
import { dispatchTool } from '../../tools/dispatch';
import { openTestWorkspace, type TestWorkspace } from '../../tools/testing';
import { answer, harness, removeDir, testSkillsRoot, type Harness } from './tasks-harness';

/**
 * The TaskExecutor wired as in the app: real workspace (SQLite), real agent loop and analyst tools,
 * real skills; only the model is scripted (one script per task, picked by the objective's first word).
 */
let tw: TestWorkspace;
let skillsRoot: string;
let h: Harness | null = null;
let sessionNo = 0;
const session = () => `sess_exec_${++sessionNo}`;

beforeAll(async () => {
  tw = await openTestWorkspace();
  skillsRoot = testSkillsRoot();
});
afterAll(() => {
  tw.close();
  removeDir(skillsRoot);
});
afterEach(async () => {
  await h?.close();
  h = null;
});

const make = (scenarios: Parameters<typeof harness>[0], options: Omit<Parameters<typeof harness>[1] & object, 'tw'> = {}) =>
  harness(scenarios, { skillsRoot, ...options, tw }).then((x) => (h = x));

describe('dispatch and dependencies', () => {
  it('returns at once, runs independent tasks in parallel and a dependant only after its dependencies, with their summaries', async () => {
    const x = await make(
      {
        'subagent:A': answer('Claims rose for a fifth week.'),
        'subagent:B': answer('Payrolls point to 90k.'),
        'subagent:C': answer('Services CPI is cooling.'),
        'subagent:D': {
          turns: [
            {
              expect: { contains: ['PRIOR ANALYSIS:', '[From B]\nPayrolls point to 90k.', '[From C]\nServices CPI is cooling.', 'OBJECTIVE:\nD combine'] },
              reply: { text: '## SUMMARY\nLabour and inflation both support V-001.' },
            },
          ],
        },
      },
      { model: { latencyMs: 400 } }, // long enough that tasks run side by side overlap even on a busy machine
    );
    const sid = session();
    const a = x.executor.submit(sid, { id: 'A', skill: 'quick-note', objective: 'A claims' });
    x.executor.submit(sid, { id: 'B', skill: 'quick-note', objective: 'B payrolls', dependsOn: ['A'] });
    x.executor.submit(sid, { id: 'C', skill: 'quick-note', objective: 'C inflation', dependsOn: ['A'] });
    const d = x.executor.submit(sid, { id: 'D', skill: 'quick_note', objective: 'D combine', dependsOn: ['B', 'C'] });
    // Returns at once: the statuses below prove no model call ran before submit returned.
    expect(a.status).toBe('queued');
    expect(d.status).toBe('waiting');

    const done = await x.executor.waitFor(sid, 'D');
    expect(done.status).toBe('ok');
    expect(done.summary).toBe('Labour and inflation both support V-001.');
    const call = (k: string) => x.model.calls.find((c) => c.key === `subagent:${k}`)!;
    expect(call('B').start).toBeGreaterThanOrEqual(call('A').end);
    expect(call('C').start).toBeGreaterThanOrEqual(call('A').end);
    // B and C ran side by side: each started before the other ended.
    expect(call('B').start).toBeLessThan(call('C').end);
    expect(call('C').start).toBeLessThan(call('B').end);
    expect(call('D').start).toBeGreaterThanOrEqual(Math.max(call('B').end, call('C').end));
    expect(x.model.finished).toBe(true);
    // The full output is in the session's results folder.
    expect(tw.ws.fs.readFile(`/session/${sid}/results/D.md`)).toBe('## SUMMARY\nLabour and inflation both support V-001.');
  });

  it('refuses an unknown dependency, a duplicate id, an unknown skill and a cycle at dispatch time', async () => {
    const x = await make({ 'subagent:A': answer('ok') }, { model: { latencyMs: 5 } });
    const sid = session();
    expect(() => x.executor.submit(sid, { id: 'B', skill: 'quick-note', objective: 'B', dependsOn: ['nope'] })).toThrow(
      /depends on "nope", which was never dispatched/,
    );
    expect(() => x.executor.submit(sid, { id: 'S', skill: 'quick-note', objective: 'S', dependsOn: ['S'] })).toThrow(/in a circle: S → S/);
    expect(() =>
      x.executor.submitAll(sid, [
        { id: 'P', skill: 'quick-note', objective: 'P', dependsOn: ['R'] },
        { id: 'Q', skill: 'quick-note', objective: 'Q', dependsOn: ['P'] },
        { id: 'R', skill: 'quick-note', objective: 'R', dependsOn: ['Q'] },
      ]),
    ).toThrow(/in a circle: P → R → Q → P/);
    expect(() => x.executor.submit(sid, { id: 'Z', skill: 'no-such-skill', objective: 'Z' })).toThrow(/There is no skill "no-such-skill"/);
    // Nothing of a refused batch was started or recorded.
    expect(x.executor.list({ sessionId: sid })).toEqual([]);

    x.executor.submit(sid, { id: 'A', skill: 'quick-note', objective: 'A' });
    expect(() => x.executor.submit(sid, { id: 'A', skill: 'quick-note', objective: 'A again' })).toThrow(/already used in this session/);
    // Through the tool, the same refusal is an error result the analyst reads.
    const r = await runTool(
      [dispatchTool(x.executor)],
      'dispatch',
      { id: 'B', skill: 'quick-note', objective: 'B', depends_on: ['nope'] },
      tw.context({ sessionId: sid }),
    );
    expect(r.isError).toBe(true);
    expect(r.content).toContain('never dispatched');
    await x.executor.waitAll(sid);
  });

  it("fails dependants with the dependency's reason, and a retry re-runs the chain", async () => {
    const x = await make(
      {
        // A's first call fails (injected below); its retry inherits the objective, so the same script answers it.
        'subagent:A': { turns: [{ expect: { contains: ['RETRY of A', 'failed: ', 'V-001:summary'] }, reply: { text: '## SUMMARY\nA done on retry.' } }] },
        'subagent:B': { turns: [{ expect: { contains: '[From A2]\nA done on retry.' }, reply: { text: '## SUMMARY\nB built on A2.' } }] },
      },
      { model: { latencyMs: 5, failures: { 'subagent:A': [new ModelError('bad_request', 'The request was malformed')] } } },
    );
    const sid = session();
    x.executor.submit(sid, { id: 'A', skill: 'quick-note', objective: 'A rates', context: ['V-001'] });
    x.executor.submit(sid, { id: 'B', skill: 'quick-note', objective: 'B curve', dependsOn: ['A'] });
    x.executor.submit(sid, { id: 'C', skill: 'quick-note', objective: 'C', dependsOn: ['B'] });
    const [a, b, c] = await x.executor.waitAll(sid);
    expect(a).toMatchObject({ status: 'failed', failure: 'model' });
    expect(a!.error).toContain('The request was malformed');
    expect(b).toMatchObject({ status: 'failed', failure: 'dependency' });
    expect(b!.error).toMatch(/^Dependency A failed: The request was malformed.*Retry A \(dispatch with retry_of="A"\)/);
    expect(c!.error).toMatch(/^Dependency B failed: Dependency A failed/);

    // The collect tool shows the failure and how to retry.
    const collected = await runTool([collectTool(x.executor)], 'collect', { target: 'A' }, tw.context({ sessionId: sid }));
    expect(collected.content).toContain('── A (failed) ──\nFAILED: The request was malformed');
    expect(collected.content).toContain("[retry: dispatch(id='A-r1', retry_of='A')]");

    // retry_of keeps skill and objective, cuts context to summaries and says what failed.
    const a2 = x.executor.submit(sid, { id: 'A2', retryOf: 'A' });
    expect(a2.spec).toMatchObject({ skill: 'quick-note', objective: 'A rates', context: ['V-001:summary'], retryOf: 'A' });
    // Retrying B re-points its dependency to A's retry.
    const b2 = x.executor.submit(sid, { id: 'B2', retryOf: 'B' });
    expect(b2.spec.dependsOn).toEqual(['A2']);
    const b2Done = await x.executor.waitFor(sid, 'B2');
    expect(b2Done.error).toBeNull();
    expect((await x.executor.waitFor(sid, 'B2')).summary).toBe('B built on A2.');
  });

  it('retries a transient model failure (overloaded) and records it, instead of failing the task', async () => {
    const x = await make(
      { 'subagent:T': answer('Done after a retry.') },
      { model: { failures: { 'subagent:T': [new ModelError('overloaded', 'Anthropic is overloaded', { status: 529 })] } } },
    );
    const sid = session();
    x.executor.submit(sid, { id: 'T', skill: 'quick-note', objective: 'T' });
    const t = await x.executor.waitFor(sid, 'T');
    expect(t.status).toBe('ok');
    const retries = x.executor.events(sid, 'T').filter((e) => e.kind === 'model_retry');
    expect(retries.map((e) => e.detail)).toEqual([expect.stringMatching(/^attempt 1 failed \(overloaded\); retrying in \d+ ms$/)]);
  });
});

describe('validation', () => {
  it("judges the output against the skill's Eval Criteria and shows REVISE with feedback and a retry hint", async () => {
    const x = await make({
      'subagent:V': answer('The Fed cuts twice.'),
      'validation:V': {
        turns: [
          {
            expect: { role: 'validation', contains: ['CRITERIA:\n- Names the View it is about.', 'OUTPUT:\n## SUMMARY\nThe Fed cuts twice.'] },
            reply: { text: 'VERDICT: REVISE\nFEEDBACK: Name the View (V-001) the conclusion bears on.' },
          },
        ],
      },
      'subagent:W': answer('EUR rates stay on hold per V-002.'),
      'contrastive:W': {
        turns: [
          {
            expect: { role: 'contrastive' },
            reply: { text: 'COUNTERARGUMENT: A weak PMI could force an ECB cut.\nVERDICT: PASS' },
          },
        ],
      },
    });
    const sid = session();
    x.executor.submit(sid, { id: 'V', skill: 'quick-note', objective: 'V fed', validate: true });
    x.executor.submit(sid, { id: 'W', skill: 'quick-note', objective: 'W ecb', validateContrastive: true });
    const [v, w] = await x.executor.waitAll(sid);
    expect(v!.validation).toMatchObject({ verdict: 'revise', contrastive: false, feedback: 'Name the View (V-001) the conclusion bears on.' });
    expect(w!.validation).toMatchObject({ verdict: 'pass', contrastive: true, counterargument: 'A weak PMI could force an ECB cut.' });

    const out = await runTool([collectTool(x.executor)], 'collect', { target: 'V' }, tw.context({ sessionId: sid }));
    expect(out.content).toBe(
      [
        '── V (ok | validated: REVISE) ──',
        'The Fed cuts twice.',
        `[full: /session/results/V.md]`,
        '[feedback: Name the View (V-001) the conclusion bears on.]',
        "[retry with this feedback: dispatch(id='V-r1', retry_of='V')]",
      ].join('\n'),
    );
    // A retry of a REVISE carries the feedback to the sub-agent.
    expect(x.executor.retryTask(sid, 'V').spec.notes).toContain('Validation said REVISE: Name the View (V-001)');
    await x.executor.close();
  });
});

describe('tool grants', () => {
  it('never gives a sub-agent write, even when its skill lists it: the call is refused and memory is unchanged', async () => {
    const before = tw.ws.fs.readFile('/memory/views/V-001.md');
    const x = await make({
      'subagent:E': {
        turns: [
          { reply: { toolCalls: [{ name: 'write', input: { path: '/memory/views/V-001.md', content: '# V-001 — hacked\nstatus: active\n---\nx' } }] } },
          {
            expect: { toolResult: 'write', isError: true, contains: 'Unknown tool "write". Available tools: read' },
            reply: { toolCalls: [{ name: 'read', input: { path: '/memory/views/V-001.md' } }] },
          },
          {
            expect: { toolResult: 'read', isError: false, contains: 'V-001 — Fed cuts' },
            reply: { text: '## SUMMARY\nI could not write; proposing the change instead.' },
          },
        ],
      },
    });
    const sid = session();
    x.executor.submit(sid, { id: 'E', skill: 'memory-editor', objective: 'E edit' });
    const e = await x.executor.waitFor(sid, 'E');
    expect(e.status).toBe('ok');
    expect(x.model.finished).toBe(true);
    expect(tw.ws.fs.readFile('/memory/views/V-001.md')).toBe(before);
    const started = x.executor.events(sid, 'E').find((ev) => ev.kind === 'started')!;
    expect(started.detail).toBe('tools: read; not granted to sub-agents: write, dispatch');
  });

  it("gives run_script to a skill that grants it, running the skill's own script", async () => {
    const x = await make(
      {
        'subagent:K': {
          turns: [
            { reply: { toolCalls: [{ name: 'run_script', input: { script: 'kelly.mjs', input: { probability: 0.6, win: 0.04, loss: 0.02 } } }] } },
            { expect: { toolResult: 'run_script', isError: false, contains: '"full_kelly": 20' }, reply: { text: '## SUMMARY\nHalf Kelly sizing computed.' } },
          ],
        },
      },
      { skillsRoot: undefined },
    );
    const sid = session();
    x.executor.submit(sid, { id: 'K', skill: 'expression-design', objective: 'K size the payer' });
    const k = await x.executor.waitFor(sid, 'K');
    expect(k.error).toBeNull();
    expect(k.status).toBe('ok');
  });
});

describe('budgets and cancellation', () => {
  it('stops a runaway sub-agent at its token budget and says so', async () => {
    const loop = { reply: { toolCalls: [{ name: 'read', input: { path: '/memory/views/V-001.md', depth: 'full' } }] } };
    const x = await make({ 'subagent:R': { turns: Array.from({ length: 12 }, () => loop) } }, { executor: { budget: { tokens: 3000 } } });
    const sid = session();
    x.executor.submit(sid, { id: 'R', skill: 'quick-note', objective: 'R loop' });
    const r = await x.executor.waitFor(sid, 'R');
    expect(r).toMatchObject({ status: 'failed', failure: 'budget_tokens' });
    expect(r.inputTokens + r.outputTokens).toBeGreaterThan(3000);
    expect(r.error).toMatch(/over this task's budget of 3,000/);
    expect(x.model.calls.length).toBeLessThan(12);
  });

  it('stops a sub-agent at its time budget', async () => {
    // The model would answer after ten minutes: only the 80 ms budget can end the task within the test's time.
    const x = await make({ 'subagent:S': answer('late') }, { model: { latencyMs: 600_000 }, executor: { budget: { timeMs: 80 } } });
    const sid = session();
    x.executor.submit(sid, { id: 'S', skill: 'quick-note', objective: 'S slow' });
    const s = await x.executor.waitFor(sid, 'S');
    expect(s).toMatchObject({ status: 'failed', failure: 'budget_time' });
    expect(s.error).toContain('time budget');
  });

  it('cancels a running task without waiting for its model call; its dependants fail saying it was cancelled', async () => {
    // The model would answer after ten minutes: only Cancel can end the task within the test's time.
    const x = await make({ 'subagent:L': answer('never') }, { model: { latencyMs: 600_000 } });
    const sid = session();
    x.executor.submit(sid, { id: 'L', skill: 'quick-note', objective: 'L long' });
    x.executor.submit(sid, { id: 'M', skill: 'quick-note', objective: 'M', dependsOn: ['L'] });
    await vi.waitFor(() => expect(x.executor.find(sid, 'L')!.status).toBe('running'), { timeout: 20_000, interval: 10 });
    x.executor.cancel(sid, 'L');
    const l = await x.executor.waitFor(sid, 'L');
    expect(l.status).toBe('cancelled');
    const m = await x.executor.waitFor(sid, 'M');
    expect(m.error).toMatch(/^Dependency L was cancelled/);
    expect(x.executor.store.get(sid, 'L')!.status).toBe('cancelled');
  });

  it('runs at most `concurrency` sub-agents at once', async () => {
    const x = await make((k) => (k.startsWith('subagent:') ? answer(`done ${k}`) : undefined), { model: { latencyMs: 40 }, executor: { concurrency: 2 } });
    const sid = session();
    for (let i = 0; i < 5; i++) x.executor.submit(sid, { id: `N${i}`, skill: 'quick-note', objective: `N${i}` });
    await x.executor.waitAll(sid);
    const calls = x.model.calls;
    // Sweep the call intervals: the most calls in flight at any instant.
    const edges = calls
      .flatMap(
        (c) =>
          [
            [c.start, 1],
            [c.end, -1],
          ] as const,
      )
      .sort((p, q) => p[0] - q[0] || p[1] - q[1]);
    let inFlight = 0;
    let maxOverlap = 0;
    for (const [, d] of edges) {
      inFlight += d;
      maxOverlap = Math.max(maxOverlap, inFlight);
    }
    expect(calls).toHaveLength(5);
    expect(maxOverlap).toBe(2);
  });
});
