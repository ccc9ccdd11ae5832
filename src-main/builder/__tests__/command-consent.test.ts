import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { CommandConsentRequest } from '../../api/builds';
import { ScriptedModel } from '../../llm/scripted-model';
import { ArtifactStore, ProjectStore } from '../../mcp';
import { type Db, openDatabase } from '../../store';
import { DEFAULT_BUILDER_SETTINGS } from '../build-host';
import { BuildManager } from '../runner';
import { BuildStore } from '../store';
import { runCommand } from '../workspace';
import { caught } from '../workspace/testing';

/**
 * Where commands cannot be confined (bubblewrap forced absent: `bwrapPath: null`, as on macOS or
 * Windows), a build asks the PM before each command class it has not run yet, showing the exact
 * command line and saying commands are not confined here; nothing runs until the PM allows it.
 * If these failed, a build on a Mac would run a hostile project's tests with the PM's full access,
 * silently — or would nag the PM before every single test run.
 */

let dir: string;
let work: string;
let db: Db;

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'forge-consent-'));
  work = join(dir, 'calc');
  mkdirSync(join(work, 'Forge', 'Contracts'), { recursive: true });
  writeFileSync(join(work, 'Forge', 'Contracts', 'blueprint.md'), '# Calculator\n\nA tiny library.\n');
  writeFileSync(join(work, 'Forge', 'Contracts', 'phases.md'), '# Phases\n\n## Phase 0 — Addition\n\nDeliverables: add.js.\n');
  // The test suite leaves a mark, so the test can tell whether it ran.
  writeFileSync(join(work, 'mark.js'), "require('fs').writeFileSync('ran-' + Date.now(), 'x');\n");
  writeFileSync(join(work, 'package.json'), JSON.stringify({ name: 'calc', version: '1.0.0', scripts: { test: 'node mark.js' } }));
  db = openDatabase(join(dir, 'forge.db'));
});
afterEach(() => {
  db.close();
  rmSync(dir, { recursive: true, force: true });
});

const ranCount = () => (existsSync(work) ? readdirSync(work).filter((f) => f.startsWith('ran-')).length : 0);

describe('runCommand without a sandbox', () => {
  it('refuses to run unconfined when nobody can be asked, and says why', async () => {
    const err = await caught(() => runCommand(work, 'npm test', { sandbox: { bwrapPath: null } }));
    expect(err.reason).toBe('unconfined');
    expect(err.message).toMatch(/not confined on this machine \(bubblewrap \(bwrap\) is not installed\)/);
    expect(ranCount()).toBe(0);
  });

  it('shows the PM the exact command line and its class, runs nothing on Deny, and runs it on Allow', async () => {
    const asked: { commandClass: string; commandLine: string; notice: string }[] = [];
    const deny = await caught(() =>
      runCommand(work, "npm  run   test -- 'a b'", {
        sandbox: {
          bwrapPath: null,
          askUnconfined: async (r) => {
            asked.push(r);
            return false;
          },
        },
      }),
    );
    expect(deny.reason).toBe('declined');
    expect(ranCount()).toBe(0);
    expect(asked).toEqual([
      { commandClass: 'npm', commandLine: "npm  run   test -- 'a b'", notice: expect.stringMatching(/^Commands are not confined on this machine/) },
    ]);
    const run = await runCommand(work, 'npm test', { commandClass: 'tests', sandbox: { bwrapPath: null, askUnconfined: async () => true } });
    expect(run.exitCode).toBe(0);
    expect(run.confined).toBe(false);
    expect(ranCount()).toBe(1);
  });
});

describe('a build without a sandbox', () => {
  it('waits for the PM before its first test run, remembers the Allow for the rest of the build (also after a restart), and asks again for a new class', async () => {
    const model = new ScriptedModel({
      name: 'consent',
      turns: [
        { reply: { text: 'Running the tests.', toolCalls: [{ name: 'run_tests', input: {} }] } },
        { expect: { toolResult: 'run_tests', isError: false }, reply: { text: 'Again.', toolCalls: [{ name: 'run_tests', input: {} }] } },
        { reply: { text: 'Now git.', toolCalls: [{ name: 'run_command', input: { command: 'git status' } }] } },
        { expect: { toolResult: 'run_command', isError: true }, reply: { text: '=== STOP: ENVIRONMENT_LIMITATION ===\nNo git here.' } },
      ],
    });
    const consents: CommandConsentRequest[] = [];
    const make = () =>
      new BuildManager({
        store: new BuildStore(db),
        projects: async () => new ProjectStore(db),
        artifacts: new ArtifactStore(undefined),
        model: () => model,
        defaultModelId: () => model.id,
        settings: () => ({ ...DEFAULT_BUILDER_SETTINGS, allowedCommands: ['npm', 'node', 'git'] }),
        bwrapPath: null,
        onCommandConsent: (_id, r) => consents.push(r),
      });
    const m = make();
    const { id } = await m.start({ workDir: work, mode: 'dump' });

    const first = await until(() => m.detail(id).commands.consent);
    expect(first).toMatchObject({ commandClass: 'tests', commandLine: 'npm test' });
    expect(first.notice).toMatch(/^Commands are not confined on this machine \(.+\), so this one would run with your own access/);
    expect(consents).toHaveLength(1);
    expect(ranCount(), 'nothing runs before the PM answers').toBe(0);
    expect(m.detail(id).commands.allowNetwork).toBe(false);

    m.decideCommand(id, first.requestId, true);
    // The second run_tests is the same class: it runs without asking. Then git is a new class.
    const second = await until(() => m.detail(id).commands.consent);
    expect(second).toMatchObject({ commandClass: 'git', commandLine: 'git status' });
    expect(ranCount()).toBe(2);
    expect(consents).toHaveLength(2);
    expect(new BuildStore(db).commandSettings(id).approvedClasses, 'the Allow is kept in the build store').toEqual(['tests']);

    m.decideCommand(id, second.requestId, false);
    await until(() => (m.detail(id).build.status === 'waiting_answer' ? true : null));
    expect(m.detail(id).log.some((l) => l.text.includes('Denied "git status"'))).toBe(true);
    expect(new BuildStore(db).commandSettings(id).approvedClasses, 'a Deny is not remembered').toEqual(['tests']);
    await expect(async () => m.decideCommand(id, second.requestId, true)).rejects.toMatchObject({ code: 'conflict' });

    // The network switch is stored per build and survives the runner saving its own state.
    m.setNetwork(id, true);
    new BuildStore(db).saveState(id, new BuildStore(db).get(id).state);
    expect(make().detail(id).commands).toEqual({ allowNetwork: true, approvedClasses: ['tests'], consent: null });
    await m.close();
  }, 120_000);
});

async function until<T>(f: () => T | null | undefined): Promise<T> {
  for (let i = 0; i < 1200; i++) {
    const v = f();
    if (v) return v;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error('timed out waiting');
}
