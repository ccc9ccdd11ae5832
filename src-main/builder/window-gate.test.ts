import { cpSync, existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ScriptedModel } from '../llm/scripted-model';
import { ArtifactStore, ProjectStore } from '../mcp';
import { type Db, openDatabase } from '../store';
import { DEFAULT_BUILDER_SETTINGS } from './build-host';
import { BuildManager } from './runner';
import { BuildStore } from './store';

/**
 * A two-phase build of each example spec package (resources/examples/specs/<format>/, copied to a
 * temp folder with a tiny Node project beside it) against the scripted model, with the window gate
 * enforced: in each phase a write before that phase's window is read is refused with a sentence
 * naming the exact call; after the read it goes through; the next phase needs its own read. Forge
 * runs the project's real tests (`node --test`) at each sign-off.
 */

const EXAMPLES = join(__dirname, '..', '..', 'resources', 'examples', 'specs');

/** Each format's first two phases, by the plan's own ids (what the example's plan writes). */
const FORMATS: { format: string; first: string; second: string }[] = [
  { format: 'forge', first: '0', second: '1' },
  { format: 'spec-kit', first: '3.1', second: '3.2' },
  { format: 'kiro', first: '1', second: '2' },
  { format: 'openspec', first: '1', second: '2' },
  { format: 'plain', first: '1', second: '2' },
];

const ADD = 'exports.add = (a, b) => a + b;\n';
const ADD_TEST =
  "const test = require('node:test');\nconst assert = require('node:assert');\nconst { add } = require('../add.js');\ntest('adds', () => assert.strictEqual(add(2, 3), 5));\n";
const SUB = 'exports.sub = (a, b) => a - b;\n';
const SUB_TEST =
  "const test = require('node:test');\nconst assert = require('node:assert');\nconst { sub } = require('../sub.js');\ntest('subtracts', () => assert.strictEqual(sub(5, 3), 2));\n";

const call = (id: string) => `forge_get_phase_window({"phase_number": "${id}"})`;
const signOff = (phase: string) => `=== PHASE SIGN-OFF: PASS ===\nPhase: ${phase}\nDeliverables: code, tests\nTests: PASS\n=== END PHASE SIGN-OFF ===`;

let dir: string;
let db: Db;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'forge-gate-'));
  db = openDatabase(join(dir, 'forge.db'));
});
afterEach(() => {
  db.close();
  rmSync(dir, { recursive: true, force: true });
});

function project(format: string): string {
  const p = join(dir, format);
  cpSync(join(EXAMPLES, format), p, { recursive: true });
  writeFileSync(join(p, 'package.json'), JSON.stringify({ name: 'calc', version: '1.0.0', scripts: { test: 'node --test' } }, null, 2));
  return p;
}

function manager(model: ScriptedModel, mode: 'mcp' | 'dump' = 'mcp'): BuildManager {
  return new BuildManager({
    store: new BuildStore(db),
    projects: async () => new ProjectStore(db),
    artifacts: new ArtifactStore(undefined),
    model: () => model,
    defaultModelId: () => model.id,
    settings: () => ({ ...DEFAULT_BUILDER_SETTINGS, useMcpContracts: mode === 'mcp', allowedCommands: ['npm', 'node'] }),
  });
}

async function settle(m: BuildManager, id: string): Promise<string> {
  for (let i = 0; i < 600; i++) {
    await m.settled(id);
    const d = m.detail(id);
    if (process.env.DEBUG_BUILD && d.build.status !== 'running')
      console.log(
        d.build.error,
        d.log.slice(-6).map((l) => `${l.kind}: ${l.text.slice(0, 300)}`),
      );
    if (d.build.status !== 'running') return d.build.status;
    await new Promise((r) => setTimeout(r, 10));
  }
  throw new Error('the build never settled');
}

