import { utimesSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readSpecPackage } from './read';
import { makePackage, snapshot } from './test-helpers';

const EXAMPLES = join(__dirname, '..', '..', 'resources', 'examples', 'specs');
const FIXTURES = join(__dirname, 'fixtures');

describe('spec-kit', () => {
  it('reads the constitution, the highest-numbered feature with its contracts, and decimal phases from tasks.md', () => {
    // If this failed, a spec-kit repository would give 0 phases or hide its OpenAPI contract from the builder.
    const pkg = readSpecPackage(join(EXAMPLES, 'spec-kit'));
    expect(pkg.format).toBe('spec-kit');
    expect(pkg.feature).toBe('002-link-shortener');
    expect(pkg.features).toEqual(['001-team-accounts', '002-link-shortener']);
    expect(pkg.documents.map((d) => d.kind)).toEqual(['constitution', 'contract', 'data-model', 'plan', 'spec', 'tasks']);
    const contract = pkg.documents.find((d) => d.kind === 'contract');
    expect([contract?.title, contract?.brief]).toEqual(['Snip API', 'Create short links and follow them.']);
    // A template's `**Feature Branch**:` metadata is not the brief; the first prose paragraph is.
    expect(pkg.documents.find((d) => d.kind === 'spec')?.brief).toMatch(/^A team member pastes a long URL/);
    expect(pkg.phases.map((p) => [p.id, p.name, p.tasks.length])).toEqual([
      ['3.1', 'Setup', 3],
      ['3.2', 'Tests first ⚠️ MUST FAIL before 3.3', 3],
      ['3.3', 'Core implementation', 4],
    ]);
    expect(pkg.phases[0].tasks[1]).toEqual({
      id: 'T002',
      text: 'Add Fastify 5 and better-sqlite3 12; `npm start` runs `src/server.ts`',
      done: false,
      parallel: true,
    });
    // `## Dependencies` after the last phase is not part of it.
    expect(pkg.phases[2].text).not.toContain('T004–T006');
    expect(pkg.preamble).toContain('## Format: `[ID] [P?] Description`');
  });

  it('reads the feature asked for, by name or number, and names the features there are when it is missing', () => {
    const pkg = readSpecPackage(join(EXAMPLES, 'spec-kit'), { feature: '001' });
    expect(pkg.feature).toBe('001-team-accounts');
    expect(pkg.phases).toEqual([]);
    expect(pkg.notUnderstood).toEqual([expect.stringMatching(/^specs\/001-team-accounts\/ has no tasks\.md yet/)]);
    expect(() => readSpecPackage(join(EXAMPLES, 'spec-kit'), { feature: '009-nope' })).toThrow(
      'There is no "009-nope" in specs/; it holds 001-team-accounts, 002-link-shortener.',
    );
  });

  it('reads the constitution where early spec-kit releases kept it (memory/ at the top)', () => {
    const root = makePackage({
      'memory/constitution.md': '# Constitution\n\nLibrary first.\n',
      'specs/001-x/spec.md': '# X\n\nWhat X does.\n',
      'specs/001-x/tasks.md': '## Phase 3.1: Setup\n- [ ] T001 a\n## Phase 3.2: Core\n- [ ] T002 b\n',
    });
    const pkg = readSpecPackage(root);
    expect(pkg.format).toBe('spec-kit');
    expect(pkg.documents.map((d) => [d.id, d.kind])).toEqual([
      ['memory/constitution.md', 'constitution'],
      ['specs/001-x/spec.md', 'spec'],
      ['specs/001-x/tasks.md', 'tasks'],
    ]);
    expect(pkg.phases.map((p) => p.id)).toEqual(['3.1', '3.2']);
  });

  it('reads spec-kit’s own published constitution and tasks template (real fixture)', () => {
    // Origin: github/spec-kit (MIT), see fixtures/README.md. If this failed, today's spec-kit output would not be understood.
    const pkg = readSpecPackage(join(FIXTURES, 'spec-kit-real'));
    expect(pkg.format).toBe('spec-kit');
    expect(pkg.documents.find((d) => d.kind === 'constitution')?.title).toMatch(/Constitution/);
    expect(pkg.phases.map((p) => p.id)).toEqual(['1', '2', '3', '4', '5']);
    expect(pkg.phases.map((p) => p.tasks.length)).toEqual([3, 6, 8, 6, 5]);
    expect(pkg.phases[2].name).toBe('User Story 1 - [Title] (Priority: P1) 🎯 MVP');
    expect(pkg.phases[2].tasks[0]).toMatchObject({ id: 'T010', parallel: true, text: expect.stringMatching(/^\[US1\] Contract test/) });
    // The template's placeholder `## Phase N: Polish` is seen and said, not silently dropped.
    expect(pkg.notUnderstood).toEqual([
      'specs/001-feature-template/tasks.md: the heading "## Phase N: Polish & Cross-Cutting Concerns" looks like a phase but has no number, so it was not read as one.',
    ]);
    // Every opening line is `**Input**:`-style metadata, so the brief is the first paragraph after it.
    expect(pkg.documents.find((d) => d.kind === 'tasks')?.brief).toMatch(/^- \*\*\[P\]\*\*: Can run in parallel/);
  });
});

