import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ScriptedModel } from '../llm/scripted-model';
import type { Model, ModelCallRequest, ModelResult, ModelStreamEvent } from '../llm/types';
import { ArtifactStore, ProjectStore } from '../mcp';
import { type Db, openDatabase } from '../store';
import { type BuilderSettings, DEFAULT_BUILDER_SETTINGS } from './build-host';
import { BuildManager } from './runner';
import { BuildStore } from './store';

/**
 * A whole build with the scripted model: a tiny two-phase Node project in a temp folder. Forge
 * runs the project's real tests (`node --test`) at every sign-off.
 */

type Turn = {
  expect?: { contains?: string | string[]; toolResult?: string; isError?: boolean };
  reply: { text?: string; toolCalls?: { name: string; input: Record<string, unknown> }[] };
};

let dir: string;
let work: string;
let db: Db;

const BLUEPRINT = '# Calculator\n\nA tiny arithmetic library with tests.\n';
const PHASES = `# Phases

## Phase 0 — Addition

Deliverables: add.js exporting add(a, b), with a test.

## Phase 1 — Subtraction

Deliverables: sub.js exporting sub(a, b), with a test.
`;

function project(): string {
  const p = join(dir, 'calc');
  mkdirSync(join(p, 'Forge', 'Contracts'), { recursive: true });
  writeFileSync(join(p, 'Forge', 'Contracts', 'blueprint.md'), BLUEPRINT);
  writeFileSync(join(p, 'Forge', 'Contracts', 'phases.md'), PHASES);
  writeFileSync(join(p, 'Forge', 'Contracts', 'stack.md'), '# Stack\n\nNode 20, node:test, CommonJS modules.\n');
  writeFileSync(join(p, 'package.json'), JSON.stringify({ name: 'calc', version: '1.0.0', scripts: { test: 'node --test' } }, null, 2));
  return p;
}

const ADD = 'exports.add = (a, b) => a + b;\n';
const ADD_TEST =
  "const test = require('node:test');\nconst assert = require('node:assert');\nconst { add } = require('../add.js');\ntest('adds', () => assert.strictEqual(add(2, 3), 5));\n";
const SUB = 'exports.sub = (a, b) => a - b;\n';
const SUB_TEST =
  "const test = require('node:test');\nconst assert = require('node:assert');\nconst { sub } = require('../sub.js');\ntest('subtracts', () => assert.strictEqual(sub(5, 3), 2));\n";

const signOff = (phase: string, deliverables: string) =>
  `=== PHASE SIGN-OFF: PASS ===\nPhase: ${phase}\nDeliverables: ${deliverables}\nTests: PASS\n=== END PHASE SIGN-OFF ===`;

function manager(model: Model, options: { helper?: Model; settings?: Partial<BuilderSettings> } = {}): BuildManager {
  return new BuildManager({
    store: new BuildStore(db),
    projects: async () => new ProjectStore(db),
    artifacts: new ArtifactStore(undefined),
    model: () => model,
    helperModel: () => options.helper,
    defaultModelId: () => model.id,
    settings: () => ({ ...DEFAULT_BUILDER_SETTINGS, allowedCommands: ['npm', 'node'], ...options.settings }),
  });
}

/** Waits until the build leaves `running` (the drive ended: a STOP, completion, failure). */
async function settle(m: BuildManager, id: string): Promise<string> {
  for (let i = 0; i < 600; i++) {
    await m.settled(id);
    const d = m.detail(id);
    const s = d.build.status;
    if (process.env.DEBUG_BUILD && s !== 'running')
      console.log(
        d.build.error,
        d.log.slice(-6).map((l) => `${l.kind}: ${l.text.slice(0, 300)}`),
      );
    if (s !== 'running') return s;
    await new Promise((r) => setTimeout(r, 10));
  }
  throw new Error('the build never settled');
}