describe.each(FORMATS)('a two-phase build of the $format example, gated phase by phase', ({ format, first, second }) => {
  it(`refuses writes until Phase ${first}'s window is read, allows them after, and gates Phase ${second} again`, async () => {
    expect(existsSync(join(EXAMPLES, format)), `the ${format} example package`).toBe(true);
    const work = project(format);
    const model = new ScriptedModel({
      name: `gate-${format}`,
      turns: [
        // The first message names the plan's own first phase and the exact call (never "Phase 0" for a plan from 1).
        {
          expect: { contains: [`Begin Phase ${first}`, call(first)] },
          reply: { toolCalls: [{ name: 'write_file', input: { path: 'add.js', content: ADD } }] },
        },
        {
          // A user would otherwise see a phase built without its deliverables ever read.
          expect: {
            toolResult: 'write_file',
            isError: true,
            contains: `write_file refused: you have not read the window of Phase ${first} in this phase. Call ${call(first)}`,
          },
          // The summary and the document list do not open the gate: only the phase's window does.
          reply: {
            toolCalls: [
              { name: 'forge_get_summary', input: {} },
              { name: 'run_command', input: { command: 'node --version' } },
            ],
          },
        },
        {
          expect: { toolResult: 'run_command', isError: true, contains: call(first) },
          reply: { toolCalls: [{ name: 'forge_get_phase_window', input: { phase_number: first } }] },
        },
        {
          expect: { toolResult: 'forge_get_phase_window', isError: false, contains: `"phase":"${first}"` },
          reply: {
            text: '=== PLAN ===\n1. Write add.js with its test\n=== END PLAN ===',
            toolCalls: [
              { name: 'write_file', input: { path: 'add.js', content: ADD } },
              { name: 'write_file', input: { path: 'test/add.test.js', content: ADD_TEST } },
            ],
          },
        },
        { expect: { toolResult: 'write_file', isError: false }, reply: { text: '=== TASK DONE: 1 ===', toolCalls: [{ name: 'run_tests', input: {} }] } },
        { expect: { toolResult: 'run_tests', isError: false }, reply: { text: signOff(`${first} — first`) } },
        // Phase advance: the next phase's own id and its call; the first phase's read does not carry over.
        {
          expect: { contains: [`## Phase ${second}`, call(second)] },
          reply: { toolCalls: [{ name: 'write_file', input: { path: 'sub.js', content: SUB } }] },
        },
        {
          expect: { toolResult: 'write_file', isError: true, contains: `the window of Phase ${second} in this phase. Call ${call(second)}` },
          reply: { toolCalls: [{ name: 'forge_get_phase_window', input: { phase_number: /^\d+$/.test(second) ? Number(second) : second } }] },
        },
        {
          expect: { toolResult: 'forge_get_phase_window', isError: false },
          reply: {
            text: '=== PLAN ===\n1. Write sub.js with its test\n=== END PLAN ===',
            toolCalls: [
              { name: 'write_file', input: { path: 'sub.js', content: SUB } },
              { name: 'write_file', input: { path: 'test/sub.test.js', content: SUB_TEST } },
            ],
          },
        },
        { expect: { toolResult: 'write_file', isError: false }, reply: { text: `=== TASK DONE: 1 ===\n${signOff(`${second} — second`)}` } },
      ],
    });
    const m = manager(model);
    const { id } = await m.start({ workDir: work, mini: true });
    expect(await settle(m, id)).toBe('completed');
    const d = m.detail(id);
    expect(d.phases.map((p) => p.status)).toEqual(['signed_off', 'signed_off']);
    // Whole-number plans keep their own numbers on the Builds screen; spec-kit's 3.1, 3.2 are kept as ids (positions stored).
    expect(d.phases.map((p) => p.number)).toEqual(/^\d+$/.test(first) ? [Number(first), Number(second)] : [0, 1]);
    // The Builds screen names a phase by the plan's own id ("Phase 3.1", not its stored position).
    expect(d.phases.map((p) => p.id ?? String(p.number))).toEqual([first, second]);
    expect(d.log.filter((l) => l.kind === 'gate' && /refused/.test(l.text))).toHaveLength(3);
    expect(existsSync(join(work, 'sub.js'))).toBe(true);
  }, 180_000);
});

describe('the registry in a build describes the package', () => {
  it("lists the spec-kit package's own documents, not Forge's contract descriptions", async () => {
    const work = project('spec-kit');
    const model = new ScriptedModel({
      name: 'registry',
      turns: [
        { reply: { toolCalls: [{ name: 'forge_list_contracts', input: {} }] } },
        {
          expect: { toolResult: 'forge_list_contracts', isError: false, contains: ['specs/002-link-shortener/plan.md', '"format":"spec-kit"'] },
          reply: { toolCalls: [{ name: 'forge_get_contract', input: { name: 'specs/002-link-shortener/data-model.md' } }] },
        },
        { expect: { toolResult: 'forge_get_contract', isError: false }, reply: { text: '=== STOP: EVIDENCE_MISSING ===\nEnough.' } },
      ],
    });
    const m = manager(model);
    const { id } = await m.start({ workDir: work });
    expect(await settle(m, id)).toBe('waiting_answer');
    const listed = m.detail(id).log.find((l) => l.kind === 'tool_result' && l.tool === 'forge_list_contracts')?.text ?? '';
    expect(listed).not.toMatch(/What Forge is|headless host|SQLite schema of a workspace/);
  }, 120_000);

  it("dump mode: the package's documents and the first phase's window are in the first message, and the gate is open", async () => {
    const work = project('kiro');
    const model = new ScriptedModel({
      name: 'dump',
      turns: [
        {
          // Every document the package holds (the plan too, as the bench measures it), then the window.
          expect: {
            contains: [
              '.kiro/specs/password-reset/requirements.md',
              '.kiro/steering/tech.md',
              '.kiro/specs/password-reset/tasks.md',
              '## Phase 1 window',
              'Begin Phase 1',
            ],
          },
          reply: { toolCalls: [{ name: 'write_file', input: { path: 'add.js', content: ADD } }] },
        },
        { expect: { toolResult: 'write_file', isError: false }, reply: { text: '=== STOP: EVIDENCE_MISSING ===\nEnough.' } },
      ],
    });
    const m = manager(model, 'dump');
    const { id } = await m.start({ workDir: work });
    expect(await settle(m, id)).toBe('waiting_answer');
  }, 120_000);
});