describe('Kiro', () => {
  it('makes each top-level checklist item a phase with its sub-tasks and requirement references', () => {
    // If this failed, a Kiro feature would give 0 phases, or its tasks would lose the requirements they satisfy.
    const pkg = readSpecPackage(join(EXAMPLES, 'kiro'));
    expect(pkg.format).toBe('kiro');
    expect(pkg.feature).toBe('password-reset');
    expect(pkg.documents.map((d) => [d.id, d.kind])).toEqual([
      ['.kiro/steering/product.md', 'steering'],
      ['.kiro/steering/tech.md', 'steering'],
      ['.kiro/specs/password-reset/design.md', 'design'],
      ['.kiro/specs/password-reset/requirements.md', 'requirements'],
      ['.kiro/specs/password-reset/tasks.md', 'tasks'],
    ]);
    // Front matter (`inclusion: always`) is not the brief.
    expect(pkg.documents[0].brief).toMatch(/^Ledgerly is a bookkeeping web app/);
    expect(pkg.phases.map((p) => [p.id, p.name, p.tasks.map((t) => t.id)])).toEqual([
      ['1', 'Store reset tokens', ['1.1', '1.2']],
      ['2', 'Reset views and emails', ['2.1', '2.2', '2.3']],
      ['3', 'Redeem the token', ['3.1']],
    ]);
    expect(pkg.phases[0].tasks[0].refs).toEqual(['1.2', '2.2']);
    expect(pkg.phases[1].tasks[2]).toMatchObject({ id: '2.3', text: 'View tests for expired and reused links', refs: ['2.3'] });
    expect(pkg.preamble).toBe('# Implementation Plan');
    expect(pkg.notUnderstood).toEqual([]);
  });

  it('reads the feature changed last when there are several, and lists them all', () => {
    const root = makePackage({
      '.kiro/specs/old-feature/tasks.md': '- [ ] 1. Old\n- [ ] 2. Older\n',
      '.kiro/specs/new-feature/tasks.md': '# Plan\n- [x] 1. New thing\n  - [x] 1.1 part\n- [ ] 2. Next\n',
      '.kiro/specs/new-feature/notes.txt': 'scratch',
    });
    utimesSync(join(root, '.kiro/specs/old-feature/tasks.md'), new Date('2026-01-01'), new Date('2026-01-01'));
    const pkg = readSpecPackage(root);
    expect(pkg.feature).toBe('new-feature');
    expect(pkg.features).toEqual(['old-feature', 'new-feature']);
    expect(pkg.phases.map((p) => [p.id, p.tasks.length, p.tasks[0].done])).toEqual([
      ['1', 1, true],
      ['2', 1, false],
    ]);
    expect(pkg.notUnderstood).toEqual(['.kiro/specs/new-feature/notes.txt is not a Kiro spec document, so it was left out.']);
  });
});

