import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EnvSecretStore } from '../../config/secrets';
import { createCore, type Core } from '../core';

const bundled = [
  'attention-allocation',
  'context-retrieval',
  'event-analysis',
  'expression-design',
  'portfolio-review',
  'portfolio-synthesis',
  'retrospective',
  'rv-analysis',
  'scenario-analysis',
  'view-validation',
];

const PUBLISHED = fileURLToPath(new URL('../../skills/fixtures/published-skills/csv-insights', import.meta.url));

let dataDir: string;
let outside: string;
let core: Core;

beforeAll(() => {
  dataDir = mkdtempSync(join(tmpdir(), 'forge-skills-api-'));
  outside = mkdtempSync(join(tmpdir(), 'forge-skills-outside-'));
  writeFileSync(join(outside, 'secret.txt'), 'not a skill file');
  // A skill a PM broke by hand, in the workspace copy before the core starts (the bundled ten are copied beside it).
  const broken = join(dataDir, 'skills', 'broken-skill');
  mkdirSync(join(broken, 'references'), { recursive: true });
  writeFileSync(
    join(broken, 'SKILL.md'),
    ['---', 'name: Broken_Skill', 'description: Checks <things>', 'owner: someone', '---', '', '# Broken', ''].join('\n'),
  );
  writeFileSync(join(broken, 'references', 'notes.md'), '# Notes\nStill readable.\n');
  symlinkSync(join(outside, 'secret.txt'), join(broken, 'references', 'escape.md'));
  // A skill nobody could use even in lenient mode: its frontmatter names nothing and describes nothing.
  const unusable = join(dataDir, 'skills', 'unusable-skill');
  mkdirSync(unusable, { recursive: true });
  writeFileSync(join(unusable, 'SKILL.md'), ['---', 'license: MIT', '---', '', '# Unusable', ''].join('\n'));
  // A published skill dropped in as downloaded: Python and shell scripts, which need the PM's permission.
  cpSync(PUBLISHED, join(dataDir, 'skills', 'csv-insights'), { recursive: true });
  core = createCore({ dataDir, mode: 'test', secrets: new EnvSecretStore({}) });
});

afterAll(async () => {
  await core.close();
  rmSync(dataDir, { recursive: true, force: true });
  rmSync(outside, { recursive: true, force: true });
});

async function value<T>(p: Promise<{ ok: true; value: T } | { ok: false; error: { code: string; message: string } }>): Promise<T> {
  const r = await p;
  if (!r.ok) throw new Error(`${r.error.code}: ${r.error.message}`);
  return r.value;
}

