import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ForgeFS, renderRecord, trackerWriter } from '../fs';
import { ScriptedModel, type ScenarioInput } from '../llm';
import { SkillLoader } from '../skills';
import { Store } from '../store';
import { writePk, type StanceDirection } from './pk';

/**
 * A real workspace for evolution tests: a SQLite file, ForgeFS, and a skills folder with two small
 * skills that one SkillLoader reads — the same parts the app wires, on a temp folder.
 */

export const SKILL_MD = [
  '---',
  'name: expression-design',
  'description: Turn a View into a trade with sizing, entry and exit rules. Use when a View is ready to express.',
  '---',
  '',
  '# Expression Design',
  '',
  '## Procedure',
  '',
  '1. Size from the distance to the stop, never from conviction.',
  '2. Check liquidity in the instrument before entering.',
  '3. Write the exit rules: target, stop and a time limit.',
  '',
  '## Output Format',
  '',
  'A table of instrument, notional, stop and target.',
  '',
].join('\n');

export const TEMPLATE_MD = '# Expression\n\n| instrument | notional | stop | target |\n|---|---|---|---|\n';

export const OTHER_SKILL_MD = [
  '---',
  'name: rv-analysis',
  'description: Relative value analysis of curves and spreads. Use for curve or cross-market ideas.',
  '---',
  '',
  '# RV Analysis',
  '',
  '## Procedure',
  '',
  '1. Compare the spread with its history.',
  '',
].join('\n');

export interface EvolutionFixture {
  dir: string;
  skillsDir: string;
  store: Store;
  fs: ForgeFS;
  skills: SkillLoader;
  /** Advances with every call, so records get distinct times. */
  now: () => Date;
  /** Writes OUT-001..OUT-n (and CF-001..CF-m) so PK entries have evidence to cite. */
  addEvidence(outcomes: number, counterfactuals?: number): Promise<void>;
  /** Writes one PK entry through writePk; returns its id. */
  addPk(p: { claim?: string; direction?: StanceDirection; weight?: number; skills?: string[]; evidence?: string[]; title?: string }): Promise<string>;
  close(): void;
}

export function evolutionWorkspace(): EvolutionFixture {
  const dir = mkdtempSync(join(tmpdir(), 'forge-evolution-'));
  const skillsDir = join(dir, 'skills');
  const ed = join(skillsDir, 'expression-design');
  mkdirSync(join(ed, 'templates'), { recursive: true });
  mkdirSync(join(ed, 'scripts'), { recursive: true });
  writeFileSync(join(ed, 'SKILL.md'), SKILL_MD);
  writeFileSync(join(ed, 'templates', 'output.md'), TEMPLATE_MD);
  writeFileSync(join(ed, 'scripts', 'size.mjs'), 'console.log(JSON.stringify({ size: 1 }));\n');
  mkdirSync(join(skillsDir, 'rv-analysis'), { recursive: true });
  writeFileSync(join(skillsDir, 'rv-analysis', 'SKILL.md'), OTHER_SKILL_MD);

  let tick = 0;
  const now = () => new Date(Date.UTC(2026, 2, 6, 22, 0, 0) + tick++ * 1000);
  const store = Store.open(join(dir, 'forge.db'));
  const fs = new ForgeFS({ store, skillsDir, now: () => now().toISOString() });
  const skills = new SkillLoader(skillsDir, { mode: 'lenient' });
  let pkCount = 0;
  return {
    dir,
    skillsDir,
    store,
    fs,
    skills,
    now,
    async addEvidence(outcomes, counterfactuals = 0) {
      for (let i = 0; i < outcomes; i++) {
        const content = renderRecord({
          id: 'new',
          title: `Outcome ${i + 1}`,
          header: { status: 'recorded', pnl: 10 * (i + 1) },
          body: '## SUMMARY\nClosed.\n',
        });
        await fs.writeFile('/memory/outcomes/new.md', content, trackerWriter());
      }
      for (let i = 0; i < counterfactuals; i++) {
        const content = renderRecord({ id: 'new', title: `Declined ${i + 1}`, header: { status: 'completed' }, body: '## SUMMARY\nDeclined.\n' });
        await fs.writeFile('/memory/counterfactuals/new.md', content, trackerWriter());
      }
    },
    async addPk(p) {
      pkCount++;
      const { id } = await writePk(
        fs,
        {
          title: p.title ?? `Lesson ${pkCount}: size down before central-bank meetings`,
          weight: p.weight ?? 0.6,
          category: 'sizing',
          skills: p.skills ?? ['expression-design'],
          evidence: p.evidence ?? ['OUT-001'],
          stance: { claim: p.claim ?? 'size_down_before_cb_meetings', direction: p.direction ?? 'for' },
          summary: `Trades held full size into a central-bank meeting lost more than their stop allowed (lesson ${pkCount}).`,
        },
        { actor: 'agent' },
      );
      return id;
    },
    close() {
      skills.close();
      store.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** The quote and replacement a good proposal makes to SKILL_MD. */
export const GOOD_EDIT = {
  old_text: '2. Check liquidity in the instrument before entering.',
  new_text: '2. Check liquidity in the instrument before entering, and halve the size when a central-bank meeting falls inside the holding period.',
};

/** A scripted proposal model that answers one call with `propose_skill_edit` and these arguments. */
export function proposalModel(input: Record<string, unknown>, expectContains?: string | string[]): ScriptedModel {
  const scenario: ScenarioInput = {
    name: 'proposal',
    turns: [
      {
        expect: { role: 'proposal', ...(expectContains ? { contains: expectContains } : {}) },
        reply: { text: '', toolCalls: [{ name: 'propose_skill_edit', input }] },
      },
    ],
  };
  return new ScriptedModel(scenario);
}
