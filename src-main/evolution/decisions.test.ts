import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { sha256 } from '../fs';
import { renderProposal } from './proposal-record';
import { ProposalsService } from './proposals';
import { evolutionWorkspace, GOOD_EDIT, SKILL_MD, type EvolutionFixture } from './testing';

/**
 * Issue #29 §2: deciding a proposal twice is success — the same answer, no second audit row, no
 * `conflict` — while approve-after-reject and reject-after-approve still conflict; and the reject
 * reason is in the audit row itself. If these fail, a PM who double-clicks Reject (or retries after
 * a dropped connection) sees an error for a decision that did land, and the audit trail says
 * "update" with no why.
 */
let w: EvolutionFixture;
let service: ProposalsService;

beforeEach(async () => {
  w = evolutionWorkspace();
  service = new ProposalsService({ fs: w.fs, skills: w.skills, now: w.now });
});
afterEach(() => w.close());

async function propose(): Promise<string> {
  const content = renderProposal({
    title: 'Halve size into central-bank meetings',
    skill: 'expression-design',
    targetFile: 'SKILL.md',
    claim: 'size_down_before_cb_meetings',
    direction: 'for',
    pkIds: [],
    corroborating: [],
    rationale: 'Five lessons agree.',
    createdAt: w.now().toISOString(),
    baseHash: sha256(SKILL_MD),
    oldText: GOOD_EDIT.old_text,
    newText: GOOD_EDIT.new_text,
    model: 'scripted:proposal',
  });
  return (await w.fs.writeFile('/memory/proposals/new.md', content, { actor: 'scheduler' })).id!;
}

const auditRows = (id: string) =>
  w.store.db.prepare('SELECT actor, operation FROM audit_log WHERE path = ? ORDER BY seq').all(`/memory/proposals/${id}.md`) as {
    actor: string;
    operation: string;
  }[];

describe('deciding a proposal twice', () => {
  it('a second reject answers the same proposal, writes no second audit row, and the reason is in the audit row', async () => {
    const id = await propose();
    const first = await service.reject(id, { reason: 'We already halve size by habit.', by: 'Jane PM' });
    const second = await service.reject(id, { reason: 'We already halve size by habit.', by: 'Jane PM' });
    expect(second).toEqual(first);
    expect(auditRows(id)).toEqual([
      { actor: 'scheduler', operation: 'create' },
      { actor: 'pm', operation: 'reject: We already halve size by habit.' },
    ]);
    await expect(service.approve(id, { by: 'pm' })).rejects.toMatchObject({ code: 'conflict', message: expect.stringContaining('already rejected') });
    expect(auditRows(id)).toHaveLength(2);
  });

  it('a second approve (even carrying the hash from before the first) answers the approved proposal, applying nothing twice', async () => {
    const id = await propose();
    const { recordHash } = await service.getProposal(id);
    const first = await service.approve(id, { by: 'pm', expectHash: recordHash });
    const second = await service.approve(id, { by: 'pm', expectHash: recordHash });
    expect(second).toEqual(first);
    expect(second.proposal).toMatchObject({ status: 'approved', skillVersion: 2 });
    expect(auditRows(id).map((r) => r.operation)).toEqual(['create', 'approve']);
    await expect(service.reject(id, { reason: 'too late', by: 'pm' })).rejects.toMatchObject({
      code: 'conflict',
      message: expect.stringContaining('already approved'),
    });
    expect(service.skillVersions('expression-design').versions).toHaveLength(2);
  });

  it('a stale proposal rejected automatically says why in its audit row', async () => {
    const id = await propose();
    // The quoted text is edited away on disk, so opening the proposal rejects it as stale.
    writeFileSync(join(w.skillsDir, 'expression-design', 'SKILL.md'), SKILL_MD.replace(GOOD_EDIT.old_text, 'something else'));
    expect((await service.getProposal(id)).proposal.status).toBe('rejected');
    expect(auditRows(id).at(-1)!.operation).toMatch(/^reject: stale: the quoted text is no longer in the file/);
  });
});
