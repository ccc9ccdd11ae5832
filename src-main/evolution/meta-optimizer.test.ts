import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { sha256 } from '../fs';
import { ScriptedModel } from '../llm';
import { runMetaOptimizer } from './meta-optimizer';
import { parseProposal } from './proposal-record';
import { ProposalsService } from './proposals';
import { evolutionWorkspace, GOOD_EDIT, OTHER_SKILL_MD, proposalModel, SKILL_MD, type EvolutionFixture } from './testing';

let w: EvolutionFixture;
beforeEach(async () => {
  w = evolutionWorkspace();
  await w.addEvidence(6);
});
afterEach(() => w.close());

const goodProposal = (pkIds = ['PK-001', 'PK-002', 'PK-003']) => ({
  title: 'Halve size into central-bank meetings',
  target_file: 'SKILL.md',
  ...GOOD_EDIT,
  rationale: 'Five lessons from closed trades show full-size positions held into central-bank meetings breaching their loss budget.',
  pk_ids: pkIds,
});

async function addPks(n: number, extra: Parameters<EvolutionFixture['addPk']>[0] = {}): Promise<string[]> {
  const ids: string[] = [];
  for (let i = 0; i < n; i++) ids.push(await w.addPk({ evidence: [`OUT-00${(i % 6) + 1}`], ...extra }));
  return ids;
}

const proposalsCount = () => w.fs.listDir('/memory/proposals/').total;
const skillText = () => readFileSync(join(w.skillsDir, 'expression-design', 'SKILL.md'), 'utf8');
/** A model that fails the test if the optimizer calls it: its one scripted turn expects another role. */
const untouchable = () => new ScriptedModel({ name: 'untouchable', turns: [{ expect: { role: 'must-not-be-called' }, reply: { text: 'no' } }] });

describe('MetaOptimizer evidence gate', () => {
  it('makes no proposal from 4 corroborating entries, and does not ask the model', async () => {
    await addPks(4);
    const model = untouchable();
    const report = await runMetaOptimizer({ fs: w.fs, skills: w.skills, model, now: w.now });
    expect(report.proposals).toEqual([]);
    expect(report.clusters.map((c) => [c.skill, c.claim, c.verdict, c.pkIds.length])).toEqual([
      ['expression-design', 'size_down_before_cb_meetings', 'below_bar', 4],
    ]);
    expect(report.notes.join('\n')).toContain('4 of 5 corroborations');
    expect(model.turnsUsed).toBe(0);
    expect(proposalsCount()).toBe(0);
  });

  it('makes no proposal from 5 corroborating entries when one entry contradicts the claim', async () => {
    await addPks(5);
    const against = await w.addPk({ direction: 'against', skills: ['rv-analysis'] });
    const model = untouchable();
    const report = await runMetaOptimizer({ fs: w.fs, skills: w.skills, model, now: w.now });
    const cluster = report.clusters.find((c) => c.skill === 'expression-design')!;
    expect(cluster.verdict).toBe('contradicted');
    expect(cluster.contradictions).toEqual([against]);
    expect(report.proposals).toEqual([]);
    expect(model.turnsUsed).toBe(0);
    expect(proposalsCount()).toBe(0);
  });

  it('turns 5 clean corroborating entries into one structured pending proposal', async () => {
    const ids = await addPks(5);
    const model = proposalModel(goodProposal(), ['PK-005', 'size_down_before_cb_meetings', GOOD_EDIT.old_text]);
    const report = await runMetaOptimizer({ fs: w.fs, skills: w.skills, model, now: w.now });
    expect(model.finished).toBe(true);
    expect(report.proposals).toEqual(['SEP-001']);
    const p = parseProposal(w.fs.readFile('/memory/proposals/SEP-001.md'));
    expect(p).toMatchObject({
      status: 'pending',
      skill: 'expression-design',
      targetFile: 'SKILL.md',
      claim: 'size_down_before_cb_meetings',
      direction: 'for',
      pkIds: ['PK-001', 'PK-002', 'PK-003'],
      corroborating: ids,
      oldText: GOOD_EDIT.old_text,
      newText: GOOD_EDIT.new_text,
      baseHash: sha256(SKILL_MD),
      model: 'scripted:proposal',
      problems: [],
    });
    expect(p.rationale).toContain('Five lessons');
    expect(p.createdAt).toMatch(/^2026-03-06T22:00:\d\d\.000Z$/);
    // Proposing is not applying: the skill file is exactly as it was.
    expect(skillText()).toBe(SKILL_MD);
  });

  it('does not count entries below weight 0.4, for corroboration or for contradiction', async () => {
    await addPks(4);
    const light = await w.addPk({ weight: 0.3 });
    const report = await runMetaOptimizer({ fs: w.fs, skills: w.skills, model: untouchable(), now: w.now });
    expect(report.clusters[0]!.verdict).toBe('below_bar');
    expect(report.clusters[0]!.pkIds).not.toContain(light);
    expect(proposalsCount()).toBe(0);

    // A fifth heavy entry makes the bar; a light entry against the claim does not block it.
    await w.addPk({});
    await w.addPk({ direction: 'against', weight: 0.2 });
    const model = proposalModel(goodProposal());
    const second = await runMetaOptimizer({ fs: w.fs, skills: w.skills, model, now: w.now });
    expect(second.proposals).toEqual(['SEP-001']);
    expect(second.clusters[0]!.contradictions).toEqual([]);
  });

  it('does not propose twice for a cluster while its proposal is pending', async () => {
    await addPks(5);
    await runMetaOptimizer({ fs: w.fs, skills: w.skills, model: proposalModel(goodProposal()), now: w.now });
    await w.addPk({});
    const model = untouchable();
    const again = await runMetaOptimizer({ fs: w.fs, skills: w.skills, model, now: w.now });
    expect(again.clusters[0]!.verdict).toBe('pending_exists');
    expect(again.clusters[0]!.detail).toContain('SEP-001');
    expect(model.turnsUsed).toBe(0);
    expect(proposalsCount()).toBe(1);
  });

  it('after the PM rejects a proposal, waits for new evidence before proposing the same lesson again', async () => {
    await addPks(5);
    await runMetaOptimizer({ fs: w.fs, skills: w.skills, model: proposalModel(goodProposal()), now: w.now });
    await new ProposalsService({ fs: w.fs, skills: w.skills, now: w.now }).reject('SEP-001', { reason: 'We already halve size by habit.', by: 'pm' });
    const quiet = await runMetaOptimizer({ fs: w.fs, skills: w.skills, model: untouchable(), now: w.now });
    expect(quiet.clusters[0]!.verdict).toBe('no_new_evidence');
    await w.addPk({});
    const renewed = await runMetaOptimizer({ fs: w.fs, skills: w.skills, model: proposalModel(goodProposal()), now: w.now });
    expect(renewed.proposals).toEqual(['SEP-002']);
  });

  it('proposes afresh once a pending proposal went stale (its quote no longer in the file)', async () => {
    await addPks(5);
    await runMetaOptimizer({ fs: w.fs, skills: w.skills, model: proposalModel(goodProposal()), now: w.now });
    const edited = SKILL_MD.replace('2. Check liquidity in the instrument before entering.', '2. Check liquidity first.');
    writeFileSync(join(w.skillsDir, 'expression-design', 'SKILL.md'), edited);
    const fresh = proposalModel({ ...goodProposal(), old_text: '2. Check liquidity first.' });
    const report = await runMetaOptimizer({ fs: w.fs, skills: w.skills, model: fresh, now: w.now });
    expect(report.proposals).toEqual(['SEP-002']);
    expect(parseProposal(w.fs.readFile('/memory/proposals/SEP-001.md'))).toMatchObject({ status: 'rejected', rejectedBy: 'forge' });
  });
});

