import { describe, expect, it } from 'vitest';
import { bodyHeadings, parseSkillFile, skillSection, splitFrontmatter } from './frontmatter';

const FILE = '/skills/demo/SKILL.md';
const doc = (yaml: string, body = '# Demo\n\nDo the thing.\n') => `---\n${yaml}\n---\n${body}`;
const fields = (text: string, mode: 'strict' | 'lenient' = 'strict', folder = 'demo') =>
  parseSkillFile(text, FILE, folder, mode).problems.map((p) => `${p.severity}:${p.field}`);

describe('SKILL.md frontmatter', () => {
  it('reads a well-formed skill with every optional field and reports no problem', () => {
    const r = parseSkillFile(
      doc(
        [
          'name: demo',
          'description: >',
          '  Reassess a View. Use when data arrives.',
          'license: Apache-2.0',
          'compatibility: Needs the fetch tool and market data',
          'metadata:',
          '  owner: pm',
          '  version: "2"',
          'allowed-tools: read search fetch',
        ].join('\n'),
      ),
      FILE,
      'demo',
      'strict',
    );
    expect(r.problems).toEqual([]);
    expect(r.frontmatter).toEqual({
      name: 'demo',
      description: 'Reassess a View. Use when data arrives.',
      license: 'Apache-2.0',
      compatibility: 'Needs the fetch tool and market data',
      metadata: { owner: 'pm', version: '2' },
      allowedTools: ['read', 'search', 'fetch'],
    });
    expect(r.body).toBe('# Demo\n\nDo the thing.\n');
  });

  it('accepts allowed-tools as a YAML list, so skills from other authors load', () => {
    const r = parseSkillFile(doc('name: demo\ndescription: d\nallowed-tools:\n  - read\n  - fetch'), FILE, 'demo', 'strict');
    expect(r.frontmatter.allowedTools).toEqual(['read', 'fetch']);
    expect(r.problems).toEqual([]);
  });

  it('reads comma-separated allowed-tools (the seed spelling) but warns that the standard uses spaces', () => {
    const r = parseSkillFile(doc('name: demo\ndescription: d\nallowed-tools: fetch, read, search'), FILE, 'demo', 'strict');
    expect(r.frontmatter.allowedTools).toEqual(['fetch', 'read', 'search']);
    expect(r.problems.map((p) => `${p.severity}:${p.field}`)).toEqual(['warning:allowed-tools']);
  });

  it.each([
    ['Demo', 'uppercase'],
    ['-demo', 'leading hyphen'],
    ['demo-', 'trailing hyphen'],
    ['de--mo', 'double hyphen'],
    ['de_mo', 'underscore'],
    ['a'.repeat(65), 'too long'],
  ])('refuses the name %j (%s)', (name) => {
    const problems = parseSkillFile(doc(`name: "${name}"\ndescription: d`), FILE, name, 'strict').problems;
    expect(problems.filter((p) => p.field === 'name' && p.severity === 'error').length).toBeGreaterThan(0);
  });

  it('accepts a 64-character name made of letters, digits and single hyphens', () => {
    const name = `a1-${'b'.repeat(61)}`;
    expect(name.length).toBe(64);
    expect(fields(doc(`name: ${name}\ndescription: d`), 'strict', name)).toEqual([]);
  });

  it('requires the name to equal the folder, naming both in the message', () => {
    const r = parseSkillFile(doc('name: other\ndescription: d'), FILE, 'demo', 'strict');
    expect(r.problems).toHaveLength(1);
    expect(r.problems[0]!.message).toContain('"other"');
    expect(r.problems[0]!.message).toContain('"demo"');
  });

  it('refuses descriptions that are empty, longer than 1024 characters or contain angle brackets', () => {
    expect(fields(doc('name: demo\ndescription: ""'))).toEqual(['error:description']);
    expect(fields(doc(`name: demo\ndescription: ${'x'.repeat(1025)}`))).toEqual(['error:description']);
    expect(fields(doc(`name: demo\ndescription: ${'x'.repeat(1024)}`))).toEqual([]);
    expect(fields(doc('name: demo\ndescription: "use for <b>rates</b>"'))).toEqual(['error:description']);
  });

  it('limits compatibility to 500 characters', () => {
    expect(fields(doc(`name: demo\ndescription: d\ncompatibility: ${'c'.repeat(501)}`))).toEqual(['error:compatibility']);
    expect(fields(doc(`name: demo\ndescription: d\ncompatibility: ${'c'.repeat(500)}`))).toEqual([]);
  });

  it('requires metadata values to be strings in strict mode, and reads numbers with a warning in lenient mode', () => {
    const text = doc('name: demo\ndescription: d\nmetadata:\n  version: 1.5\n  owner: pm');
    expect(fields(text, 'strict')).toEqual(['error:metadata.version']);
    const lenient = parseSkillFile(text, FILE, 'demo', 'lenient');
    expect(lenient.problems.map((p) => `${p.severity}:${p.field}`)).toEqual(['warning:metadata.version']);
    expect(lenient.frontmatter.metadata).toEqual({ version: '1.5', owner: 'pm' });
  });

  it('makes unknown top-level keys errors in strict mode and warnings in lenient mode', () => {
    const text = doc('name: demo\ndescription: d\nversion: 2\ntags: [rates]');
    expect(fields(text, 'strict')).toEqual(['error:version', 'error:tags']);
    expect(fields(text, 'lenient')).toEqual(['warning:version', 'warning:tags']);
  });

  it('reports every violation at once with file and field, not only the first', () => {
    const r = parseSkillFile(
      doc('name: Bad_Name\ndescription: "<x>"\ncompatibility: 7\nmetadata: [a]\nallowed-tools: 3\nextra: 1'),
      FILE,
      'bad-name',
      'strict',
    );
    expect(r.problems.every((p) => p.file === FILE)).toBe(true);
    expect([...new Set(r.problems.map((p) => p.field))]).toEqual(['name', 'description', 'compatibility', 'metadata', 'allowed-tools', 'extra']);
  });

  it('says what is wrong when the frontmatter is missing, unclosed, not YAML or not a mapping', () => {
    expect(fields('# Just markdown\n')).toEqual(['error:frontmatter']);
    expect(fields('---\nname: demo\n# never closed\n')).toEqual(['error:frontmatter']);
    expect(fields(doc('name: [unclosed'))).toEqual(['error:frontmatter']);
    expect(fields(doc('- a\n- b'))).toEqual(['error:frontmatter']);
    expect(fields(doc('name: demo\nname: demo\ndescription: d'))).toEqual(['error:frontmatter']);
  });

  it('requires name and description', () => {
    expect(fields(doc('license: MIT'))).toEqual(['error:name', 'error:description']);
  });

  it('handles Windows line ends and a byte-order mark', () => {
    const text = '\uFEFF---\r\nname: demo\r\ndescription: d\r\n---\r\nBody\r\n';
    const r = parseSkillFile(text, FILE, 'demo', 'strict');
    expect(r.problems).toEqual([]);
    expect(r.body).toBe('Body\n');
    expect(splitFrontmatter('---\nname: x\n---')).toEqual({ yaml: 'name: x\n', body: '' });
  });
});

