import { cpSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeEach, describe, expect, it } from 'vitest';
import { BuildManager, BuildStore, DEFAULT_BUILDER_SETTINGS } from '../../builder';
import { ScriptedModel } from '../../llm/scripted-model';
import { ArtifactStore, ProjectStore } from '../../mcp';
import { type Db, openDatabase } from '../../store';
import type { CoreContext } from '../context';
import { tempCore } from '../testing';
import { buildHandlers } from './builds';

/**
 * `builds/start` with a feature, and its refusals, through the handler and the real builder (real
 * SQLite, the scripted model) and through the real core without a key. If these failed, a PM who
 * chose feature 001 on the Builds screen would get a build of 002 (the newest), a restarted build
 * would switch features under them, a missing key would read as a security alarm about an access
 * link, and a mistyped folder would be blamed on the key.
 */

const EXAMPLES = join(__dirname, '..', '..', '..', 'resources', 'examples', 'specs');

/** A second spec-kit feature with its own plan: the example's 001 has a spec but no tasks. */
const ACCOUNTS_TASKS = `# Tasks: Team accounts

## Phase 1: Accounts schema
- [ ] T101 Create the accounts table with owner and members
- [ ] T102 [P] Test that a member belongs to one team

## Phase 2: Invitations
- [ ] T103 Invite by email with a 7-day token
`;

let scratch: string;
let db: Db;

/** The spec-kit example copied, with tasks.md added to its older feature (so the folder has two buildable features). */
function twoFeatureSpecKit(): string {
  const dir = join(scratch, 'links');
  cpSync(join(EXAMPLES, 'spec-kit'), dir, { recursive: true });
  writeFileSync(join(dir, 'specs', '001-team-accounts', 'tasks.md'), ACCOUNTS_TASKS);
  return dir;
}

function manager(model: ScriptedModel): BuildManager {
  return new BuildManager({
    store: new BuildStore(db),
    projects: async () => new ProjectStore(db),
    artifacts: new ArtifactStore(undefined),
    model: () => model,
    defaultModelId: () => model.id,
    settings: () => ({ ...DEFAULT_BUILDER_SETTINGS, allowedCommands: ['node'] }),
  });
}

/** Waits until the build leaves `running` (a STOP, completion, failure). */
async function settle(m: BuildManager, id: string): Promise<string> {
  for (let i = 0; i < 600; i++) {
    await m.settled(id);
    const s = m.detail(id).build.status;
    if (s !== 'running') return s;
    await new Promise((r) => setTimeout(r, 20));
  }
  throw new Error('the build never settled');
}

const stop = (q: string) => ({ reply: { text: `=== STOP: AMBIGUOUS_INTENT ===\n${q}` } });
const noCtx = {} as CoreContext;

describe('builds/start with a feature (handler + builder)', () => {
  beforeEach(() => {
    scratch = mkdtempSync(join(tmpdir(), 'forge-start-'));
    db = openDatabase(join(scratch, 'forge.db'));
  });
  afterEach(() => {
    db.close();
    rmSync(scratch, { recursive: true, force: true });
  });

  it("builds the chosen feature's phases, and a build restarted later still reads that feature", { timeout: 60_000 }, async () => {
    const dir = twoFeatureSpecKit();
    const first = new ScriptedModel({
      name: 'accounts',
      turns: [
        { expect: { contains: 'Accounts schema' }, reply: { toolCalls: [{ name: 'forge_get_phase_window', input: { phase_number: '1' } }] } },
        { expect: { toolResult: 'forge_get_phase_window', isError: false, contains: 'T101 Create the accounts table' }, ...stop('Which database?') },
      ],
    });
    const m = manager(first);
    const handlers = buildHandlers(async () => m);
    const { build } = await handlers['builds/start']!({ workDir: dir, feature: '001-team-accounts' }, noCtx);
    expect(await settle(m, build.id)).toBe('waiting_answer');
    const detail = m.detail(build.id);
    // What the Builds screen shows: feature 001's two phases, the first one under way — not 002's 3.1 … 3.3.
    expect(detail.phases.map((p) => p.name)).toEqual(['Accounts schema', 'Invitations']);
    expect(detail.phases[0]!.status).toBe('in_progress');
    expect(detail.log.find((l) => l.kind === 'status')?.text).toContain('feature 001-team-accounts');
    await m.close();

    // The app restarts: a new manager over the same database answers the STOP and reads the window again.
    const second = new ScriptedModel({
      name: 'accounts-after-restart',
      turns: [
        { expect: { contains: 'SQLite' }, reply: { toolCalls: [{ name: 'forge_get_phase_window', input: { phase_number: '1' } }] } },
        { expect: { toolResult: 'forge_get_phase_window', isError: false, contains: 'T101 Create the accounts table' }, ...stop('Which port?') },
      ],
    });
    const again = manager(second);
    again.answer(build.id, 'Use SQLite.');
    expect(await settle(again, build.id)).toBe('waiting_answer');
    expect(second.finished).toBe(true);
    await again.close();
  });
});