describe('MetaOptimizer refuses what it cannot apply, without throwing', () => {
  const cases: [string, () => ScriptedModel, string, string][] = [
    [
      'a text answer instead of a structured proposal',
      () => new ScriptedModel({ name: 'prose', turns: [{ reply: { text: 'I would add a line about meetings.' } }] }),
      'declined',
      'made no structured proposal',
    ],
    ['arguments missing the quoted text', () => proposalModel({ ...goodProposal(), old_text: undefined }), 'malformed', 'old_text'],
    ['a quote that is not in the file', () => proposalModel({ ...goodProposal(), old_text: '2. Check the liquidity.' }), 'malformed', 'no longer in the file'],
    ['a quote that occurs more than once', () => proposalModel({ ...goodProposal(), old_text: 'stop' }), 'malformed', 'occurs 3 times in the file'],
    [
      'a target in another skill (`../rv-analysis/SKILL.md`)',
      () => proposalModel({ ...goodProposal(), target_file: '../rv-analysis/SKILL.md' }),
      'malformed',
      'outside the skill folder',
    ],
    ['an absolute target', () => proposalModel({ ...goodProposal(), target_file: '/etc/passwd' }), 'malformed', 'absolute path'],
    ['a script as target', () => proposalModel({ ...goodProposal(), target_file: 'scripts/size.mjs' }), 'malformed', 'not a text file'],
    ['citations outside the evidence', () => proposalModel(goodProposal(['PK-001', 'PK-042'])), 'malformed', 'PK-042'],
    [
      'a model that fails',
      () => new ScriptedModel({ name: 'wrong', turns: [{ expect: { role: 'agent' }, reply: { text: '' } }] }),
      'model_failed',
      'proposal model failed',
    ],
  ];
  for (const [what, model, verdict, reason] of cases) {
    it(`writes no proposal for ${what} and says why`, async () => {
      await addPks(5);
      const lines: string[] = [];
      const report = await runMetaOptimizer({ fs: w.fs, skills: w.skills, model: model(), now: w.now, log: (l) => lines.push(l) });
      expect(report.proposals).toEqual([]);
      expect(report.clusters[0]!.verdict).toBe(verdict);
      expect(report.clusters[0]!.detail).toContain(reason);
      expect(lines.some((l) => l.includes(reason))).toBe(true);
      expect(proposalsCount()).toBe(0);
      expect(skillText()).toBe(SKILL_MD);
      expect(readFileSync(join(w.skillsDir, 'rv-analysis', 'SKILL.md'), 'utf8')).toBe(OTHER_SKILL_MD);
    });
  }
});