describe('lenient mode: published skills load when they only bend a nicety', () => {
  const lenient = (text: string, folder = 'demo') => parseSkillFile(text, FILE, folder, 'lenient');

  it('keeps a description over 1,024 characters and warns, naming file and field; strict refuses it', () => {
    const long = 'Use this when '.padEnd(1500, 'x');
    const r = lenient(doc(`name: demo\ndescription: ${long}`));
    expect(r.frontmatter.description).toBe(long);
    expect(r.problems).toEqual([{ severity: 'warning', file: FILE, field: 'description', message: 'is 1500 characters; the limit is 1024' }]);
    expect(fields(doc(`name: demo\ndescription: ${long}`), 'strict')).toEqual(['error:description']);
  });

  it('warns about an upper-case, long or mismatched name instead of refusing the skill', () => {
    expect(fields(doc('name: PDF-Tools\ndescription: d'), 'lenient', 'PDF-Tools')).toEqual(['warning:name']);
    expect(fields(doc(`name: ${'a'.repeat(70)}\ndescription: d`), 'lenient', 'a'.repeat(70))).toEqual(['warning:name']);
    expect(fields(doc('name: pdf\ndescription: d'), 'lenient', 'pdf-main')).toEqual(['warning:name']);
    expect(fields(doc('name: pdf\ndescription: d'), 'strict', 'pdf-main')).toEqual(['error:name']);
  });

  it('uses the folder name when the name is missing, and the first paragraph when the description is', () => {
    expect(fields(doc('description: Fill PDF forms.'), 'lenient')).toEqual(['warning:name']);
    expect(lenient(doc('name: [pdf]\ndescription: Fill PDF forms.')).problems.map((p) => `${p.severity}:${p.field} ${p.message}`)).toEqual([
      'warning:name must be a string; the folder name "demo" is used',
    ]);
    expect(fields(doc('name: [pdf]\ndescription: Fill PDF forms.'), 'strict')).toEqual(['error:name']);
    const r = lenient(doc('name: demo', '# Demo\n\nFill in PDF forms from\na JSON answer sheet.\n\n## Steps\n1. Go.\n'));
    expect(r.frontmatter.description).toBe('Fill in PDF forms from a JSON answer sheet.');
    expect(r.problems.map((p) => `${p.severity}:${p.field}`)).toEqual(['warning:description']);
    expect(r.problems[0]!.message).toContain('first paragraph');
    expect(fields(doc('name: demo'), 'strict')).toEqual(['error:description']);
  });

  it('still refuses a skill with neither a name nor a description, and frontmatter that does not parse', () => {
    expect(fields(doc('license: MIT'), 'lenient')).toEqual(['error:name', 'error:description']);
    expect(fields(doc('name: ""\ndescription: ""'), 'lenient')).toEqual(['error:name', 'error:description']);
    expect(fields(doc('name: demo\ndescription: [unclosed'), 'lenient')).toEqual(['error:frontmatter']);
    expect(fields('# No frontmatter at all\n', 'lenient')).toEqual(['error:frontmatter']);
  });

  it('reads angle brackets, non-string values and odd metadata with warnings, keeping the prompt safe', () => {
    const r = lenient(
      doc('name: demo\ndescription: "files < 10 MB and <b>bold</b>"\nlicense: 2\ncompatibility: ""\nmetadata:\n  tags: [a, b]\nallowed-tools: [read, 3]'),
    );
    expect(r.problems.every((p) => p.severity === 'warning')).toBe(true);
    expect(r.problems.map((p) => p.field)).toEqual(['description', 'compatibility', 'metadata.tags', 'allowed-tools[1]']);
    expect(r.frontmatter.description).toBe('files ‹ 10 MB and ‹b›bold‹/b›');
    expect(r.frontmatter.license).toBe('2');
    expect(r.frontmatter.metadata).toEqual({ tags: '["a","b"]' });
    expect(r.frontmatter.allowedTools).toEqual(['read']);
  });
});

describe('skill body sections', () => {
  const body = [
    '# Skill',
    '## Output Format (mandatory structure)',
    'Start with SUMMARY.',
    '```md',
    '## Not a heading inside a fence',
    '```',
    '### Sub-heading stays inside',
    '## Procedure',
    '1. Do it.',
    '## Eval Criteria',
    '- Must cite data',
    '- Must address counterarguments',
  ].join('\n');

  it('finds level-2 headings but not the ones inside code fences', () => {
    expect(bodyHeadings(body)).toEqual(['Output Format (mandatory structure)', 'Procedure', 'Eval Criteria']);
  });

  it('extracts a section by heading prefix, so validation gets exactly the Eval Criteria', () => {
    expect(skillSection(body, 'eval criteria')).toBe('- Must cite data\n- Must address counterarguments');
    expect(skillSection(body, 'Output Format')).toBe('Start with SUMMARY.\n```md\n## Not a heading inside a fence\n```\n### Sub-heading stays inside');
    expect(skillSection(body, 'Guidelines')).toBeNull();
  });
});