describe('builds/start refusals through the real core, without an API key', () => {
  const app = tempCore({});
  const folder = mkdtempSync(join(tmpdir(), 'forge-start-core-'));
  afterAll(async () => {
    await app.dispose();
    rmSync(folder, { recursive: true, force: true });
  });
  const start = (input: Record<string, unknown>) => app.core.invokeUnknown('builds/start', input);
  const specKit = () => {
    const dir = join(folder, `links-${Math.random().toString(36).slice(2, 8)}`);
    cpSync(join(EXAMPLES, 'spec-kit'), dir, { recursive: true });
    return dir;
  };

  it('says the key is missing, with its own code (not the access-link one), and starts nothing', async () => {
    const r = await start({ workDir: specKit() });
    expect(r).toMatchObject({ ok: false, error: { code: 'missing_key' } });
    if (r.ok) return;
    expect(r.error.message).toContain('No Anthropic API key');
    expect(r.error.message).toContain('Settings → API keys');
    expect(r.error.message).toContain('the builder');
    expect(r.error.message).not.toMatch(/token|access link/i);
    const list = await app.core.invokeUnknown('builds/list', {});
    expect(list).toMatchObject({ ok: true, value: { builds: [] } });
  });

  it('names a folder that does not exist, even without a key', async () => {
    const missing = join(folder, 'no-such-project');
    const r = await start({ workDir: missing });
    expect(r).toMatchObject({ ok: false, error: { code: 'not_found' } });
    expect(JSON.stringify(r)).toContain(missing);
  });

  it('refuses an unknown feature as bad input on the feature field, naming the features there are', async () => {
    const r = await start({ workDir: specKit(), feature: '007-payments' });
    expect(r).toMatchObject({ ok: false, error: { code: 'invalid_input', issues: [{ path: ['feature'] }] } });
    if (r.ok) return;
    expect(r.error.message).toContain('001-team-accounts');
    expect(r.error.message).toContain('002-link-shortener');
  });

  it('refuses a feature on a format without features, and a feature that is not a folder name', async () => {
    const plain = await start({ workDir: join(EXAMPLES, 'plain'), feature: 'anything' });
    expect(plain).toMatchObject({ ok: false, error: { code: 'invalid_input', issues: [{ path: ['feature'] }] } });
    const walk = await start({ workDir: specKit(), feature: '../001-team-accounts' });
    expect(walk).toMatchObject({ ok: false, error: { code: 'invalid_input', issues: [{ path: ['feature'] }] } });
  });

  it('names an empty feature folder as having no phases, for the feature chosen', async () => {
    const dir = specKit();
    mkdirSync(join(dir, 'specs', '003-empty'));
    writeFileSync(join(dir, 'specs', '003-empty', 'spec.md'), '# Empty\n');
    const r = await start({ workDir: dir, feature: '001-team-accounts' });
    expect(r).toMatchObject({ ok: false, error: { code: 'invalid_input' } });
    expect(JSON.stringify(r)).toContain('feature 001-team-accounts');
  });
});
