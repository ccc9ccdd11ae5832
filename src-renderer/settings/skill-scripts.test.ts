import { describe, expect, it } from 'vitest';
import type { SkillView } from '../../src-main/api/skills';
import { skillScriptRows } from './skill-scripts';

const skill = (name: string, scriptPermission: SkillView['scriptPermission'], scripts: string[]): SkillView => ({
  name,
  description: `${name} does things`,
  allowedTools: [],
  license: null,
  compatibility: null,
  metadata: {},
  valid: true,
  state: 'valid',
  scriptPermission,
  problems: [],
  files: { templates: [], references: [], scripts: scripts.map((path) => ({ path, bytes: 10 })), assets: [], other: [] },
});

describe('Settings → Skills rows', () => {
  it('offers the switch only for skills with Python or shell scripts, listing those scripts, and puts them first', () => {
    const rows = skillScriptRows([
      skill('expression-design', 'none', ['scripts/kelly.mjs']),
      skill('pdf', 'allowed', ['scripts/fill.py', 'scripts/helper.mjs']),
      skill('csv-insights', 'not-allowed', ['scripts/csvtool', 'scripts/summarize.py', 'scripts/word_count.sh']),
      skill('meeting-notes', 'none', []),
    ]);
    expect(rows.map((r) => [r.name, r.allowed, r.scripts])).toEqual([
      ['csv-insights', false, ['csvtool', 'summarize.py', 'word_count.sh']],
      ['pdf', true, ['fill.py']],
      ['expression-design', null, ['kelly.mjs']],
      ['meeting-notes', null, []],
    ]);
    expect(rows[0]!.note).toContain('refused until you allow them');
    expect(rows[1]!.note).toContain('no network');
    expect(rows[3]!.note).toBe('No scripts.');
  });
});
