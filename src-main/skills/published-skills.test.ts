import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { SkillLoader } from './loader';
import { listSkillFiles } from './resources';
import { scriptLanguage } from './script-kinds';

// Skills laid out as people publish them (Anthropic's public skills repository is the model): a
// license field and LICENSE.txt, guides beside SKILL.md, reference/, scripts/*.py with helpers and a
// README, assets/ and an examples/ folder, and skills that bend the standard's niceties.
const FIXTURES = fileURLToPath(new URL('./fixtures/published-skills', import.meta.url));

let root: string;
beforeAll(() => {
  // A copy, as the PM drops downloaded folders into the workspace's skills folder.
  root = fs.mkdtempSync(path.join(os.tmpdir(), 'forge-published-'));
  fs.cpSync(FIXTURES, root, { recursive: true });
});
afterAll(() => fs.rmSync(root, { recursive: true, force: true }));
afterEach(() => vi.restoreAllMocks());

const problemsOf = (l: SkillLoader, name: string) => l.find(name)!.problems.map((p) => `${p.severity}:${p.field}`);

describe('published skills in lenient mode (the app) and strict mode', () => {
  it('loads a skill whose description is over 1,024 characters with a warning in lenient mode; strict mode refuses it', () => {
    const lenient = new SkillLoader(root, { mode: 'lenient' });
    const notes = lenient.find('meeting-notes')!;
    expect(notes.valid).toBe(true);
    expect(notes.description.length).toBe(1099);
    expect(notes.problems).toEqual([
      { severity: 'warning', file: path.join(root, 'meeting-notes', 'SKILL.md'), field: 'description', message: 'is 1099 characters; the limit is 1024' },
    ]);
    expect(lenient.catalog().map((c) => c.name)).toContain('meeting-notes');
    expect(lenient.load('meeting-notes').body).toContain('List attendees');

    const strict = new SkillLoader(root, { mode: 'strict' });
    expect(problemsOf(strict, 'meeting-notes')).toEqual(['error:description']);
    expect(strict.catalog().map((c) => c.name)).not.toContain('meeting-notes');
    expect(() => strict.load('meeting-notes')).toThrowError(/description is 1099 characters; the limit is 1024/);
  });

  it('loads a skill that breaks only format niceties (name case and folder, unknown keys, a number in metadata) with one warning each', () => {
    const lenient = new SkillLoader(root, { mode: 'lenient' });
    expect(problemsOf(lenient, 'Release-Notes')).toEqual([
      'warning:name', // underscores and capitals
      'warning:name', // differs from the folder
      'warning:metadata.stars',
      'warning:version',
      'warning:tags',
    ]);
    const messages = lenient.find('Release-Notes')!.problems.map((p) => p.message);
    expect(messages[1]).toBe('"Release_Notes_Writer" must equal the folder name "Release-Notes"; the skill is listed as "Release-Notes"');
    // Found under its folder name, in either spelling, and usable by a sub-agent.
    const s = lenient.load('release-notes');
    expect(s.metadata).toEqual({ author: 'community', stars: '412' });
    expect(s.resources.map((r) => `${r.kind}:${r.path}`)).toEqual(['reference:references/style.md']);
    expect(lenient.catalog()).toContainEqual({
      name: 'Release-Notes',
      description: 'Draft release notes from a list of merged changes, grouped as Added, Changed and Fixed.',
    });

    const strict = new SkillLoader(root, { mode: 'strict' });
    expect(problemsOf(strict, 'Release-Notes').every((p) => p.startsWith('error:'))).toBe(true);
    expect(strict.find('Release-Notes')!.valid).toBe(false);
  });

  it('loads a well-formed published skill without a single problem in either mode', () => {
    for (const mode of ['strict', 'lenient'] as const) {
      const l = new SkillLoader(root, { mode });
      expect(l.find('csv-insights')!.problems, mode).toEqual([]);
      expect(l.load('csv-insights').license).toBe('Complete terms in LICENSE.txt');
    }
  });
});

describe('resource discovery', () => {
  it('sorts a published skill folder into references, scripts, assets and other files by where each file sits', () => {
    const byKind: Record<string, string[]> = {};
    for (const r of listSkillFiles(path.join(root, 'csv-insights'))) {
      byKind[r.kind] ??= [];
      byKind[r.kind].push(r.path);
    }
    expect(byKind).toEqual({
      // reference/ (Anthropic's spelling) and a guide beside SKILL.md
      reference: ['advanced.md', 'reference/formats.md'],
      // programs only: by extension, or by a #! line for the file without one
      script: ['scripts/csvtool', 'scripts/lib/stats.py', 'scripts/summarize.py', 'scripts/word_count.sh'],
      // assets/, any other folder, and the README and sample data that sit in scripts/
      asset: ['assets/report-template.md', 'examples/prices.csv', 'scripts/README.md', 'scripts/sample_rows.json'],
      other: ['LICENSE.txt'],
    });
  });

  it('tells the sub-agent only about programs: the README in scripts/ is not offered as a script', () => {
    const s = new SkillLoader(root, { mode: 'lenient' }).load('csv-insights');
    expect(s.scripts).toEqual(['csvtool', 'lib/stats.py', 'summarize.py', 'word_count.sh']);
    expect(s.scripts).not.toContain('README.md');
  });

  it('treats references/ and reference/ alike, and a .md inside assets/ as an asset, not a reference', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'forge-kinds-'));
    try {
      for (const f of [
        'SKILL.md',
        'reference/a.md',
        'references/b.md',
        'guide.md',
        'assets/c.md',
        'templates/out.md',
        'scripts/run',
        'scripts/notes',
        'scripts/tool.js',
      ]) {
        fs.mkdirSync(path.dirname(path.join(dir, f)), { recursive: true });
        fs.writeFileSync(path.join(dir, f), f === 'scripts/run' ? '#!/bin/sh\necho {}\n' : 'text\n');
      }
      expect(listSkillFiles(dir).map((r) => `${r.kind}:${r.path}`)).toEqual([
        'template:templates/out.md',
        'reference:guide.md',
        'reference:reference/a.md',
        'reference:references/b.md',
        'script:scripts/run',
        'script:scripts/tool.js',
        'asset:assets/c.md',
        'asset:scripts/notes', // no extension and no #!: data, not a program
      ]);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it('knows which interpreter runs each script: extension first, else the #! line', () => {
    const scripts = path.join(root, 'csv-insights', 'scripts');
    expect(['summarize.py', 'word_count.sh', 'csvtool', 'README.md'].map((f) => scriptLanguage(path.join(scripts, f)))).toEqual([
      'python',
      'shell',
      'python',
      null,
    ]);
  });

  it('lists skills and their files without reading any body or resource (progressive loading)', () => {
    const reads: string[] = [];
    const readFile = vi.spyOn(fs, 'readFileSync');
    const open = vi.spyOn(fs, 'openSync');
    const l = new SkillLoader(root, { mode: 'lenient' });
    l.list();
    const files = listSkillFiles(path.join(root, 'csv-insights'));
    for (const c of [...readFile.mock.calls, ...open.mock.calls]) reads.push(path.relative(root, String(c[0])));
    expect(files.length).toBe(11);
    // Only each SKILL.md (for name and description) and the first bytes of the one script without an extension.
    expect(reads.filter((r) => !r.endsWith('SKILL.md'))).toEqual(['csv-insights/scripts/csvtool']);
    expect(reads.some((r) => r.includes('reference') || r.endsWith('advanced.md') || r.endsWith('.py'))).toBe(false);
  });
});
