import { cpSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AnthropicModel } from '../../llm/anthropic-model';
import { type MockAnthropicServer, startMockAnthropicServer } from '../../llm/testing';
import { ArtifactStore, ProjectStore } from '../../mcp';
import { type Db, openDatabase } from '../../store';
import { DEFAULT_BUILDER_SETTINGS } from '../build-host';
import { BuildManager } from '../runner';
import { BuildStore } from '../store';

/**
 * The sign-off gate of a spec-kit build compares the product with the spec documents the build
 * pinned when it started. The real Anthropic client talks to the mock Messages API on 127.0.0.1;
 * the scripted model reads Phase 3.1's window, writes passing code and a README that pastes the
 * spec's opening paragraph, and signs off. If this failed, a user building from their spec-kit spec
 * would see that phase accepted with the spec's own words shipped in the product, because only
 * Forge's own contracts were ever compared.
 */

const EXAMPLE = join(__dirname, '..', '..', '..', 'resources', 'examples', 'specs', 'spec-kit');
const SPEC = 'specs/002-link-shortener/spec.md';
// The spec's first paragraph (resources/examples/specs/spec-kit/specs/002-link-shortener/spec.md), pasted as is.
const PASTED =
  "A team member pastes a long URL and gets a short link on the team's own domain that redirects to it; links can be given a readable slug and an expiry date.";
const ADD = 'exports.add = (a, b) => a + b;\n';
const ADD_TEST =
  "const test = require('node:test');\nconst assert = require('node:assert');\nconst { add } = require('../add.js');\ntest('adds', () => assert.strictEqual(add(2, 3), 5));\n";

let mock: MockAnthropicServer;
let dir: string;
let db: Db;
beforeAll(async () => {
  mock = await startMockAnthropicServer({ apiKey: 'sk-ant-mock-copy' });
  dir = mkdtempSync(join(tmpdir(), 'forge-spec-copy-'));
  db = openDatabase(join(dir, 'forge.db'));
});
afterAll(async () => {
  await mock.close();
  db.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('the sign-off of a spec-kit build', () => {
  it('refuses a phase whose README pastes a paragraph of the pinned spec.md, naming the document', async () => {
    const work = join(dir, 'project');
    cpSync(EXAMPLE, work, { recursive: true });
    writeFileSync(join(work, 'package.json'), JSON.stringify({ name: 'snip', version: '1.0.0', scripts: { test: 'node --test' } }, null, 2));
    const replies = [
      { toolCalls: [{ name: 'forge_get_phase_window', input: { phase_number: '3.1' } }] },
      {
        text: '=== PLAN ===\n1. Write add.js, its test and the README\n=== END PLAN ===',
        toolCalls: [
          { name: 'write_file', input: { path: 'add.js', content: ADD } },
          { name: 'write_file', input: { path: 'test/add.test.js', content: ADD_TEST } },
          { name: 'write_file', input: { path: 'README.md', content: `# snip\n\n${PASTED}\n` } },
        ],
      },
      { text: '=== TASK DONE: 1 ===\n=== PHASE SIGN-OFF: PASS ===\nPhase: 3.1 — Setup\nDeliverables: code, tests\nTests: PASS\n=== END PHASE SIGN-OFF ===' },
    ];
    let i = 0;
    mock.setResponder(() => replies[i++] ?? { text: '=== STOP: EVIDENCE_MISSING ===\nThe script has no more turns.' });
    const model = new AnthropicModel({ apiKey: () => 'sk-ant-mock-copy', env: {}, baseURL: mock.url, defaultModel: 'claude-sonnet-4-5', maxRetries: 0 });
    const m = new BuildManager({
      store: new BuildStore(db),
      projects: async () => new ProjectStore(db),
      artifacts: new ArtifactStore(undefined),
      model: () => model,
      defaultModelId: () => model.id,
      settings: () => ({ ...DEFAULT_BUILDER_SETTINGS, useMcpContracts: true, allowedCommands: ['npm', 'node'] }),
    });
    const { id } = await m.start({ workDir: work, mini: true });
    for (let n = 0; n < 6000; n++) {
      await m.settled(id);
      if (m.detail(id).build.status !== 'running') break;
      await new Promise((r) => setTimeout(r, 10));
    }
    const d = m.detail(id);
    expect(i, `the model was asked ${i} times (build ${d.build.status}: ${d.build.error ?? ''})`).toBeGreaterThanOrEqual(3);
    const audit = d.log.filter((l) => l.kind === 'audit').map((l) => l.text);
    expect(
      audit.some((t) => t.startsWith('severe: README.md') && t.includes(`from the spec document ${SPEC}`)),
      audit.join('\n'),
    ).toBe(true);
    // The spec itself, in the project folder, is the document, not a copy of it.
    expect(audit.some((t) => t.includes(`${SPEC}: `))).toBe(false);
    expect(d.phases[0]?.status).not.toBe('signed_off');
  }, 180_000);
});
