import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { MAX_INLINE_REFERENCE_BYTES, SkillLoader, normaliseSkillName, type SkillsChange } from './loader';

let root: string;
const loaders: SkillLoader[] = [];

function write(rel: string, text: string) {
  const abs = path.join(root, rel);
  fs.mkdirSync(path.dirname(abs), { recursive: true });
  fs.writeFileSync(abs, text);
}
function skill(name: string, fm: string, body = '# Body\n\n## Procedure\n1. Work.\n') {
  write(`${name}/SKILL.md`, `---\n${fm}\n---\n${body}`);
}
function open(options: ConstructorParameters<typeof SkillLoader>[1] = {}) {
  const l = new SkillLoader(root, options);
  loaders.push(l);
  return l;
}

beforeEach(() => {
  root = fs.mkdtempSync(path.join(os.tmpdir(), 'forge-skills-'));
});
afterEach(() => {
  for (const l of loaders.splice(0)) l.close();
  fs.rmSync(root, { recursive: true, force: true });
});

describe('SkillLoader catalogue', () => {
  it('puts only name and description of valid skills in the catalogue, and lists broken ones with their problems', () => {
    skill('view-validation', 'name: view-validation\ndescription: Reassess a View.\nallowed-tools: read fetch');
    skill('rv-analysis', 'name: rv-analysis\ndescription: >\n  Judge a spread\n  against history.');
    skill('Broken_One', 'name: Broken_One\ndescription: "bad <desc>"');
    write('notes/README.md', 'not a skill: no SKILL.md');
    write('stray.md', 'a file at the root');
    const l = open();
    expect(l.catalog()).toEqual([
      { name: 'rv-analysis', description: 'Judge a spread against history.' },
      { name: 'view-validation', description: 'Reassess a View.' },
    ]);
    expect(l.formatCatalog()).toBe('- rv-analysis: Judge a spread against history.\n- view-validation: Reassess a View.');
    const broken = l.list().find((e) => e.name === 'Broken_One')!;
    expect(broken.valid).toBe(false);
    expect(broken.problems.map((p) => p.field)).toEqual(['name', 'description']);
    expect(broken.problems[0]!.file).toBe(path.join(root, 'Broken_One', 'SKILL.md'));
    expect(l.list().map((e) => e.name)).toEqual(['Broken_One', 'rv-analysis', 'view-validation']);
  });

  it('can shorten long descriptions in the prompt catalogue at a word boundary', () => {
    skill('long-one', 'name: long-one\ndescription: Reassess an existing View against new evidence and update confidence.');
    expect(open().formatCatalog({ maxDescription: 30 })).toBe('- long-one: Reassess an existing View…');
  });

  it('treats a missing skills folder as an empty catalogue instead of crashing the app', () => {
    const l = new SkillLoader(path.join(root, 'nope'));
    expect(l.catalog()).toEqual([]);
    expect(l.formatCatalog()).toBe('(no skills installed)');
  });

  it('reports a missing required section as an error on the body', () => {
    skill('demo', 'name: demo\ndescription: d', '# Demo\n## Procedure\nx\n');
    const l = open({ requiredSections: ['Output Format', 'Procedure', 'Eval Criteria'] });
    expect(l.list()[0]!.problems.map((p) => p.message)).toEqual(['is missing the "## Output Format" section', 'is missing the "## Eval Criteria" section']);
    expect(l.catalog()).toEqual([]);
  });
});

