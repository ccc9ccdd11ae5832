import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { proposalEvents, proposalProcedures } from '../../api/proposals';
import { isAppError } from '../../common/errors';
import { SettingsFile } from '../../config/settings-file';
import { EnvSecretStore } from '../../config/secrets';
import { metaOptimizerRunner, renderProposal } from '../../evolution';
import { openWorkspace, renderRecord, sha256, trackerWriter, type Workspace } from '../../fs';
import { SkillLoader } from '../../skills';
import type { CoreContext } from '../context';
import { EventBus } from '../events';
import { proposalsHandlers, watchProposals } from './proposals';

/**
 * The proposals API over a real workspace: the bundled skills copied in (as the app does), the
 * workspace database, the core's settings file and event bus. Each call goes through the
 * contract's zod schemas both ways, as the core's invoke does in test mode.
 */

type AnyHandler = (input: unknown, ctx: CoreContext) => unknown;
type Envelope = { ok: true; value: never } | { ok: false; error: { code: string; message: string } };

let dataDir: string;
let ws: Workspace;
let skills: SkillLoader;
let ctx: CoreContext;
let events: { pendingCount: number }[];
let stopWatching: () => void;
let call: <N extends keyof typeof proposalProcedures>(name: N, input: unknown) => Promise<Envelope>;

const skillFile = () => join(dataDir, 'skills', 'expression-design', 'SKILL.md');

beforeEach(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'forge-proposals-api-'));
  ws = openWorkspace({ dataDir, seedDir: null });
  await ws.ready;
  skills = new SkillLoader(join(dataDir, 'skills'), { mode: 'lenient' });
  const settings = new SettingsFile(dataDir);
  settings.update({ displayName: 'Jane PM' });
  const bus = new EventBus();
  ctx = { mode: 'test', version: 'test', dataDir, startedAt: new Date(), settings, secrets: new EnvSecretStore({}), events: bus, memory: ws };
  events = [];
  bus.subscribe((m) => {
    if (m.event === 'proposals/changed') events.push(proposalEvents['proposals/changed'].parse(m.payload));
  });
  stopWatching = watchProposals(ws.fs, (pendingCount) => bus.emit('proposals/changed', { pendingCount }));
  const map = proposalsHandlers({ fs: () => ws.fs, skills: () => skills }) as unknown as Record<string, AnyHandler>;
  call = async (name, input) => {
    const spec = proposalProcedures[name];
    const parsed = spec.input.safeParse(input);
    if (!parsed.success) return { ok: false, error: { code: 'invalid_input', message: parsed.error.issues.map((i) => i.path.join('.')).join(',') } };
    try {
      return { ok: true, value: spec.output.parse(await map[name]!(parsed.data, ctx)) as never };
    } catch (e) {
      if (isAppError(e)) return { ok: false, error: { code: e.code, message: e.message } };
      throw e;
    }
  };
});

afterEach(() => {
  stopWatching();
  skills.close();
  ws.close();
  rmSync(dataDir, { recursive: true, force: true });
});

const value = <T = Record<string, unknown>>(r: Envelope): T => {
  if (!r.ok) throw new Error(`${r.error.code}: ${r.error.message}`);
  return r.value as T;
};

