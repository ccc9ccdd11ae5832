import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { sha256 } from '../fs';
import { listSkillFiles } from '../skills';
import { parseProposal, renderProposal, type NewProposal } from './proposal-record';
import { ProposalsService } from './proposals';
import { evolutionWorkspace, GOOD_EDIT, OTHER_SKILL_MD, SKILL_MD, TEMPLATE_MD, type EvolutionFixture } from './testing';

let w: EvolutionFixture;
let service: ProposalsService;
let pkIds: string[];

beforeEach(async () => {
  w = evolutionWorkspace();
  await w.addEvidence(3, 2);
  pkIds = [];
  for (let i = 0; i < 5; i++) pkIds.push(await w.addPk({ evidence: i % 2 ? ['OUT-001', 'CF-002'] : ['OUT-003'] }));
  service = new ProposalsService({ fs: w.fs, skills: w.skills, now: w.now });
});
afterEach(() => w.close());

const skillPath = (file = 'SKILL.md', skill = 'expression-design') => join(w.skillsDir, skill, file);
const onDisk = (file?: string, skill?: string) => readFileSync(skillPath(file, skill), 'utf8');
const EDITED = SKILL_MD.replace(GOOD_EDIT.old_text, GOOD_EDIT.new_text);

/** Stores a proposal record the way the MetaOptimizer does (the record is all the service reads). */
async function propose(over: Partial<NewProposal> = {}): Promise<string> {
  const content = renderProposal({
    title: 'Halve size into central-bank meetings',
    skill: 'expression-design',
    targetFile: 'SKILL.md',
    claim: 'size_down_before_cb_meetings',
    direction: 'for',
    pkIds: pkIds.slice(0, 3),
    corroborating: pkIds,
    rationale: 'Five lessons agree.',
    createdAt: w.now().toISOString(),
    baseHash: sha256(SKILL_MD),
    oldText: GOOD_EDIT.old_text,
    newText: GOOD_EDIT.new_text,
    model: 'scripted:proposal',
    ...over,
  });
  return (await w.fs.writeFile('/memory/proposals/new.md', content, { actor: 'scheduler' })).id!;
}

describe('opening a proposal', () => {
  it('shows the whole file before and after the edit, and the cited PK with their evidence', async () => {
    const id = await propose();
    const d = await service.getProposal(id);
    expect(d.proposal.status).toBe('pending');
    expect(d.currentText).toBe(SKILL_MD);
    expect(d.proposedText).toBe(EDITED);
    expect(d.fileChanged).toBe(false);
    expect(d.citedPk.map((p) => [p.id, p.weight, p.stance?.direction, p.evidence])).toEqual([
      ['PK-001', 0.6, 'for', ['OUT-003']],
      ['PK-002', 0.6, 'for', ['OUT-001', 'CF-002']],
      ['PK-003', 0.6, 'for', ['OUT-003']],
    ]);
    expect(d.citedPk[0]!.title).toContain('size down before central-bank meetings');
    expect(d.citedPk[0]!.summary).toContain('lost more than their stop allowed');
    expect(d.recordHash).toBe(w.fs.recordInfo(`/memory/proposals/${id}.md`)!.contentHash);
  });

  it('lists proposals newest first with the pending count the sidebar badge shows', async () => {
    await propose();
    await propose({ targetFile: 'templates/output.md', oldText: '| instrument |', newText: '| instrument | CB meeting? |', baseHash: sha256(TEMPLATE_MD) });
    const all = await service.listProposals();
    expect(all.proposals.map((p) => p.id)).toEqual(['SEP-002', 'SEP-001']);
    expect(all.pendingCount).toBe(2);
    await service.reject('SEP-001', { reason: 'Not now.', by: 'pm' });
    expect((await service.listProposals('pending')).proposals.map((p) => p.id)).toEqual(['SEP-002']);
    expect((await service.listProposals('rejected')).proposals.map((p) => p.id)).toEqual(['SEP-001']);
    expect(service.pendingCount()).toBe(1);
  });
});