describe('SkillLoader progressive loading', () => {
  beforeEach(() => {
    skill(
      'expression-design',
      'name: expression-design\ndescription: Design the trade.\nallowed-tools: read run_script',
      '# Expression Design\nSize with Kelly.\n',
    );
    write('expression-design/templates/expression.md', 'TEMPLATE');
    write('expression-design/references/guide.md', 'GUIDE');
    write('expression-design/scripts/kelly.mjs', 'console.log("{}")');
    write('expression-design/assets/curve.csv', '1,2');
    write('expression-design/.hidden', 'x');
  });

  it('loads the body and lists the files without reading them', () => {
    const s = open().load('expression-design');
    expect(s.body).toBe('# Expression Design\nSize with Kelly.\n');
    expect(s.allowedTools).toEqual(['read', 'run_script']);
    expect(s.resources).toEqual([
      { path: 'templates/expression.md', kind: 'template', bytes: 8 },
      { path: 'references/guide.md', kind: 'reference', bytes: 5 },
      { path: 'scripts/kelly.mjs', kind: 'script', bytes: 17 },
      { path: 'assets/curve.csv', kind: 'asset', bytes: 3 },
    ]);
    expect(s.scripts).toEqual(['kelly.mjs']);
  });

  it('reads templates and references for a sub-agent prompt, and other files only on request', () => {
    const l = open();
    const s = l.loadWithFiles('expression-design');
    expect(s.templates).toEqual({ 'templates/expression.md': 'TEMPLATE' });
    expect(s.references).toEqual({ 'references/guide.md': 'GUIDE' });
    expect(l.readResource('expression-design', 'assets/curve.csv')).toBe('1,2');
  });

  it("puts a published skill's references in the sub-agent prompt only as text and within the prompt budget", () => {
    write('expression-design/reference/a-big.md', 'A'.repeat(120 * 1024));
    write('expression-design/reference/b-big.md', 'B'.repeat(120 * 1024));
    write('expression-design/reference/chart.png', '\x89PNG\0\0binary');
    const refs = open().loadWithFiles('expression-design').references;
    expect(refs['reference/a-big.md']).toHaveLength(120 * 1024);
    expect(refs['reference/b-big.md']).toBe(
      `(${120 * 1024} bytes; left out: the skill's references exceed the ${MAX_INLINE_REFERENCE_BYTES}-byte prompt budget)`,
    );
    expect(refs['reference/chart.png']).toMatch(/^\(not text: \d+ bytes; not included\)$/);
    expect(refs['references/guide.md']).toBe('GUIDE');
  });

  it('accepts the seed underscore spelling of a skill name', () => {
    const l = open();
    expect(normaliseSkillName(' Expression_Design ')).toBe('expression-design');
    expect(l.load('expression_design').name).toBe('expression-design');
    expect(l.readResource('expression_design', 'references/guide.md')).toBe('GUIDE');
  });

  it('names the installed skills when asked for one that does not exist', () => {
    expect(() => open().load('macro-oracle')).toThrowError(/no skill named "macro-oracle".*expression-design/);
  });

  it('refuses resource paths that leave the skill folder: .., absolute, NUL and symlinks', () => {
    write('secret.txt', 'SECRET');
    fs.symlinkSync(path.join(root, 'secret.txt'), path.join(root, 'expression-design', 'references', 'link.md'));
    const l = open();
    const codes = ['../secret.txt', 'references/../../secret.txt', '/etc/passwd', 'a\0b', 'references/link.md'].map((p) => {
      try {
        l.readResource('expression-design', p);
        return 'read';
      } catch (e) {
        return (e as { code: string }).code;
      }
    });
    expect(codes).toEqual(['invalid_input', 'invalid_input', 'invalid_input', 'invalid_input', 'invalid_input']);
    expect(() => l.readResource('expression-design', 'references/missing.md')).toThrowError(/has no file "references\/missing.md".*templates\/expression.md/);
  });

  it('refuses to hand a broken skill to a sub-agent, listing what to fix', () => {
    skill('bad', 'name: bad\ndescription: "a <tag>"\nfoo: 1');
    const l = open();
    expect(() => l.load('bad')).toThrowError(/cannot be used until its SKILL.md is fixed: description .*; foo is not a field/);
  });

  it('sees an edit to SKILL.md on the next load even without watching', () => {
    const l = open();
    skill('expression-design', 'name: expression-design\ndescription: Design the trade, v2.', 'New body\n');
    expect(l.load('expression-design').body).toBe('New body\n');
  });
});

describe('SkillLoader reload', () => {
  it('rescans on reload() and tells listeners', () => {
    skill('one', 'name: one\ndescription: first');
    const l = open();
    const seen: SkillsChange[] = [];
    l.onChange((c) => seen.push(c));
    skill('two', 'name: two\ndescription: second');
    expect(l.catalog().map((c) => c.name)).toEqual(['one']);
    l.reload();
    expect(l.catalog().map((c) => c.name)).toEqual(['one', 'two']);
    expect(seen).toHaveLength(1);
    expect(seen[0]!.entries.map((e) => e.name)).toEqual(['one', 'two']);
  });

  it('finds a skill added after the last scan when it is asked for by name', () => {
    const l = open();
    skill('late-arrival', 'name: late-arrival\ndescription: added later');
    expect(l.load('late_arrival').name).toBe('late-arrival');
    expect(l.catalog().map((c) => c.name)).toEqual(['late-arrival']);
  });

  it('picks up a changed description from the file watcher within the debounce window', async () => {
    skill('one', 'name: one\ndescription: first');
    const l = open({ watch: true, debounceMs: 50 });
    const changed = new Promise<SkillsChange>((resolve) => l.onChange(resolve));
    await new Promise((r) => setTimeout(r, 50)); // let the watcher settle
    skill('one', 'name: one\ndescription: first, edited');
    const change = await Promise.race([changed, new Promise<null>((r) => setTimeout(() => r(null), 3000))]);
    expect(change?.changed).toContain('one');
    expect(l.catalog()).toEqual([{ name: 'one', description: 'first, edited' }]);
  });
});

