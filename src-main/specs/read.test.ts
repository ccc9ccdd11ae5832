import { symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readSpecPackage } from './read';
import { makePackage, snapshot } from './test-helpers';

const EXAMPLES = join(__dirname, '..', '..', 'resources', 'examples', 'specs');

describe('readSpecPackage — Forge layout', () => {
  it('reads every contract with a brief from its own text and the phases of phases.md', () => {
    // If this failed, a Forge project would lose its phases or list Forge's own descriptions for the user's contracts.
    const pkg = readSpecPackage(join(EXAMPLES, 'forge'));
    expect(pkg.format).toBe('forge');
    expect(pkg.documents.map((d) => d.id)).toEqual([
      'Forge/Contracts/blueprint.md',
      'Forge/Contracts/phases.md',
      'Forge/Contracts/physics.yaml',
      'Forge/Contracts/schema.md',
      'Forge/Contracts/stack.md',
    ]);
    const blueprint = pkg.documents.find((d) => d.kind === 'blueprint');
    expect(blueprint?.title).toBe('Blueprint — Shelf');
    expect(blueprint?.brief).toMatch(/^Shelf is a small web service/);
    expect(pkg.documents.find((d) => d.kind === 'physics')?.brief).toBe('The HTTP API of Shelf: every route with its input and output.');
    expect(pkg.phases.map((p) => [p.id, p.name, p.tasks.length])).toEqual([
      ['0', 'Scaffold and database', 3],
      ['1', 'Catalogue API', 3],
      ['2', 'Loans and the page', 3],
    ]);
    expect(pkg.preamble).toContain('Phase 0 is scaffolding only');
    expect(pkg.notUnderstood).toEqual([]);
    for (const d of pkg.documents) expect(d.tokens).toBeGreaterThan(10);
  });

  it('lists a contract Forge has no name for, and says what it could not read', () => {
    // If this failed, a user's extra contract (any number of them) would be invisible to the builder.
    const root = makePackage({
      'Forge/Contracts/phases.md': '# Plan\n\n## Phase 1 — Only\n- [ ] do it\n',
      'Forge/Contracts/glossary.md': '# Glossary\n\nTerms of the trade.\n',
      'Forge/Contracts/diagram.png': 'PNG',
    });
    const pkg = readSpecPackage(root);
    expect(pkg.documents.map((d) => d.kind)).toEqual(['glossary', 'phases']);
    expect(pkg.phases[0].id).toBe('1');
    expect(pkg.notUnderstood).toEqual(['Forge/Contracts/diagram.png is not a text document (Markdown, YAML, JSON), so it was left out.']);
  });
});