describe('stale proposals', () => {
  it('rejects a proposal automatically, with the reason, when its quoted text was edited away — on open', async () => {
    const id = await propose();
    const handEdited = SKILL_MD.replace(GOOD_EDIT.old_text, '2. Check liquidity first.');
    writeFileSync(skillPath(), handEdited);
    const d = await service.getProposal(id);
    expect(d.proposal.status).toBe('rejected');
    expect(d.proposal.rejectedBy).toBe('forge');
    expect(d.proposal.rejectionReason).toBe('stale: the quoted text is no longer in the file (SKILL.md of expression-design)');
    expect(d.proposedText).toBeNull();
    expect(d.currentText).toBe(handEdited);
    expect(onDisk()).toBe(handEdited);
    expect(w.fs.readFile(`/memory/proposals/${id}.md`)).toContain('## DECISION\nRejected automatically');
  });

  it('refuses to approve a stale proposal and marks it rejected, leaving the file alone', async () => {
    const id = await propose();
    writeFileSync(skillPath(), SKILL_MD + '\n' + GOOD_EDIT.old_text + '\n');
    await expect(service.approve(id, { by: 'pm' })).rejects.toMatchObject({ code: 'conflict', message: expect.stringContaining('occurs 2 times') });
    expect(parseProposal(w.fs.readFile(`/memory/proposals/${id}.md`)).status).toBe('rejected');
    expect(onDisk()).toBe(SKILL_MD + '\n' + GOOD_EDIT.old_text + '\n');
    expect(service.skillVersions('expression-design').versions).toEqual([]);
  });

  it('rejects stale proposals when the list is read, so the badge never counts one that cannot be applied', async () => {
    await propose();
    await propose({ targetFile: 'templates/output.md', oldText: '| instrument |', newText: '| instrument | CB meeting? |' });
    writeFileSync(skillPath('templates/output.md'), '# Expression\n');
    const { proposals, pendingCount } = await service.listProposals();
    expect(pendingCount).toBe(1);
    expect(proposals.find((p) => p.id === 'SEP-002')).toMatchObject({ status: 'rejected', rejectionReason: expect.stringContaining('no longer in the file') });
  });

  it('refuses proposals that aim outside their skill or are not structured (e.g. one the analyst wrote by hand)', async () => {
    const up = await propose({ targetFile: '../rv-analysis/SKILL.md', oldText: '# RV Analysis', newText: '# Hijacked' });
    const abs = await propose({ targetFile: join(w.skillsDir, 'rv-analysis', 'SKILL.md'), oldText: '# RV Analysis', newText: '# Hijacked' });
    const hidden = await propose({ targetFile: '.versions/SKILL.md@1', oldText: 'x', newText: 'y' });
    const prose = (
      await w.fs.writeFile('/memory/proposals/new.md', '# new — Make sizing stricter\nstatus: pending\n---\n## SUMMARY\nSize down more.\n', { actor: 'agent' })
    ).id!;
    for (const id of [up, abs, hidden]) await expect(service.approve(id, { by: 'pm' })).rejects.toMatchObject({ code: 'conflict' });
    const get = async (id: string) => (await service.getProposal(id)).proposal;
    expect((await get(up)).rejectionReason).toContain('outside the skill folder');
    expect((await get(abs)).rejectionReason).toContain('absolute path');
    expect((await get(hidden)).rejectionReason).toContain('may not touch');
    expect((await get(prose)).rejectionReason).toContain('not a structured proposal');
    expect(onDisk('SKILL.md', 'rv-analysis')).toBe(OTHER_SKILL_MD);
    expect(onDisk()).toBe(SKILL_MD);
  });
});