const phase0: Turn[] = [
  {
    reply: {
      text: 'Reading the phase.',
      toolCalls: [
        { name: 'forge_get_phase_window', input: { phase_number: 0 } },
        { name: 'forge_get_contract', input: { name: 'blueprint' } },
      ],
    },
  },
  {
    expect: { contains: 'Addition' },
    reply: {
      text: '=== PLAN ===\n1. Write add.js\n2. Write its test\n=== END PLAN ===',
      toolCalls: [
        { name: 'write_file', input: { path: 'add.js', content: ADD } },
        { name: 'write_file', input: { path: 'test/add.test.js', content: ADD_TEST } },
      ],
    },
  },
  { reply: { text: '=== TASK DONE: 1 ===\n=== TASK DONE: 2 ===', toolCalls: [{ name: 'run_tests', input: {} }] } },
  { expect: { toolResult: 'run_tests', isError: false }, reply: { text: signOff('Phase 0 — Addition', 'add.js, test/add.test.js') } },
];

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'forge-build-'));
  work = project();
  db = openDatabase(join(dir, 'forge.db'));
});
afterEach(() => {
  db.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('a scripted two-phase build', () => {
  it('writes files, has Forge run the tests, advances, pauses on a STOP code and resumes with the answer', async () => {
    const model = new ScriptedModel({
      name: 'calc',
      turns: [
        ...phase0,
        // Forge ran the tests, audited the phase and sent the phase-advance message (no window inside).
        { expect: { contains: ['forge_get_phase_window', '1'] }, reply: { toolCalls: [{ name: 'forge_get_phase_window', input: { phase_number: 1 } }] } },
        { reply: { text: '=== STOP: AMBIGUOUS_INTENT ===\nShould sub() accept more than two numbers?' } },
        {
          expect: { contains: 'only two' },
          reply: {
            text: '=== PLAN ===\n1. Write sub.js with its test\n=== END PLAN ===',
            toolCalls: [
              { name: 'write_file', input: { path: 'sub.js', content: SUB } },
              { name: 'write_file', input: { path: 'test/sub.test.js', content: SUB_TEST } },
            ],
          },
        },
        { reply: { text: `=== TASK DONE: 1 ===\n${signOff('Phase 1 — Subtraction', 'sub.js')}` } },
      ],
    });
    const auditor = new ScriptedModel({
      name: 'auditor',
      turns: [{ reply: { text: '```json\n[]\n```' } }, { reply: { text: '```json\n[{"severity":"info","file":"sub.js","message":"Fine."}]\n```' } }],
    });
    const m = manager(model, { helper: auditor });
    const started = await m.start({ workDir: work });
    expect(started.totalPhases).toBe(2);

    expect(await settle(m, started.id)).toBe('waiting_answer');
    let detail = m.detail(started.id);
    // What the user sees: phase 0 signed off with its plan marked, Forge's own test run passed.
    expect(detail.phases[0]!.status).toBe('signed_off');
    expect(detail.phases[0]!.plan.map((t) => t.done)).toEqual([true, true]);
    expect(detail.phases[0]!.tests.some((t) => t.by === 'forge' && t.passed)).toBe(true);
    expect(detail.phases[0]!.signOff?.accepted).toBe(true);
    expect(detail.phases[1]!.status).toBe('in_progress');
    expect(detail.stop?.code).toBe('AMBIGUOUS_INTENT');
    expect(readFileSync(join(work, 'add.js'), 'utf8')).toBe(ADD);

    m.answer(started.id, 'Keep it to only two numbers.');
    expect(await settle(m, started.id)).toBe('completed');
    detail = m.detail(started.id);
    expect(detail.phases.map((p) => p.status)).toEqual(['signed_off', 'signed_off']);
    expect(detail.phases[1]!.findings).toEqual([{ severity: 'info', source: 'auditor', file: 'sub.js', message: 'Fine.' }]);
    expect(detail.log.some((l) => l.kind === 'tool_call' && l.tool === 'write_file')).toBe(true);
    expect(detail.turns.length).toBe(8);
    expect(model.finished).toBe(true);
    // The contracts the builder read are kept where a compaction cannot lose them.
    expect(detail.scratchpad.find((e) => e.key === 'contracts_read')?.value).toContain('blueprint');
    // The pinned snapshot answers for this build.
    const snapshot = await new ProjectStore(db).getBuildContracts(started.id);
    expect(snapshot.contracts.map((c) => c.contract_type).sort()).toEqual(['blueprint', 'phases', 'stack']);
  });

  it('rejects a sign-off whose tests fail when Forge runs them, and accepts it once they pass', async () => {
    const broken = 'exports.add = (a, b) => a - b;\n';
    const model = new ScriptedModel({
      name: 'calc-broken',
      turns: [
        { reply: { toolCalls: [{ name: 'forge_get_phase_window', input: { phase_number: 0 } }] } },
        {
          reply: {
            text: '=== PLAN ===\n1. add.js and its test\n=== END PLAN ===',
            toolCalls: [
              { name: 'write_file', input: { path: 'add.js', content: broken } },
              { name: 'write_file', input: { path: 'test/add.test.js', content: ADD_TEST } },
            ],
          },
        },
        // Claims a pass without running the tests.
        { reply: { text: `=== TASK DONE: 1 ===\n${signOff('Phase 0 — Addition', 'add.js')}` } },
        { expect: { contains: 'adds' }, reply: { toolCalls: [{ name: 'write_file', input: { path: 'add.js', content: ADD } }] } },
        { reply: { text: signOff('Phase 0 — Addition', 'add.js') } },
      ],
    });
    const m = manager(model, { settings: {} });
    const { id } = await m.start({ workDir: work, mini: true });
    // Stops after phase 0 is accepted: the next message asks for phase 1, which the script does not have.
    await settle(m, id);
    const phase = m.detail(id).phases[0]!;
    expect(phase.tests.filter((t) => t.by === 'forge').map((t) => t.passed)).toEqual([false, true]);
    expect(phase.findings.some((f) => f.source === 'tests' && f.severity === 'severe')).toBe(true);
    expect(phase.status).toBe('signed_off');
  });

  it('refuses a write before the phase window is read, naming the call, and keeps the build going', async () => {
    const model = new ScriptedModel({
      name: 'gate',
      turns: [
        {
          reply: {
            toolCalls: [
              { name: 'list_directory', input: {} },
              { name: 'write_file', input: { path: 'add.js', content: ADD } },
            ],
          },
        },
        {
          expect: { toolResult: 'write_file', isError: true, contains: 'Call forge_get_phase_window({"phase_number": "0"}) first' },
          reply: { text: '=== STOP: EVIDENCE_MISSING ===\nNothing to build yet.' },
        },
      ],
    });
    const m = manager(model);
    const { id } = await m.start({ workDir: work });
    expect(await settle(m, id)).toBe('waiting_answer');
    expect(existsSync(join(work, 'add.js'))).toBe(false);
    expect(m.detail(id).log.some((l) => l.kind === 'gate' && /write_file refused/.test(l.text))).toBe(true);
  });

  it('compacts the conversation past its share of a small context limit, and the scratchpad survives', async () => {
    const big = 'x'.repeat(6000);
    const turns: Turn[] = [
      {
        reply: {
          toolCalls: [
            { name: 'forge_get_phase_window', input: { phase_number: 0 } },
            { name: 'forge_get_contract', input: { name: 'stack' } },
          ],
        },
      },
      {
        reply: {
          text: '=== PLAN ===\n1. notes\n2. more\n=== END PLAN ===',
          toolCalls: [{ name: 'forge_scratchpad', input: { operation: 'write', key: 'decision', value: 'CommonJS' } }],
        },
      },
      { reply: { toolCalls: [{ name: 'write_file', input: { path: 'notes.txt', content: big } }] } },
      { reply: { toolCalls: [{ name: 'read_file', input: { path: 'notes.txt' } }] } },
      { reply: { text: '=== TASK DONE: 1 ===', toolCalls: [{ name: 'read_file', input: { path: 'notes.txt' } }] } },
      { reply: { text: '=== STOP: ENVIRONMENT_LIMITATION ===\nDone testing compaction.' } },
    ];
    const model = new ScriptedModel({ name: 'compaction', turns });
    const summariser = new ScriptedModel({
      name: 'compact',
      // Two answers: the first message (the begin-phase instruction) is long enough that a second compaction may come.
      turns: [
        { reply: { text: 'Summary: read the phase window and the stack contract; wrote notes.txt.' } },
        { reply: { text: 'Summary: read the phase window and the stack contract; wrote notes.txt.' } },
      ],
    });
    const m = manager(model, { helper: summariser, settings: { contextLimitTokens: 6000, compactAtShare: 0.4 } });
    const { id } = await m.start({ workDir: work });
    expect(await settle(m, id)).toBe('waiting_answer');
    const detail = m.detail(id);
    expect(detail.context.compactions.length).toBeGreaterThanOrEqual(1);
    expect(detail.context.compactions[0]!.afterTokens).toBeLessThan(detail.context.compactions[0]!.beforeTokens);
    expect(detail.scratchpad.find((e) => e.key === 'decision')?.value).toBe('CommonJS');
    expect(detail.scratchpad.find((e) => e.key === 'contracts_read')?.value).toContain('stack');
    // The builder now reads the summary in place of the middle turns, which are gone.
    const kept = new BuildStore(db).messages(id);
    expect(JSON.stringify(kept[0])).toContain('Summary: read the phase window and the stack contract');
    expect(JSON.stringify(kept).match(/x{6000}/g)?.length ?? 0).toBeLessThan(3);
  });

  it('resumes after the host restarts mid-turn, from the saved conversation', async () => {
    // A model that hangs on its second turn until the host closes.
    const first = new ScriptedModel({ name: 'before', turns: [phase0[0]!] });
    let calls = 0;
    const hanging: Model = {
      id: 'scripted:before',
      isScripted: true,
      call: (r) => hanging.stream(r, () => {}),
      stream(request: ModelCallRequest, onEvent: (e: ModelStreamEvent) => void): Promise<ModelResult> {
        if (calls++ === 0) return first.stream(request, onEvent);
        return new Promise((_, reject) => request.signal?.addEventListener('abort', () => reject(new Error('aborted'))));
      },
    };
    const m1 = manager(hanging);
    const { id } = await m1.start({ workDir: work });
    for (let i = 0; i < 200 && calls < 2; i++) await new Promise((r) => setTimeout(r, 10));
    await m1.close();

    // The same script after the restart, fast-forwarded past the turn the first host completed
    // (its tool-call ids are the ones saved in the conversation).
    const after = new ScriptedModel({ name: 'before', turns: phase0 });
    await after.call({ system: '', messages: [{ role: 'user', content: 'replay' }], maxTokens: 10 });
    const m2 = manager(after);
    expect(m2.detail(id).build.status).toBe('interrupted');
    m2.resume(id);
    await settle(m2, id);
    expect(m2.detail(id).phases[0]!.status).toBe('signed_off');
    expect(existsSync(join(work, 'test', 'add.test.js'))).toBe(true);
  });

  it('asks the recovery planner after three failed runs of the same test, and hands its plan to the builder', async () => {
    const broken = 'exports.add = (a, b) => a - b;\n';
    const runTests = { name: 'run_tests', input: {} };
    const model = new ScriptedModel({
      name: 'recovery',
      turns: [
        {
          reply: {
            toolCalls: [
              { name: 'forge_get_phase_window', input: { phase_number: 0 } },
              { name: 'write_file', input: { path: 'add.js', content: broken } },
              { name: 'write_file', input: { path: 'test/add.test.js', content: ADD_TEST } },
            ],
          },
        },
        { reply: { toolCalls: [runTests] } },
        { reply: { toolCalls: [runTests] } },
        { reply: { toolCalls: [runTests] } },
        // The fourth message carries the recovery plan next to the third failure.
        { expect: { contains: ['recovery plan', 'add.js returns a - b'] }, reply: { text: '=== STOP: EVIDENCE_MISSING ===\nEnough for this test.' } },
      ],
    });
    const planner = new ScriptedModel({
      name: 'planner',
      turns: [
        {
          expect: { contains: 'adds', role: 'planner' },
          reply: { text: '=== RECOVERY PLAN ===\nCause: add.js returns a - b.\n1. Return a + b in add.js — verify: run_tests\n=== END RECOVERY PLAN ===' },
        },
      ],
    });
    const m = manager(model, { helper: planner });
    const { id } = await m.start({ workDir: work });
    expect(await settle(m, id)).toBe('waiting_answer');
    const detail = m.detail(id);
    expect(detail.phases[0]!.tests.filter((t) => t.by === 'builder' && !t.passed)).toHaveLength(3);
    expect(detail.log.some((l) => l.kind === 'gate' && /recovery planner/.test(l.text))).toBe(true);
    expect(planner.finished).toBe(true);
  });

  it('dump mode: every contract and the phase window in the first message, no contract-fetching tools', async () => {
    const model = new ScriptedModel({
      name: 'dump',
      turns: [
        {
          expect: { contains: ['A tiny arithmetic library', 'Node 20, node:test', 'add.js exporting add(a, b)'] },
          reply: { toolCalls: [{ name: 'forge_get_contract', input: { name: 'stack' } }] },
        },
        { expect: { toolResult: 'forge_get_contract', isError: true }, reply: { text: '=== STOP: ENVIRONMENT_LIMITATION ===\nChecked the tool set.' } },
      ],
    });
    const m = manager(model);
    const { id } = await m.start({ workDir: work, mode: 'dump' });
    expect(await settle(m, id)).toBe('waiting_answer');
    const detail = m.detail(id);
    expect(detail.build.mode).toBe('dump');
    // The dump's fixed context is larger than MCP mode's would be for the same project.
    expect(detail.context.conversationTokens).toBeGreaterThan(0);
    expect(detail.log.some((l) => l.kind === 'gate')).toBe(false);
  });

  it('stops a builder that keeps answering without working, and Resume gives it a fresh start', async () => {
    const idle = { reply: { text: 'I am thinking about it.' } };
    const model = new ScriptedModel({
      name: 'idle',
      turns: [
        { reply: { toolCalls: [{ name: 'forge_get_phase_window', input: { phase_number: 0 } }] } },
        idle,
        idle,
        idle,
        idle,
        // After Resume: nudged once more, then it stops properly.
        { expect: { contains: 'marker' }, reply: { text: '=== STOP: AMBIGUOUS_INTENT ===\nWhich rounding?' } },
      ],
    });
    const m = manager(model);
    const { id } = await m.start({ workDir: work });
    expect(await settle(m, id)).toBe('failed');
    expect(m.detail(id).build.error).toMatch(/without working/);
    m.resume(id);
    expect(await settle(m, id)).toBe('waiting_answer');
  });

  it('refuses a folder without Forge/Contracts, naming what to do', async () => {
    const m = manager(new ScriptedModel({ name: 'none', turns: [{ reply: { text: 'x' } }] }));
    const empty = join(dir, 'empty');
    mkdirSync(empty);
    await expect(m.start({ workDir: empty })).rejects.toThrow(/Forge\/Contracts/);
    await expect(m.start({ workDir: 'relative/path' })).rejects.toThrow(/absolute/);
  });
});
