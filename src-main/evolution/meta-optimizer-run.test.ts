import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { metaOptimizerRunner } from './meta-optimizer-run';
import { evolutionWorkspace, GOOD_EDIT, proposalModel, type EvolutionFixture } from './testing';

/**
 * Issue #29 §2: the Proposals screen's Run now. If these fail, the PM presses Run now and either
 * cannot see why a lesson did or did not become a proposal (the evidence bar), or two runs at
 * once write the same proposal twice.
 */
let w: EvolutionFixture;
beforeEach(async () => {
  w = evolutionWorkspace();
  await w.addEvidence(6);
});
afterEach(() => w.close());

const proposal = {
  title: 'Halve size into central-bank meetings',
  target_file: 'SKILL.md',
  ...GOOD_EDIT,
  rationale: 'Five lessons agree.',
  pk_ids: ['PK-001', 'PK-002'],
};

describe('MetaOptimizer Run now', () => {
  it('reports each candidate with its evidence bar, and a second start while it runs joins it', async () => {
    for (let i = 0; i < 5; i++) await w.addPk({ weight: i < 2 ? 0.8 : 0.5 });
    await w.addPk({ claim: 'fade_cpi_surprises', skills: ['rv-analysis'] });
    await w.addPk({ claim: 'fade_cpi_surprises', skills: ['rv-analysis'], direction: 'against' });
    const run = metaOptimizerRunner({ fs: () => w.fs, skills: () => w.skills, model: () => proposalModel(proposal), now: w.now });

    const [first, second] = await Promise.all([run({ actor: 'pm' }), run({ actor: 'pm' })]);
    expect([first.joined, second.joined]).toEqual([false, true]);
    expect(second.report).toBe(first.report);
    expect(first.report.proposals).toEqual(['SEP-001']);
    expect(w.fs.listDir('/memory/proposals/').total).toBe(1);
    const bars = first.report.clusters.map((c) => [c.skill, c.direction, c.pkIds.length, c.contradictions.length, c.weight, c.verdict]);
    expect(bars).toEqual([
      ['expression-design', 'for', 5, 0, 3.1, 'proposed'],
      ['rv-analysis', 'against', 1, 1, 0.6, 'below_bar'],
      ['rv-analysis', 'for', 1, 1, 0.6, 'below_bar'],
    ]);
    expect(first.report.clusters[0]!.bar).toEqual({ minCorroborations: 5, minWeight: 0.4 });
    // Finished runs do not linger: the next Run now runs again (and finds the proposal pending).
    const third = await run({ actor: 'pm' });
    expect(third.joined).toBe(false);
    expect(third.report.clusters[0]!.verdict).toBe('pending_exists');
  });

  it('without a proposal model still shows the evidence bar, says a model is needed, and writes nothing', async () => {
    for (let i = 0; i < 5; i++) await w.addPk({});
    const run = metaOptimizerRunner({ fs: () => w.fs, skills: () => w.skills, model: () => undefined, now: w.now });
    const { report } = await run({ actor: 'pm' });
    expect(report.clusters).toMatchObject([{ pkIds: ['PK-001', 'PK-002', 'PK-003', 'PK-004', 'PK-005'], contradictions: [], weight: 3, verdict: 'no_model' }]);
    expect(report.clusters[0]!.detail).toContain('needs an Anthropic API key');
    expect(w.fs.listDir('/memory/proposals/').total).toBe(0);
  });
});