describe('Kiro (real fixture)', () => {
  it('reads a feature written with Kiro by Kiro’s own team (kirodotdev/spirit-of-kiro, MIT-0)', () => {
    // Origin: see fixtures/README.md. If this failed, Kiro's real `- [ ] 1.1.` numbering or its references would be lost.
    const pkg = readSpecPackage(join(FIXTURES, 'kiro-real'));
    expect(pkg.format).toBe('kiro');
    expect(pkg.documents.map((d) => d.kind)).toEqual(['steering', 'steering', 'steering', 'design', 'requirements', 'tasks']);
    expect(pkg.phases.map((p) => [p.id, p.tasks.length])).toEqual([
      ['1', 5],
      ['2', 4],
      ['3', 4],
      ['4', 4],
      ['5', 3],
      ['6', 4],
    ]);
    expect(pkg.phases[0].name).toBe('Create the Particle System');
    expect(pkg.phases[0].tasks[1]).toMatchObject({ id: '1.2', text: 'Implement the ParticleSystem class', refs: ['1.1', '1.4', '4.1', '4.2'] });
    expect(pkg.phases[5].tasks[3].refs).toEqual(['All']);
    expect(pkg.notUnderstood).toEqual([]);
  });

  it('leaves archived feature folders out of the choice', () => {
    const root = makePackage({ '.kiro/specs/_archived/old/tasks.md': '- [ ] 1. Old\n', '.kiro/specs/live/tasks.md': '- [ ] 1. Live\n- [ ] 2. More\n' });
    utimesSync(join(root, '.kiro/specs/live/tasks.md'), new Date('2020-01-01'), new Date('2020-01-01'));
    expect(readSpecPackage(root).features).toEqual(['live']);
  });
});

describe('Kiro numbering', () => {
  it('numbers unnumbered checklist items from 1 by position, sub-tasks after their phase', () => {
    // If this failed, a Kiro tasks.md written without numbers would give every phase the id 1.
    const root = makePackage({ '.kiro/specs/f/tasks.md': '- [ ] Set up\n  - [ ] config\n- [ ] Build\n  - [ ] api\n  - [ ] ui\n' });
    const pkg = readSpecPackage(root);
    expect(pkg.phases.map((p) => [p.id, p.name, p.tasks.map((t) => t.id)])).toEqual([
      ['1', 'Set up', ['1.1']],
      ['2', 'Build', ['2.1', '2.2']],
    ]);
  });
});