describe('skills API', () => {
  it('lists the ten bundled analyst skills as valid, with descriptions, tools and grouped files', async () => {
    const { skills, mode } = await value(core.invoke('skills/list', {}));
    expect(mode).toBe('lenient');
    const byName = new Map(skills.map((s) => [s.name, s]));
    for (const name of bundled) {
      const s = byName.get(name);
      expect(s, name).toBeDefined();
      expect(s!.valid, `${name}: ${JSON.stringify(s!.problems)}`).toBe(true);
      expect(s!.state, name).toBe('valid');
      expect(s!.description.length, name).toBeGreaterThan(20);
    }
    const vv = byName.get('view-validation')!;
    expect(vv.files.templates.map((f) => f.path).some((p) => p.startsWith('templates/'))).toBe(true);
    expect(vv.files.references.map((f) => f.path).some((p) => p.startsWith('references/'))).toBe(true);
    const ed = byName.get('expression-design')!;
    expect(ed.files.scripts.map((f) => f.path)).toEqual(expect.arrayContaining([expect.stringMatching(/^scripts\/.+\.mjs$/)]));
    expect(ed.files.scripts.every((f) => f.bytes > 0)).toBe(true);
    // No SKILL.md in the groups: the screen shows it first on its own.
    expect(skills.flatMap((s) => Object.values(s.files).flat()).some((f) => f.path === 'SKILL.md')).toBe(false);
  });

  it('loads a skill that only bends the standard (lenient mode), listing each warning by file and field', async () => {
    const { skills } = await value(core.invoke('skills/list', {}));
    const bent = skills.find((s) => s.name === 'broken-skill')!;
    expect(bent).toBeDefined();
    expect(bent.valid).toBe(true);
    expect(bent.state).toBe('warnings');
    expect(bent.problems.map((p) => [p.file, p.field, p.severity])).toEqual([
      ['SKILL.md', 'name', 'warning'], // capitals and an underscore
      ['SKILL.md', 'name', 'warning'], // differs from the folder
      ['SKILL.md', 'description', 'warning'], // angle brackets
      ['SKILL.md', 'owner', 'warning'], // not a field of the standard
    ]);
    expect(bent.description).toBe('Checks ‹things›');
    // Never an absolute path from the PM's disk in what the screen shows.
    expect(bent.problems.every((p) => !p.file.startsWith('/'))).toBe(true);
    expect(bent.files.references.map((f) => f.path)).toEqual(['references/notes.md']);
  });

  it('still shows a skill nobody could use as errors, naming file and field', async () => {
    const { skills } = await value(core.invoke('skills/list', {}));
    const unusable = skills.find((s) => s.name === 'unusable-skill')!;
    expect(unusable.state).toBe('errors');
    expect(unusable.problems.map((p) => [p.file, p.field, p.severity])).toEqual([
      ['SKILL.md', 'name', 'error'],
      ['SKILL.md', 'description', 'error'],
    ]);
  });

  it('opens SKILL.md and a reference of a skill as text', async () => {
    const md = await value(core.invoke('skills/read', { name: 'view-validation', path: 'SKILL.md' }));
    expect(md.text.startsWith('---\nname: view-validation\n')).toBe(true);
    expect(md.text).toContain('## Eval Criteria');
    expect(md.bytes).toBe(Buffer.byteLength(md.text));
    expect(md.binary).toBe(false);
    // The seed's underscore spelling finds the same skill.
    const same = await value(core.invoke('skills/read', { name: 'view_validation', path: './SKILL.md' }));
    expect(same).toMatchObject({ name: 'view-validation', path: 'SKILL.md', text: md.text });
    // An invalid skill's files are still readable, so the PM can see what to fix.
    const notes = await value(core.invoke('skills/read', { name: 'broken-skill', path: 'references/notes.md' }));
    expect(notes.text).toBe('# Notes\nStill readable.\n');
  });

  it('refuses paths that leave the skill folder, and says what is missing', async () => {
    for (const path of ['../context-retrieval/SKILL.md', '/etc/passwd', 'references/../../view-validation/SKILL.md', 'references/escape.md']) {
      const r = await core.invoke('skills/read', { name: 'broken-skill', path });
      expect(r.ok, path).toBe(false);
      if (!r.ok) expect(r.error.code, path).toBe('invalid_input');
    }
    const badName = await core.invoke('skills/read', { name: '../skills', path: 'SKILL.md' });
    expect(badName.ok ? 'ok' : badName.error.code).toBe('invalid_input');
    const noSkill = await core.invoke('skills/read', { name: 'no-such-skill', path: 'SKILL.md' });
    expect(noSkill.ok ? 'ok' : noSkill.error.code).toBe('not_found');
    const noFile = await core.invoke('skills/read', { name: 'view-validation', path: 'references/nope.md' });
    expect(noFile.ok ? 'ok' : noFile.error.code).toBe('not_found');
    // The message lists the files the skill does have, so the PM can pick the right one.
    if (!noFile.ok) expect(noFile.error.message).toMatch(/references\/\S+\.md/);
  });

  it('refuses a file over the size cap instead of shipping it to the screen', async () => {
    const big = join(dataDir, 'skills', 'broken-skill', 'references', 'huge.md');
    writeFileSync(big, 'x'.repeat(1024 * 1024 + 1));
    const r = await core.invoke('skills/read', { name: 'broken-skill', path: 'references/huge.md' });
    expect(r.ok ? 'ok' : r.error.code).toBe('too_large');
    rmSync(big);
  });

  it("groups a published skill's files and says its Python and shell scripts are not allowed until the PM allows them", async () => {
    const { skills } = await value(core.invoke('skills/list', {}));
    const csv = skills.find((s) => s.name === 'csv-insights')!;
    expect(csv.state).toBe('valid');
    expect(csv.scriptPermission).toBe('not-allowed');
    expect(csv.files.scripts.map((f) => f.path)).toEqual(['scripts/csvtool', 'scripts/lib/stats.py', 'scripts/summarize.py', 'scripts/word_count.sh']);
    expect(csv.files.references.map((f) => f.path)).toEqual(['advanced.md', 'reference/formats.md']);
    expect(csv.files.assets.map((f) => f.path)).toContain('scripts/README.md');
    // Forge's own skills have .mjs scripts only: nothing to allow.
    expect(skills.find((s) => s.name === 'expression-design')!.scriptPermission).toBe('none');
  });

  it('allows a skill to run its scripts, saves that in the settings file, and takes it back', async () => {
    const events: string[] = [];
    const off = core.context.events.subscribe((m) => events.push(m.event));
    try {
      const allowed = await value(core.invoke('skills/allow-scripts', { name: 'csv-insights', allow: true }));
      expect(allowed.scriptPermission).toBe('allowed');
      expect(JSON.parse(readFileSync(join(dataDir, 'settings.json'), 'utf8')).allowedSkillScripts).toEqual(['csv-insights']);
      expect((await value(core.invoke('settings/get', {}))).settings.allowedSkillScripts).toEqual(['csv-insights']);
      const listed = (await value(core.invoke('skills/list', {}))).skills.find((s) => s.name === 'csv-insights')!;
      expect(listed.scriptPermission).toBe('allowed');
      expect(events).toEqual(['settings/changed', 'skills/changed']);

      // A later save of the General settings form (which never sends this field) keeps the permission.
      await value(core.invoke('settings/set', { settings: { displayName: 'Dana' } }));
      expect((await value(core.invoke('settings/get', {}))).settings.allowedSkillScripts).toEqual(['csv-insights']);

      const revoked = await value(core.invoke('skills/allow-scripts', { name: 'csv-insights', allow: false }));
      expect(revoked.scriptPermission).toBe('not-allowed');
      expect(JSON.parse(readFileSync(join(dataDir, 'settings.json'), 'utf8')).allowedSkillScripts).toEqual([]);
    } finally {
      off();
    }
    const missing = await core.invoke('skills/allow-scripts', { name: 'no-such-skill', allow: true });
    expect(missing.ok ? 'ok' : missing.error.code).toBe('not_found');
  });
});