/** A proposal against the bundled expression-design skill, quoting one of its real lines. */
async function proposeOnBundledSkill(): Promise<{ id: string; before: string; oldText: string; newText: string }> {
  const before = readFileSync(skillFile(), 'utf8');
  // A numbered step of the procedure (in the body, not the frontmatter), occurring once.
  const oldText = before.split('\n').find((l) => /^\d+\. /.test(l) && l.length > 30 && before.split(l).length === 2)!;
  const newText = `${oldText} Halve the size when a central-bank meeting falls inside the holding period.`;
  for (let i = 0; i < 2; i++) {
    await ws.fs.writeFile(
      '/memory/outcomes/new.md',
      renderRecord({ id: 'new', title: `Outcome ${i}`, header: { status: 'recorded' }, body: '## SUMMARY\nx\n' }),
      trackerWriter(),
    );
  }
  await ws.fs.writeFile(
    '/memory/pk/new.md',
    '# new — Size down before CB meetings\nweight: 0.6\ncategory: sizing\nskills: [expression-design]\nevidence: [OUT-001, OUT-002]\nstance: for size_down_before_cb_meetings\nstatus: active\n---\n## SUMMARY\nFull size into the FOMC broke the loss budget twice.\n',
    { actor: 'agent' },
  );
  const content = renderProposal({
    title: 'Halve size into central-bank meetings',
    skill: 'expression-design',
    targetFile: 'SKILL.md',
    claim: 'size_down_before_cb_meetings',
    direction: 'for',
    pkIds: ['PK-001'],
    corroborating: ['PK-001'],
    rationale: 'Lessons from closed trades agree.',
    createdAt: '2026-03-06T22:00:00.000Z',
    baseHash: sha256(before),
    oldText,
    newText,
    model: 'scripted:proposal',
  });
  const id = (await ws.fs.writeFile('/memory/proposals/new.md', content, { actor: 'scheduler' })).id!;
  return { id, before, oldText, newText };
}

describe('proposals API', () => {
  it('lists, opens and approves a proposal: the bundled skill changes, the version is kept, the badge follows', async () => {
    const { id, before, oldText, newText } = await proposeOnBundledSkill();
    expect(events.at(-1)).toEqual({ pendingCount: 1 });
    const list = value<{ proposals: { id: string; status: string }[]; pendingCount: number }>(await call('proposals/list', {}));
    expect(list.pendingCount).toBe(1);
    expect(list.proposals.map((p) => [p.id, p.status])).toEqual([[id, 'pending']]);

    const detail = value<{ currentText: string; proposedText: string; citedPk: { id: string; evidence: string[]; weight: number }[]; recordHash: string }>(
      await call('proposals/get', { id }),
    );
    expect(detail.currentText).toBe(before);
    expect(detail.proposedText).toBe(before.replace(oldText, newText));
    expect(detail.citedPk).toEqual([expect.objectContaining({ id: 'PK-001', weight: 0.6, evidence: ['OUT-001', 'OUT-002'] })]);

    const approved = value<{ proposal: { status: string; approvedBy: string; skillVersion: number } }>(
      await call('proposals/approve', { id, expectHash: detail.recordHash }),
    );
    expect(approved.proposal).toMatchObject({ status: 'approved', approvedBy: 'Jane PM', skillVersion: 2 });
    expect(readFileSync(skillFile(), 'utf8')).toBe(before.replace(oldText, newText));
    expect(skills.load('expression-design').body).toContain('Halve the size when a central-bank meeting');
    expect(events.at(-1)).toEqual({ pendingCount: 0 });

    const versions = value<{ versions: { version: number; current: boolean; by: string }[] }>(await call('skills/versions', { skill: 'expression-design' }));
    expect(versions.versions.map((v) => [v.version, v.current, v.by])).toEqual([
      [2, true, 'Jane PM'],
      [1, false, 'forge'],
    ]);
    const restored = value<{ changed: boolean; version: { version: number; restoredFrom: number } }>(
      await call('skills/restore', { skill: 'expression-design', file: 'SKILL.md', version: 1 }),
    );
    expect(restored).toMatchObject({ changed: true, version: { version: 3, restoredFrom: 1 } });
    expect(readFileSync(skillFile(), 'utf8')).toBe(before);
  });

  it('rejects with the reason and leaves the skill alone; a stale one is rejected when opened', async () => {
    const { id, before } = await proposeOnBundledSkill();
    const missingReason = await call('proposals/reject', { id, reason: '  ' });
    expect(missingReason).toMatchObject({ ok: false, error: { code: 'invalid_input' } });
    const rejected = value<{ proposal: { status: string; rejectionReason: string; rejectedBy: string } }>(
      await call('proposals/reject', { id, reason: 'Sizing into meetings is a desk rule already.' }),
    );
    expect(rejected.proposal).toMatchObject({ status: 'rejected', rejectedBy: 'Jane PM', rejectionReason: 'Sizing into meetings is a desk rule already.' });
    expect(readFileSync(skillFile(), 'utf8')).toBe(before);

    const second = await proposeOnBundledSkill();
    writeFileSync(skillFile(), before.replace(second.oldText, 'Rewritten by hand.'));
    const opened = value<{ proposal: { status: string; rejectionReason: string }; proposedText: null }>(await call('proposals/get', { id: second.id }));
    expect(opened.proposal.status).toBe('rejected');
    expect(opened.proposal.rejectionReason).toContain('no longer in the file');
    expect(opened.proposedText).toBeNull();
    expect(await call('proposals/approve', { id: second.id })).toMatchObject({ ok: false, error: { code: 'conflict' } });
  });

  it('answers bad input with typed errors a screen can show', async () => {
    expect(await call('proposals/get', { id: 'PK-001' })).toMatchObject({ ok: false, error: { code: 'invalid_input', message: 'id' } });
    expect(await call('proposals/get', { id: 'SEP-404' })).toMatchObject({ ok: false, error: { code: 'not_found' } });
    expect(await call('skills/versions', { skill: 'no-such-skill' })).toMatchObject({ ok: false, error: { code: 'not_found' } });
    expect(await call('skills/restore', { skill: 'expression-design', file: '/etc/passwd', version: 1 })).toMatchObject({
      ok: false,
      error: { code: 'invalid_input' },
    });
    expect(await call('proposals/list', { status: 'maybe' })).toMatchObject({ ok: false, error: { code: 'invalid_input', message: 'status' } });
  });
});