describe('approving', () => {
  it('applies the edit as a new version: file changed, earlier text kept, loader sees it, who and when recorded', async () => {
    const id = await propose();
    const { recordHash } = await service.getProposal(id);
    const d = await service.approve(id, { by: 'Jane PM', expectHash: recordHash });
    expect(onDisk()).toBe(EDITED);
    expect(w.skills.load('expression-design').body).toContain('halve the size when a central-bank meeting');
    expect(d.proposal).toMatchObject({ status: 'approved', approvedBy: 'Jane PM', skillVersion: 2 });
    expect(d.proposal.approvedAt).toMatch(/^2026-03-06T22:00:\d\d\.000Z$/);
    // The decided record still gives back both texts exactly (the diff stays readable in history).
    expect([d.proposal.oldText, d.proposal.newText]).toEqual([GOOD_EDIT.old_text, GOOD_EDIT.new_text]);
    const versions = service.skillVersions('expression-design').versions;
    expect(versions.map((v) => [v.file, v.version, v.reason, v.proposalId, v.current])).toEqual([
      ['SKILL.md', 2, `${id} approved`, id, true],
      ['SKILL.md', 1, 'the text before the first approved edit', null, false],
    ]);
    expect(readFileSync(join(w.skillsDir, 'expression-design', versions[1]!.snapshot), 'utf8')).toBe(SKILL_MD);
    // Audited as the PM's write of the skill file.
    const audit = w.store.db.prepare("SELECT actor FROM audit_log WHERE path = '/skills/expression-design/SKILL.md'").all() as { actor: string }[];
    expect(audit.map((a) => a.actor)).toEqual(['pm']);
    // Approving again is the same answer (issue #29 §2), not a conflict, and applies nothing twice.
    expect((await service.approve(id, { by: 'pm' })).proposal).toMatchObject({ status: 'approved', skillVersion: 2 });
    await expect(service.reject(id, { reason: 'changed my mind', by: 'pm' })).rejects.toMatchObject({
      code: 'conflict',
      message: expect.stringContaining('already approved'),
    });
    expect(onDisk()).toBe(EDITED);
  });

  it('refuses an approval of a record that changed since the PM opened it', async () => {
    const id = await propose();
    const { recordHash } = await service.getProposal(id);
    const path = `/memory/proposals/${id}.md`;
    await w.fs.writeFile(path, w.fs.readFile(path).replace('halve the size', 'double the size'), { actor: 'agent' });
    await expect(service.approve(id, { by: 'pm', expectHash: recordHash })).rejects.toMatchObject({
      code: 'conflict',
      message: expect.stringContaining('changed since you opened it'),
    });
    expect(onDisk()).toBe(SKILL_MD);
  });

  it('applies a double-clicked approval once', async () => {
    const id = await propose();
    const results = await Promise.allSettled([service.approve(id, { by: 'pm' }), service.approve(id, { by: 'pm' })]);
    // Both clicks get the approved proposal back; the edit is applied once.
    expect(results.map((r) => r.status)).toEqual(['fulfilled', 'fulfilled']);
    expect(results.map((r) => (r.status === 'fulfilled' ? r.value.proposal.skillVersion : null))).toEqual([2, 2]);
    expect(onDisk()).toBe(EDITED);
    expect(service.skillVersions('expression-design').versions).toHaveLength(2);
  });

  it('keeps version files out of the skill: not a resource, not listed, not in the prompt', async () => {
    await service.approve(await propose(), { by: 'pm' });
    expect(listSkillFiles(join(w.skillsDir, 'expression-design')).map((r) => r.path)).toEqual(['templates/output.md', 'scripts/size.mjs']);
    expect(new Set(w.fs.listDir('/skills/expression-design/').entries.map((e) => e.name))).toEqual(new Set(['SKILL.md', 'scripts/', 'templates/']));
    const loaded = w.skills.loadWithFiles('expression-design');
    expect(JSON.stringify(loaded)).not.toContain('.versions');
  });
});