describe('a real skills repository layout', () => {
  // Mirrors the shape of public skill repositories: a license field, LICENSE.txt and guides beside
  // SKILL.md, Python scripts, a hidden tooling folder, a skill with a non-standard key, and a
  // folder in the seed's underscore spelling.
  beforeEach(() => {
    skill(
      'pdf',
      'name: pdf\ndescription: Use this skill for PDF files.\nlicense: Proprietary. LICENSE.txt has complete terms',
      '# PDF\nSee reference.md and forms.md.\n',
    );
    write('pdf/LICENSE.txt', 'terms');
    write('pdf/reference.md', 'advanced usage');
    write('pdf/forms.md', 'forms');
    write('pdf/scripts/fill_form.py', 'print(1)');
    write('pdf/scripts/tests/test_fill.py', 'assert True');
    write('pdf/.meta-sdk/config.json', '{}');
    skill('brand-guidelines', 'name: brand-guidelines\ndescription: Apply brand colours.\nversion: 1.0.0\nmetadata:\n  author: design');
    skill('context_retrieval', 'name: context_retrieval\ndescription: Retrieve context.\nallowed-tools: fetch, read, search');
  });

  it('strict mode: the standard-conforming skill loads, the non-standard key and underscore name are errors', () => {
    const l = open({ mode: 'strict' });
    expect(l.catalog().map((c) => c.name)).toEqual(['pdf']);
    const byName = Object.fromEntries(l.list().map((e) => [e.name, e.problems.map((p) => `${p.severity}:${p.field}`)]));
    expect(byName).toEqual({
      'brand-guidelines': ['error:version'],
      context_retrieval: ['error:name', 'warning:allowed-tools'],
      pdf: [],
    });
    const pdf = l.load('pdf');
    expect(pdf.license).toBe('Proprietary. LICENSE.txt has complete terms');
    expect(pdf.scripts).toEqual(['fill_form.py', 'tests/test_fill.py']);
    // Guides beside SKILL.md are references (the sub-agent reads them); the licence stays an other file.
    expect(pdf.resources.filter((r) => r.kind === 'reference').map((r) => r.path)).toEqual(['forms.md', 'reference.md']);
    expect(pdf.resources.filter((r) => r.kind === 'other').map((r) => r.path)).toEqual(['LICENSE.txt']);
    expect(l.readResource('pdf', 'reference.md')).toBe('advanced usage');
  });

  it('lenient mode: the non-standard key and the underscore name become warnings and every skill is usable', () => {
    const l = open({ mode: 'lenient' });
    expect(l.catalog().map((c) => c.name)).toEqual(['brand-guidelines', 'context_retrieval', 'pdf']);
    expect(l.find('brand-guidelines')!.problems.map((p) => `${p.severity}:${p.field}`)).toEqual(['warning:version']);
    expect(l.load('brand-guidelines').metadata).toEqual({ author: 'design' });
    expect(l.find('context-retrieval')!.problems.map((p) => `${p.severity}:${p.field}`)).toEqual(['warning:name', 'warning:allowed-tools']);
    expect(l.load('context-retrieval').allowedTools).toEqual(['fetch', 'read', 'search']);
  });

  it('lenient mode still refuses a skill nobody could use: no name and no description, or YAML that does not parse', () => {
    skill('empty-front', 'license: MIT');
    skill('bad-yaml', 'name: bad-yaml\ndescription: [unclosed');
    write('no-front/SKILL.md', '# Just instructions, no frontmatter\n');
    const l = open({ mode: 'lenient' });
    expect(l.catalog().map((c) => c.name)).not.toEqual(expect.arrayContaining(['empty-front']));
    const refused = Object.fromEntries(
      ['empty-front', 'bad-yaml', 'no-front'].map((n) => [
        n,
        l
          .find(n)!
          .problems.filter((p) => p.severity === 'error')
          .map((p) => p.field),
      ]),
    );
    expect(refused).toEqual({ 'empty-front': ['name', 'description'], 'bad-yaml': ['frontmatter'], 'no-front': ['frontmatter'] });
    expect(() => l.load('bad-yaml')).toThrowError(/cannot be used until its SKILL.md is fixed: frontmatter the YAML does not parse/);
  });
});