describe('proposals/run-meta-optimizer', () => {
  it('runs the MetaOptimizer now and answers each candidate with its evidence bar: n corroborating, contradictions, weight', async () => {
    // The Run now button's answer: if this fails, the PM sees no reason why a lesson did or did not become a proposal.
    for (let i = 0; i < 2; i++) {
      await ws.fs.writeFile(
        '/memory/outcomes/new.md',
        renderRecord({ id: 'new', title: `Outcome ${i}`, header: { status: 'recorded' }, body: '## SUMMARY\nx\n' }),
        trackerWriter(),
      );
    }
    const pk = (direction: string, w: number) =>
      `# new — CB meetings\nweight: ${w}\ncategory: sizing\nskills: [expression-design]\nevidence: [OUT-001]\nstance: ${direction} size_down_before_cb_meetings\nstatus: active\n---\n## SUMMARY\nx\n`;
    for (let i = 0; i < 5; i++) await ws.fs.writeFile('/memory/pk/new.md', pk('for', 0.6), { actor: 'agent' });
    await ws.fs.writeFile('/memory/pk/new.md', pk('against', 0.5), { actor: 'agent' });
    const runner = metaOptimizerRunner({ fs: () => ws.fs, skills: () => skills, model: () => undefined });
    const map = proposalsHandlers({ fs: () => ws.fs, skills: () => skills, metaOptimizer: runner }) as unknown as Record<string, AnyHandler>;
    const spec = proposalProcedures['proposals/run-meta-optimizer'];
    const out = spec.output.parse(await map['proposals/run-meta-optimizer']!(spec.input.parse({}), ctx));
    expect(out.joined).toBe(false);
    expect(out.candidates.map((c) => [c.skill, c.direction, c.corroborating.length, c.contradictions.length, c.weight, c.verdict])).toEqual([
      ['expression-design', 'against', 1, 5, 0.5, 'below_bar'],
      ['expression-design', 'for', 5, 1, 3, 'contradicted'],
    ]);
    expect(out.candidates[1]!.detail).toBe('contradicted by PK-006; no proposal while the lesson is disputed.');
    expect(out.proposals).toEqual([]);
  });
});