describe('readSpecPackage — plain Markdown with a plan', () => {
  it('reads the example: documents, phases numbered from 1, tasks, and the preamble before Phase 1', () => {
    // If this failed, a plan numbered from 1 would be mis-numbered, or its tech stack dropped from every window.
    const pkg = readSpecPackage(join(EXAMPLES, 'plain'));
    expect(pkg.format).toBe('plain');
    expect(pkg.documents.map((d) => [d.id, d.kind])).toEqual([
      ['docs/alerts.md', 'doc'],
      ['docs/dashboard.md', 'doc'],
      ['docs/station-protocol.md', 'doc'],
      ['PLAN.md', 'plan'],
    ]);
    expect(pkg.phases.map((p) => [p.id, p.ordinal, p.name, p.tasks.length])).toEqual([
      ['1', 0, 'Reading the station', 3],
      ['2', 1, 'The dashboard', 3],
      ['3', 2, 'Alerts', 2],
    ]);
    expect(pkg.preamble).toContain('## Tech stack');
    expect(pkg.preamble).toContain('## Project structure');
    // `## Risks` after the last phase is not part of Phase 3.
    expect(pkg.phases[2].text).not.toContain('Risks');
    expect(pkg.phases[0].source).toBe('PLAN.md');
    expect(pkg.phases[0].tasks[0]).toMatchObject({ id: '1', done: false });
  });

  it.each([
    [
      '### Phase 1 - Setup\n- [ ] a\n### Phase 2 - Build\n- [x] b\n',
      [
        ['1', 'Setup'],
        ['2', 'Build'],
      ],
    ],
    [
      '## Phase 3.1: Setup\n- [ ] a\n## Phase 3.2: Tests\n- [ ] b\n',
      [
        ['3.1', 'Setup'],
        ['3.2', 'Tests'],
      ],
    ],
    [
      '## Phase 3.1 — Setup\ntext\n## Phase 3.2 — Core\n',
      [
        ['3.1', 'Setup'],
        ['3.2', 'Core'],
      ],
    ],
    [
      'Intro\n\n1. Foundations — schema and CLI\n   - parse args\n2. Sync — the server\n   - push\n   - pull\n',
      [
        ['1', 'Foundations'],
        ['2', 'Sync'],
      ],
    ],
    [
      '## 1. Data layer\n- [ ] 1.1 a\n## 2. API\n- [ ] 2.1 b\n',
      [
        ['1', 'Data layer'],
        ['2', 'API'],
      ],
    ],
  ])('keeps phase ids as written in %j', (plan, want) => {
    // If this failed, a decimal or 1-based plan would be renumbered and "Phase 3.1" would not exist for the tools.
    const root = makePackage({ 'docs/ROADMAP.md': plan, 'README.md': '# App\n\nAn app.\n' });
    const pkg = readSpecPackage(root);
    expect(pkg.phases.map((p) => [p.id, p.name])).toEqual(want);
    expect(pkg.documents.find((d) => d.id === 'docs/ROADMAP.md')?.kind).toBe('roadmap');
  });

  it('keeps checklist state and counts a numbered list phase’s bullets as its tasks', () => {
    const root = makePackage({ 'plan.md': 'Intro\n\n1. Foundations — schema\n   - parse args\n2. Sync\n   - push\n   - pull\n' });
    const pkg = readSpecPackage(root);
    expect(pkg.preamble).toBe('Intro');
    expect(pkg.phases.map((p) => p.tasks.map((t) => t.text))).toEqual([['parse args'], ['push', 'pull']]);
  });

  it('says in one sentence what it could not use', () => {
    // If this failed, a user whose plan is written "Phase One" would see 0 phases and no reason why.
    const root = makePackage({ 'PLAN.md': '# Plan\n\n## Phase One\nstuff\n\n## Phase Two\nmore\n', 'spec.md': '# Spec\n\nWhat it does.\n' });
    const pkg = readSpecPackage(root);
    expect(pkg.phases).toEqual([]);
    expect(pkg.notUnderstood).toEqual([
      expect.stringMatching(/^PLAN\.md has no phases I could read/),
      'PLAN.md: the heading "## Phase One" looks like a phase but has no number, so it was not read as one.',
      'PLAN.md: the heading "## Phase Two" looks like a phase but has no number, so it was not read as one.',
    ]);
    const noPlan = readSpecPackage(makePackage({ 'spec.md': '# Spec\n\nWhat it does.\n' }));
    expect(noPlan.format).toBe('plain');
    expect(noPlan.notUnderstood).toEqual(['No plan was found (a PLAN.md, ROADMAP.md or phases.md), so the package has no phases.']);
  });

  it('finds a plan kept deeper in the package when there is none at the top or in docs/', () => {
    // If this failed, a repository keeping its plan in specs/PLAN.md would show no phases.
    const root = makePackage({
      'README.md': '# App\n\nAn app.\n',
      'specs/PLAN.md': '## Phase 1: A\n- [ ] a\n## Phase 2: B\n- [ ] b\n',
      'test-results/run/error-context.md': '# Instructions\n\nnot a spec\n',
    });
    const pkg = readSpecPackage(root);
    expect(pkg.phases.map((p) => p.id)).toEqual(['1', '2']);
    expect(pkg.documents.map((d) => [d.id, d.kind])).toEqual([
      ['README.md', 'doc'],
      ['specs/PLAN.md', 'plan'],
    ]);
  });

  it('says when a phase number is written twice', () => {
    const root = makePackage({ 'PLAN.md': '## Phase 1: A\n- [ ] a\n## Phase 1: B\n- [ ] b\n' });
    const pkg = readSpecPackage(root);
    expect(pkg.phases.map((p) => [p.id, p.ordinal])).toEqual([
      ['1', 0],
      ['1', 1],
    ]);
    expect(pkg.notUnderstood).toEqual(['PLAN.md: Phase 1 is written twice; a tool asking for Phase 1 gets the first.']);
  });

  it('names the unnumbered phase heading it skipped', () => {
    const root = makePackage({ 'PLAN.md': '## Phase 1: A\n- [ ] a\n## Phase Final: wrap up\n- [ ] b\n' });
    const pkg = readSpecPackage(root);
    expect(pkg.phases.map((p) => p.id)).toEqual(['1']);
    expect(pkg.notUnderstood).toEqual(['PLAN.md: the heading "## Phase Final: wrap up" looks like a phase but has no number, so it was not read as one.']);
  });

  it('ignores phase-like headings inside code fences and strips a BOM and CRLF', () => {
    const root = makePackage({ 'PLAN.md': '\uFEFF# P\r\n\r\n```\r\n## Phase 9: not real\r\n```\r\n## Phase 1: Real\r\n- [ ] a\r\n' });
    const pkg = readSpecPackage(root);
    expect(pkg.phases.map((p) => p.id)).toEqual(['1']);
    expect(pkg.documents[0].text.startsWith('# P\n')).toBe(true);
  });
});

describe('readSpecPackage — the user’s files', () => {
  it('never writes to the package folder', () => {
    // If this failed, pointing Forge at a repository would change the user's own specs.
    const roots = [join(EXAMPLES, 'forge'), join(EXAMPLES, 'plain')];
    for (const root of roots) {
      const before = snapshot(root);
      readSpecPackage(root);
      expect(snapshot(root)).toEqual(before);
    }
  });

  it.runIf(process.platform === 'linux')('turns a file it cannot read into one typed sentence', () => {
    // If this failed, an unreadable file in the user's specs would surface as a raw EIO stack in the CLI or the Builds screen.
    const root = makePackage({ 'PLAN.md': '## Phase 1: A\n' });
    symlinkSync('/proc/self/mem', join(root, 'unreadable.md'));
    expect(() => readSpecPackage(root)).toThrow(
      expect.objectContaining({ code: 'invalid_input', message: expect.stringMatching(/^Could not read the plain package in .*: EIO/) }),
    );
  });

  it('refuses a folder that does not exist or holds no spec, with a clear typed error', () => {
    expect(() => readSpecPackage('/nonexistent/forge-specs')).toThrow(expect.objectContaining({ code: 'not_found' }));
    expect(() => readSpecPackage(makePackage({ 'main.c': 'int main(){}' }))).toThrow(/No spec package in/);
  });
});
