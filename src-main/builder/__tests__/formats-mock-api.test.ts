import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { AnthropicModel } from '../../llm/anthropic-model';
import { type MockAnthropicServer, type MockStep, type RecordedRequest, startMockAnthropicServer } from '../../llm/testing';
import { ArtifactStore, ProjectStore } from '../../mcp';
import { type Db, openDatabase } from '../../store';
import { DEFAULT_BUILDER_SETTINGS } from '../build-host';
import { BuildManager } from '../runner';
import { BuildStore } from '../store';

/**
 * The issue's "a two-phase build of each format runs against the mock Messages API with the gate
 * enforced", end to end over HTTP: the REAL Anthropic client (official SDK) talks to the mock
 * Messages API on 127.0.0.1, which answers as a model would, turn by turn, for each example spec
 * package (resources/examples/specs/<format>/ copied beside a tiny `node --test` project). In each
 * phase the first write comes before the window is read and must be refused with the sentence
 * naming the exact call; after the read the writes go through, Forge runs the real tests, and the
 * sign-off is accepted. If this failed, a user pointing Forge at their spec-kit, Kiro, OpenSpec or
 * plain-Markdown project with a real key would see a phase built without its window ever read (or
 * a build that cannot get past its first phase).
 */

const EXAMPLES = join(__dirname, '..', '..', '..', 'resources', 'examples', 'specs');

const FORMATS: { format: string; first: string; second: string }[] = [
  { format: 'spec-kit', first: '3.1', second: '3.2' },
  { format: 'kiro', first: '1', second: '2' },
  { format: 'openspec', first: '1', second: '2' },
  { format: 'plain', first: '1', second: '2' },
  { format: 'forge', first: '0', second: '1' },
];

const ADD = 'exports.add = (a, b) => a + b;\n';
const ADD_TEST =
  "const test = require('node:test');\nconst assert = require('node:assert');\nconst { add } = require('../add.js');\ntest('adds', () => assert.strictEqual(add(2, 3), 5));\n";
const SUB = 'exports.sub = (a, b) => a - b;\n';
const SUB_TEST =
  "const test = require('node:test');\nconst assert = require('node:assert');\nconst { sub } = require('../sub.js');\ntest('subtracts', () => assert.strictEqual(sub(5, 3), 2));\n";

const call = (id: string) => `forge_get_phase_window({"phase_number": "${id}"})`;
const signOff = (phase: string) => `=== PHASE SIGN-OFF: PASS ===\nPhase: ${phase}\nDeliverables: code, tests\nTests: PASS\n=== END PHASE SIGN-OFF ===`;

type Block = { type: string; text?: string; content?: unknown; is_error?: boolean; name?: string; id?: string; tool_use_id?: string };

/** What the model was last told: the text of the request's last user message, tool results included. */
function lastUser(body: Record<string, unknown>): { text: string; errors: boolean[] } {
  const messages = (body.messages ?? []) as { role: string; content: string | Block[] }[];
  const last = [...messages].reverse().find((m) => m.role === 'user');
  if (!last) return { text: '', errors: [] };
  if (typeof last.content === 'string') return { text: last.content, errors: [] };
  const parts: string[] = [];
  const errors: boolean[] = [];
  for (const b of last.content) {
    if (b.type === 'text') parts.push(b.text ?? '');
    if (b.type === 'tool_result') {
      errors.push(b.is_error === true);
      parts.push(typeof b.content === 'string' ? b.content : ((b.content as Block[] | undefined) ?? []).map((c) => c.text ?? '').join('\n'));
    }
  }
  return { text: parts.join('\n'), errors };
}

/** One scripted turn: what the request must show, and the model's answer. */
interface Turn {
  contains?: string[];
  /** Every tool result in the request is an error (true) or none is (false). */
  isError?: boolean;
  reply: MockStep;
}