describe('restoring a version', () => {
  it('brings the old text back and records the restore as a new version', async () => {
    await service.approve(await propose(), { by: 'pm' });
    const r = await service.restoreSkillVersion('expression-design', 'SKILL.md', 1, { by: 'Jane PM' });
    expect(r.changed).toBe(true);
    expect(r.version).toMatchObject({ version: 3, restoredFrom: 1, by: 'Jane PM', reason: 'restored version 1', hash: sha256(SKILL_MD) });
    expect(onDisk()).toBe(SKILL_MD);
    expect(w.skills.load('expression-design').body).not.toContain('halve the size');
    const versions = service.skillVersions('expression-design').versions;
    expect(versions.map((v) => [v.version, v.current])).toEqual([
      [3, true],
      [2, false],
      [1, false],
    ]);
    // The approved text is still there to go back to.
    await service.restoreSkillVersion('expression-design', 'SKILL.md', 2, { by: 'pm' });
    expect(onDisk()).toBe(EDITED);
  });

  it("keeps a hand edit made since the last version before restoring over it, so the PM's text is never lost", async () => {
    await service.approve(await propose(), { by: 'pm' });
    writeFileSync(skillPath(), `${EDITED}\nA note the PM typed by hand.\n`);
    await service.restoreSkillVersion('expression-design', 'SKILL.md', 1, { by: 'pm' });
    const versions = service.skillVersions('expression-design').versions;
    expect(versions.map((v) => [v.version, v.reason])).toEqual([
      [4, 'restored version 1'],
      [3, "edited outside Forge's approvals after version 2"],
      [2, 'SEP-001 approved'],
      [1, 'the text before the first approved edit'],
    ]);
    expect(readFileSync(join(w.skillsDir, 'expression-design', versions[1]!.snapshot), 'utf8')).toContain('typed by hand');
  });

  it('says which versions exist when asked for one that does not', async () => {
    await service.approve(await propose(), { by: 'pm' });
    await expect(service.restoreSkillVersion('expression-design', 'SKILL.md', 7, { by: 'pm' })).rejects.toMatchObject({
      code: 'not_found',
      message: expect.stringContaining('1, 2'),
    });
    await expect(service.restoreSkillVersion('expression-design', '../rv-analysis/SKILL.md', 1, { by: 'pm' })).rejects.toMatchObject({ code: 'invalid_input' });
    expect(onDisk()).toBe(EDITED);
  });
});

describe('rejecting', () => {
  it('records the reason and who rejected, and leaves the file untouched', async () => {
    const id = await propose();
    const d = await service.reject(id, { reason: 'We already halve size by habit; the rule adds noise.', by: 'Jane PM' });
    expect(d.proposal).toMatchObject({ status: 'rejected', rejectedBy: 'Jane PM', rejectionReason: 'We already halve size by habit; the rule adds noise.' });
    expect(onDisk()).toBe(SKILL_MD);
    expect(service.skillVersions('expression-design').versions).toEqual([]);
    // A second reject is the same answer (decisions.test.ts); approving it now is a conflict.
    expect((await service.reject(id, { reason: 'again', by: 'pm' })).proposal.rejectionReason).toBe('We already halve size by habit; the rule adds noise.');
    await expect(service.approve(id, { by: 'pm' })).rejects.toMatchObject({ code: 'conflict' });
    expect(onDisk()).toBe(SKILL_MD);
  });

  it('asks for a reason', async () => {
    const id = await propose();
    await expect(service.reject(id, { reason: '   ', by: 'pm' })).rejects.toMatchObject({ code: 'invalid_input' });
    expect((await service.getProposal(id)).proposal.status).toBe('pending');
  });
});

describe('proposal record', () => {
  it('gives back the quoted and proposed text byte for byte, whatever they hold (fences, headings, blank lines)', () => {
    const text = fc.stringMatching(/^[a-z#`\n ]{0,60}$/);
    fc.assert(
      fc.property(
        text.filter((s) => s.length > 0),
        text,
        (oldText, newText) => {
          const p = parseProposal(
            renderProposal({
              title: 't',
              skill: 's',
              targetFile: 'SKILL.md',
              claim: 'c_c_c',
              direction: 'for',
              pkIds: ['PK-001'],
              corroborating: ['PK-001'],
              rationale: '## CURRENT TEXT\n```text\nnot this\n```',
              createdAt: '2026-01-01T00:00:00.000Z',
              baseHash: 'h',
              oldText,
              newText,
              model: 'm',
            }).replace('# new', '# SEP-001'),
          );
          expect([p.oldText, p.newText, p.problems]).toEqual([oldText, newText, []]);
        },
      ),
      { numRuns: 300 },
    );
  });
});
