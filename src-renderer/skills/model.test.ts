import { describe, expect, it } from 'vitest';
import type { SkillView } from '../../src-main/api/skills';
import { formatHash, parseHash } from '../app/routes';
import { fieldLine, fileGroups, fileLabel, languageFor, matchesFilter, routeSkill, skillRoute, stateBadge } from './model';

const noFiles: SkillView['files'] = { templates: [], references: [], scripts: [], assets: [], other: [] };
const problem = (severity: 'error' | 'warning') => ({ file: 'SKILL.md', field: 'name', severity, message: 'x' });

describe('skills screen model', () => {
  it('badges a skill by what the PM must do: nothing, consider warnings, or fix errors', () => {
    expect(stateBadge({ state: 'valid', problems: [] })).toBe('Valid');
    expect(stateBadge({ state: 'warnings', problems: [problem('warning'), problem('warning')] })).toBe('2 warnings');
    expect(stateBadge({ state: 'errors', problems: [problem('error'), problem('warning')] })).toBe('1 error · 1 warning');
    expect(stateBadge({ state: 'errors', problems: [problem('error'), problem('error'), problem('error')] })).toBe('3 errors');
  });

  it('keeps the open skill file in the address, slashes and all, through a reload', () => {
    const hash = formatHash({ screen: 'skills', rest: skillRoute({ name: 'view-validation', path: 'references/calibration.md' }) });
    expect(hash).toBe('#/skills/view-validation/references%2Fcalibration.md');
    expect(routeSkill(parseHash(hash).rest)).toEqual({ name: 'view-validation', path: 'references/calibration.md' });
    // SKILL.md is the default and stays out of the address.
    expect(skillRoute({ name: 'rv-analysis', path: 'SKILL.md' })).toEqual(['rv-analysis']);
    expect(routeSkill(['rv-analysis'])).toEqual({ name: 'rv-analysis', path: 'SKILL.md' });
    // A hand-typed address with raw slashes still lands on the file.
    expect(routeSkill(parseHash('#/skills/rv-analysis/scripts/zscore.mjs').rest)).toEqual({ name: 'rv-analysis', path: 'scripts/zscore.mjs' });
    expect(routeSkill([])).toBeNull();
  });

  it('shows SKILL.md first, then only the file groups the skill has, in the standard order', () => {
    const groups = fileGroups({
      files: { ...noFiles, scripts: [{ path: 'scripts/kelly.mjs', bytes: 900 }], templates: [{ path: 'templates/output.md', bytes: 10 }] },
    });
    expect(groups.map((g) => [g.label, g.files.map((f) => f.path)])).toEqual([
      ['Skill', ['SKILL.md']],
      ['Templates', ['templates/output.md']],
      ['Scripts', ['scripts/kelly.mjs']],
    ]);
    expect(fileLabel('references/deep/guide.md')).toBe('deep/guide.md');
  });

  it('highlights each kind of skill file with the right grammar', () => {
    expect(languageFor('SKILL.md')).toBe('markdown');
    expect(languageFor('scripts/payoff.mjs')).toBe('javascript');
    expect(languageFor('assets/tree.yaml')).toBe('yaml');
    expect(languageFor('LICENSE')).toBe('plaintext');
  });

  it('filters skills by name, purpose or tool, ignoring case', () => {
    const s = { name: 'rv-analysis', description: 'Judge a relative-value spread', allowedTools: ['run_script'] };
    expect(matchesFilter(s, '  RV ')).toBe(true);
    expect(matchesFilter(s, 'spread')).toBe(true);
    expect(matchesFilter(s, 'run_script')).toBe(true);
    expect(matchesFilter(s, 'kelly')).toBe(false);
    expect(matchesFilter(s, '')).toBe(true);
  });
});

describe('fieldLine', () => {
  const md = ['---', 'name: Bad_Name', 'description: x', 'metadata:', '  owner: pm', '  version: 1', '---', '', '# Body', 'name: not frontmatter'].join('\n');
  it('points a problem at the line of its field, so the PM sees where to fix it', () => {
    expect(fieldLine(md, 'name')).toBe(2);
    expect(fieldLine(md, 'metadata.version')).toBe(6);
    expect(fieldLine(md, 'metadata.missing')).toBe(4);
    expect(fieldLine(md, 'frontmatter')).toBe(1);
    expect(fieldLine(md, 'license')).toBeNull();
    expect(fieldLine(md, 'body')).toBeNull();
    expect(fieldLine('# no frontmatter\nname: x', 'name')).toBeNull();
  });
});