let mock: MockAnthropicServer;
let dir: string;
let db: Db;
beforeAll(async () => {
  mock = await startMockAnthropicServer({ apiKey: 'sk-ant-mock-formats' });
});
afterAll(async () => {
  await mock.close();
});
beforeEach(() => {
  mock.reset();
  dir = mkdtempSync(join(tmpdir(), 'forge-formats-api-'));
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

/** Serves the turns in order; a request that does not show what its turn expects is recorded and ends the build. */
function script(turns: Turn[]): { mismatches: string[]; served: () => number } {
  const mismatches: string[] = [];
  let i = 0;
  mock.setResponder((req: RecordedRequest) => {
    const turn = turns[i++];
    if (!turn) {
      mismatches.push(`request ${i} came after the script ended`);
      return { text: '=== STOP: EVIDENCE_MISSING ===\nThe script has no more turns.' };
    }
    const seen = lastUser(req.body);
    for (const c of turn.contains ?? [])
      if (!seen.text.includes(c)) mismatches.push(`turn ${i}: expected ${JSON.stringify(c)} in ${JSON.stringify(seen.text.slice(0, 400))}`);
    if (turn.isError !== undefined && (seen.errors.length === 0 || seen.errors.some((e) => e !== turn.isError)))
      mismatches.push(`turn ${i}: expected tool results with is_error=${turn.isError}, got ${JSON.stringify(seen.errors)}: ${seen.text.slice(0, 300)}`);
    return turn.reply;
  });
  return { mismatches, served: () => i };
}

function manager(): BuildManager {
  const model = new AnthropicModel({ apiKey: () => 'sk-ant-mock-formats', env: {}, baseURL: mock.url, defaultModel: 'claude-sonnet-4-5', maxRetries: 0 });
  return new BuildManager({
    store: new BuildStore(db),
    projects: async () => new ProjectStore(db),
    artifacts: new ArtifactStore(undefined),
    model: () => model,
    defaultModelId: () => model.id,
    settings: () => ({ ...DEFAULT_BUILDER_SETTINGS, useMcpContracts: true, allowedCommands: ['npm', 'node'] }),
  });
}

async function settle(m: BuildManager, id: string): Promise<string> {
  for (let i = 0; i < 6000; i++) {
    await m.settled(id);
    const status = m.detail(id).build.status;
    if (status !== 'running') return status;
    await new Promise((r) => setTimeout(r, 10));
  }
  throw new Error('the build never settled');
}

const tool = (name: string, input: Record<string, unknown>) => ({ name, input });

describe.each(FORMATS)('the $format example built in two phases by the real Anthropic client against the mock Messages API', ({ format, first, second }) => {
  it(`refuses the first write of Phase ${first} and of Phase ${second} until that phase's window is read, then builds and signs off`, async () => {
    expect(existsSync(join(EXAMPLES, format)), `the ${format} example package`).toBe(true);
    const work = project(format);
    const refusal = (id: string) => `write_file refused: you have not read the window of Phase ${id} in this phase. Call ${call(id)}`;
    const s = script([
      { contains: [`Begin Phase ${first}`, call(first)], reply: { toolCalls: [tool('write_file', { path: 'add.js', content: ADD })] } },
      { contains: [refusal(first)], isError: true, reply: { toolCalls: [tool('forge_get_phase_window', { phase_number: first })] } },
      {
        contains: [`"phase":"${first}"`],
        isError: false,
        reply: {
          text: '=== PLAN ===\n1. Write add.js with its test\n=== END PLAN ===',
          toolCalls: [tool('write_file', { path: 'add.js', content: ADD }), tool('write_file', { path: 'test/add.test.js', content: ADD_TEST })],
        },
      },
      { isError: false, reply: { text: '=== TASK DONE: 1 ===', toolCalls: [tool('run_tests', {})] } },
      { isError: false, reply: { text: signOff(`${first} — first`) } },
      // The next phase: its own id and call in the message, and the first phase's read does not carry over.
      { contains: [`## Phase ${second}`, call(second)], reply: { toolCalls: [tool('write_file', { path: 'sub.js', content: SUB })] } },
      // This time the id goes as a JSON number (3.2, 2), as a model may write it: it names the same phase.
      { contains: [refusal(second)], isError: true, reply: { toolCalls: [tool('forge_get_phase_window', { phase_number: Number(second) })] } },
      {
        contains: [`"phase":"${second}"`],
        isError: false,
        reply: {
          text: '=== PLAN ===\n1. Write sub.js with its test\n=== END PLAN ===',
          toolCalls: [tool('write_file', { path: 'sub.js', content: SUB }), tool('write_file', { path: 'test/sub.test.js', content: SUB_TEST })],
        },
      },
      { isError: false, reply: { text: `=== TASK DONE: 1 ===\n${signOff(`${second} — second`)}` } },
    ]);
    const m = manager();
    const { id } = await m.start({ workDir: work, mini: true });
    const status = await settle(m, id);
    const d = m.detail(id);
    expect(s.mismatches, `what the model was told differs from the script (build ${status}: ${d.build.error ?? ''})`).toEqual([]);
    expect(status).toBe('completed');
    expect(s.served()).toBe(9);
    expect(d.phases.map((p) => p.status)).toEqual(['signed_off', 'signed_off']);
    expect(d.phases.map((p) => p.id ?? String(p.number))).toEqual([first, second]);
    expect(d.log.filter((l) => l.kind === 'gate' && /refused/.test(l.text))).toHaveLength(2);
    // The refused writes wrote nothing; the allowed ones wrote what the model sent.
    expect(readFileSync(join(work, 'sub.js'), 'utf8')).toBe(SUB);
    // Every request went over HTTP with the key, through the real SDK.
    const requests = mock.messageRequests();
    expect(requests.length).toBeGreaterThanOrEqual(9);
    expect(requests.map((r) => r.apiKey).filter((k) => k !== 'sk-ant-mock-formats')).toEqual([]);
  }, 180_000);
});