describe('OpenSpec', () => {
  it('reads the project, the change, its delta specs and only the base specs they touch; phases are the task groups', () => {
    // If this failed, an OpenSpec change would give 0 phases, or the base spec being modified would be missing.
    const pkg = readSpecPackage(join(EXAMPLES, 'openspec'));
    expect(pkg.format).toBe('openspec');
    expect(pkg.feature).toBe('add-invoice-reminders');
    expect(pkg.documents.map((d) => [d.id, d.kind])).toEqual([
      ['openspec/project.md', 'project'],
      ['openspec/changes/add-invoice-reminders/design.md', 'design'],
      ['openspec/changes/add-invoice-reminders/proposal.md', 'proposal'],
      ['openspec/changes/add-invoice-reminders/specs/invoicing/spec.md', 'delta-spec'],
      ['openspec/changes/add-invoice-reminders/tasks.md', 'tasks'],
      ['openspec/specs/invoicing/spec.md', 'base-spec'],
    ]);
    expect(pkg.phases.map((p) => [p.id, p.name, p.tasks.map((t) => t.id)])).toEqual([
      ['1', 'Schema and worker', ['1.1', '1.2', '1.3']],
      ['2', 'Emails and settings', ['2.1', '2.2', '2.3', '2.4']],
    ]);
    expect(pkg.notUnderstood).toEqual([]);
  });

  it('reads a real change from OpenSpec’s own repository (real fixture), archive left out', () => {
    // Origin: Fission-AI/OpenSpec (MIT), see fixtures/README.md.
    const pkg = readSpecPackage(join(FIXTURES, 'openspec-real'));
    expect(pkg.feature).toBe('add-init-agents-target');
    expect(pkg.documents.filter((d) => d.kind === 'base-spec').map((d) => d.id)).toEqual([
      'openspec/specs/ai-tool-paths/spec.md',
      'openspec/specs/cli-init/spec.md',
    ]);
    expect(pkg.documents.find((d) => d.kind === 'project')?.brief).toMatch(/^Tech stack: TypeScript/);
    expect(pkg.phases.map((p) => [p.id, p.name, p.tasks.length, p.tasks.every((t) => t.done)])).toEqual([
      ['1', 'Tests', 2, true],
      ['2', 'Registry', 3, true],
      ['3', 'Docs', 3, true],
      ['4', 'Verification', 2, true],
    ]);
    // `.openspec.yaml` is OpenSpec's own bookkeeping (hidden), not a document: skipped without a note.
    expect(pkg.notUnderstood).toEqual([]);
  });

  it('picks the change still in progress over a finished one changed later (a fresh clone gives files one time)', () => {
    // If this failed, Forge would offer to build a change whose tasks are all done.
    const root = makePackage({
      'openspec/changes/add-a/tasks.md': '## 1. A\n- [ ] 1.1 open\n',
      'openspec/changes/zz-done/tasks.md': '## 1. Z\n- [x] 1.1 done\n',
    });
    utimesSync(join(root, 'openspec/changes/add-a/tasks.md'), new Date('2020-01-01'), new Date('2020-01-01'));
    const pkg = readSpecPackage(root);
    expect(pkg.feature).toBe('add-a');
    expect(pkg.features).toEqual(['zz-done', 'add-a']);
  });

  it('says when a delta spec has no ADDED/MODIFIED/REMOVED section', () => {
    const root = makePackage({
      'openspec/changes/add-x/tasks.md': '## 1. Do\n- [ ] 1.1 it\n## 2. Check\n- [ ] 2.1 it\n',
      'openspec/changes/add-x/specs/x/spec.md': '# X\n\nWHEN a THEN b\n',
    });
    const pkg = readSpecPackage(root);
    expect(pkg.notUnderstood).toEqual([
      'openspec/changes/add-x/specs/x/spec.md has no "## ADDED|MODIFIED|REMOVED Requirements" section, so it was read as a whole spec, not as a delta.',
    ]);
  });
});

describe('detection', () => {
  it('says which layout it read and which others it saw', () => {
    // If this failed, a repository holding two layouts would be read as one without the user being told.
    const root = makePackage({
      '.kiro/specs/f/tasks.md': '- [ ] 1. A\n- [ ] 2. B\n',
      'openspec/changes/c/tasks.md': '## 1. A\n- [ ] 1.1 a\n',
      'PLAN.md': '## Phase 1: A\n',
    });
    const pkg = readSpecPackage(root);
    expect(pkg.format).toBe('kiro');
    expect(pkg.detected).toBe('Read as kiro because the folder has .kiro/specs/; also found openspec (openspec/), plain (a plan (PLAN.md)), not read.');
    expect(readSpecPackage(root, { format: 'openspec' }).phases.map((p) => p.id)).toEqual(['1']);
  });

  it('never writes to any example package or real fixture', () => {
    const fixtures = ['spec-kit-real', 'openspec-real', 'kiro-real'].map((f) => join(FIXTURES, f));
    for (const root of [...['spec-kit', 'kiro', 'openspec'].map((f) => join(EXAMPLES, f)), ...fixtures]) {
      const before = snapshot(root);
      readSpecPackage(root);
      expect(snapshot(root)).toEqual(before);
    }
  });
});
