import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { isAppError } from '../common/errors';
import { normaliseClaim, parseStance, readPk, validatePk, writePk } from './pk';
import { evolutionWorkspace, type EvolutionFixture } from './testing';

let w: EvolutionFixture;
beforeEach(async () => {
  w = evolutionWorkspace();
  await w.addEvidence(2, 1);
});
afterEach(() => w.close());

const good = {
  title: 'Halve size into central-bank meetings',
  weight: 0.5,
  category: 'sizing',
  skills: ['expression_design'],
  evidence: ['OUT-001', 'CF-001'],
  stance: { claim: 'Size down before CB meetings!', direction: 'for' as const },
  summary: 'Two trades held into the FOMC lost twice their stop.',
};

/** The field an InvalidInputError names, or the message when it is not one. */
async function fieldOf(p: Promise<unknown> | (() => unknown)): Promise<string> {
  try {
    await (typeof p === 'function' ? p() : p);
  } catch (e) {
    if (isAppError(e) && e.code === 'invalid_input') return (e.issues?.[0]?.path ?? []).join('.');
    throw e;
  }
  return 'no error';
}

describe('Process Knowledge', () => {
  it('writes an entry the MetaOptimizer can read back: weight, category, skills, evidence and a normalised stance', async () => {
    const { id, path } = await writePk(w.fs, good, { actor: 'agent' });
    expect(id).toBe('PK-001');
    expect(path).toBe('/memory/pk/PK-001.md');
    const text = w.fs.readFile(path);
    expect(text).toContain('stance: for size_down_before_cb_meetings');
    expect(text).toContain('skills: [expression-design]');
    expect(readPk(w.fs, id)).toEqual({
      id: 'PK-001',
      title: good.title,
      weight: 0.5,
      category: 'sizing',
      skills: ['expression-design'],
      evidence: ['OUT-001', 'CF-001'],
      stance: { claim: 'size_down_before_cb_meetings', direction: 'for' },
      status: 'active',
    });
    // The listing shows the weight and category, as for any PK.
    expect(w.fs.listDir('/memory/pk/').entries[0]!.meta).toBe('w:0.5 | sizing');
  });

  it('names the bad field and writes nothing when an entry is malformed (the retrospective can fix exactly that field)', async () => {
    expect(await fieldOf(writePk(w.fs, { ...good, weight: 1.5 }, { actor: 'agent' }))).toBe('weight');
    expect(await fieldOf(writePk(w.fs, { ...good, stance: { claim: 'x', direction: 'for' } }, { actor: 'agent' }))).toBe('stance.claim');
    expect(await fieldOf(writePk(w.fs, { ...good, stance: { claim: 'size down', direction: 'maybe' } }, { actor: 'agent' }))).toBe('stance.direction');
    expect(await fieldOf(writePk(w.fs, { ...good, evidence: ['V-001'] }, { actor: 'agent' }))).toBe('evidence.0');
    expect(await fieldOf(writePk(w.fs, { ...good, category: 'Sizing Rules' }, { actor: 'agent' }))).toBe('category');
    expect(await fieldOf(writePk(w.fs, { ...good, skills: [] }, { actor: 'agent' }))).toBe('skills');
    // Cited evidence that does not exist, and a skill that is not installed.
    expect(await fieldOf(writePk(w.fs, { ...good, evidence: ['OUT-009'] }, { actor: 'agent' }))).toBe('evidence');
    expect(await fieldOf(writePk(w.fs, { ...good, skills: ['no-such-skill'] }, { actor: 'agent' }))).toBe('skills');
    expect(w.fs.listDir('/memory/pk/').total).toBe(0);
  });

  it('reads a claim the same way however it is spelled, so entries about one lesson meet in one cluster', () => {
    expect(normaliseClaim('Size down before CB meetings!')).toBe('size_down_before_cb_meetings');
    expect(normaliseClaim('  size-down   before cb_meetings ')).toBe('size_down_before_cb_meetings');
    expect(validatePk({ ...good, stance: { claim: 'SIZE DOWN before CB meetings', direction: 'against' } }).stance).toEqual({
      claim: 'size_down_before_cb_meetings',
      direction: 'against',
    });
    expect(parseStance('against size_down_before_cb_meetings')).toEqual({ claim: 'size_down_before_cb_meetings', direction: 'against' });
    expect(parseStance('size down')).toBeNull();
    expect(parseStance(['for', 'x'])).toBeNull();
  });

  it('reads a hand-written entry without a stance (the seed PK) as taking no side', async () => {
    await w.fs.writeFile(
      '/memory/pk/new.md',
      '# new — Size from the stop\nweight: 0.8\ncategory: sizing\nskill: expression-design\nskills: [expression-design, portfolio-review]\nstatus: active\n---\n## SUMMARY\nx\n',
      { actor: 'pm' },
    );
    const pk = readPk(w.fs, 'PK-001')!;
    expect(pk.stance).toBeNull();
    expect(pk.skills).toEqual(['expression-design', 'portfolio-review']);
    expect(pk.weight).toBe(0.8);
  });
});
