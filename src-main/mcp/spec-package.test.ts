import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { SpecPackage } from '../specs/types';
import { ArtifactStore } from './artifacts';
import { writeContracts } from './__tests__/fixtures';
import { LocalSource } from './local';
import { Scratchpad } from './scratchpad';
import { McpSession } from './session';
import { samePhaseId } from './spec-package';
import type { ToolContext } from './tool-kit';
import { dispatch } from './tools';

/**
 * The registry tools over a user's spec package (a spec-kit feature here): what
 * forge_list_contracts, forge_get_contract, forge_get_phase_window and forge_summary answer when a
 * build works from the user's own documents rather than Forge's contracts folder.
 */

const dir = mkdtempSync(join(tmpdir(), 'forge-pkg-tools-'));
writeContracts(dir);
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const PHASE_31 = '## Phase 3.1: Setup\n- [ ] T001 Create the project structure\n- [ ] T002 [P] Configure linting';
const PHASE_32 = '## Phase 3.2: Tests First\n- [ ] T003 [P] Contract test POST /albums';
const PHASE_33 = '## Phase 3.3: Core\n- [ ] T004 Album model';

const pkg: SpecPackage = {
  format: 'spec-kit',
  root: '/tmp/photos',
  feature: '001-photo-albums',
  documents: [
    {
      id: 'specs/001-photo-albums/spec.md',
      kind: 'spec',
      title: 'Feature Specification: Photo Albums',
      brief: 'Users group photos into albums by date.',
      tokens: 40,
      text: '# Feature Specification: Photo Albums\n\nUsers group photos into albums by date.\n',
    },
    {
      id: 'specs/001-photo-albums/plan.md',
      kind: 'plan',
      title: 'Implementation Plan: Photo Albums',
      brief: 'Vite, vanilla JS, SQLite in the browser.',
      tokens: 30,
      text: '# Implementation Plan: Photo Albums\n\nVite, vanilla JS, SQLite in the browser.\n',
    },
    {
      id: 'specs/001-photo-albums/tasks.md',
      kind: 'tasks',
      title: 'Tasks: Photo Albums',
      brief: 'Tasks by phase.',
      tokens: 60,
      text: `# Tasks: Photo Albums\n\n${PHASE_31}\n\n${PHASE_32}\n\n${PHASE_33}\n`,
    },
  ],
  phases: [
    {
      id: '3.1',
      ordinal: 0,
      name: 'Setup',
      tasks: [
        { id: 'T001', text: 'Create the project structure' },
        { id: 'T002', text: 'Configure linting', parallel: true },
      ],
      text: PHASE_31,
      source: 'specs/001-photo-albums/tasks.md',
    },
    {
      id: '3.2',
      ordinal: 1,
      name: 'Tests First',
      tasks: [{ id: 'T003', text: 'Contract test POST /albums', parallel: true }],
      text: PHASE_32,
      source: 'specs/001-photo-albums/tasks.md',
    },
    { id: '3.3', ordinal: 2, name: 'Core', tasks: [{ id: 'T004', text: 'Album model' }], text: PHASE_33, source: 'specs/001-photo-albums/tasks.md' },
  ],
  preamble: '**Tech stack**: Vite 5, vanilla JS, sql.js.',
  notUnderstood: [],
};

function ctx(withPackage: boolean): ToolContext {
  return {
    source: new LocalSource({ dir, watch: false }),
    projects: {
      getProjectContext: async () => Promise.reject(new Error('no projects')),
      getProjectContract: async () => Promise.reject(new Error('no projects')),
      getBuildContracts: async () => Promise.reject(new Error('no projects')),
    },
    artifacts: new ArtifactStore(undefined),
    session: new McpSession(),
    scratchpad: new Scratchpad(dir),
    ...(withPackage ? { specPackage: () => pkg } : {}),
  };
}

const call = async (c: ToolContext, name: string, args: Record<string, unknown> = {}) => {
  const r = await dispatch(name, args, c);
  return { isError: !!r.isError, text: r.content.map((x) => x.text).join('\n') };
};

describe('the registry tools over a spec package', () => {
  it("lists the package's own documents with their own briefs and tokens, not Forge's contract descriptions", async () => {
    const r = await call(ctx(true), 'forge_list_contracts');
    expect(r.isError).toBe(false);
    const listing = JSON.parse(r.text) as { format: string; documents: { id: string; brief: string; tokens: number }[] };
    expect(listing.format).toBe('spec-kit');
    expect(listing.documents.map((d) => d.id)).toEqual(pkg.documents.map((d) => d.id));
    expect(listing.documents[0]).toMatchObject({ brief: 'Users group photos into albums by date.', tokens: 40 });
    // A user would otherwise be told their photo app has "the SQLite schema of a workspace".
    expect(r.text).not.toMatch(/What Forge is|headless host|SQLite schema of a workspace/);
    const summary = await call(ctx(true), 'forge_get_summary');
    expect(summary.text).toContain('Photo Albums');
    expect(summary.text).not.toMatch(/What Forge is|headless host|Forge governance/);
  });

  it('reads any listed document by id, by file name or by kind, and names the ids when one is unknown', async () => {
    const c = ctx(true);
    expect((await call(c, 'forge_get_contract', { name: 'specs/001-photo-albums/plan.md' })).text).toContain('Vite, vanilla JS');
    expect((await call(c, 'forge_get_contract', { name: 'spec' })).text).toContain('group photos into albums');
    const missing = await call(c, 'forge_get_contract', { name: 'blueprint' });
    expect(missing.isError).toBe(true);
    expect(missing.text).toContain('specs/001-photo-albums/tasks.md');
  });

  it("serves any phase by the plan's own id, string or number, with the preamble and the next phase", async () => {
    const c = ctx(true);
    const w = JSON.parse((await call(c, 'forge_get_phase_window', { phase_number: '3.1' })).text) as {
      phase: string;
      first_phase: string;
      content: string;
      phases: { id: string; tasks: number }[];
    };
    expect(w.phase).toBe('3.1');
    expect(w.first_phase).toBe('3.1');
    expect(w.phases).toEqual([
      { id: '3.1', name: 'Setup', tasks: 2 },
      { id: '3.2', name: 'Tests First', tasks: 1 },
    ]);
    expect(w.content.startsWith('**Tech stack**')).toBe(true);
    expect(w.content).toContain('T002');
    const last = JSON.parse((await call(c, 'forge_get_phase_window', { phase_number: '3.3' })).text) as { is_last: boolean };
    expect(last.is_last).toBe(true);
    const none = await call(c, 'forge_get_phase_window', { phase_number: 0 });
    expect(none.isError).toBe(true);
    expect(none.text).toContain('"3.1", "3.2", "3.3"');
  });

  it('keeps serving the governance contracts folder when no package is involved', async () => {
    const c = ctx(false);
    expect(JSON.parse((await call(c, 'forge_list_contracts')).text).contracts).toHaveLength(15);
    expect((await call(c, 'forge_get_contract', { name: 'blueprint' })).text).toContain('blueprint contract of the fixture project');
    const bad = await call(c, 'forge_get_contract', { name: 'nope' });
    expect(bad).toMatchObject({ isError: true });
    expect(bad.text).toContain('boundaries, physics');
    const w = JSON.parse((await call(c, 'forge_get_phase_window', { phase_number: '1' })).text) as { phase_number: number };
    expect(w.phase_number).toBe(1);
  });

  it('compares phase ids as written: 1 is "01", but "3.1" is not "3.10"', () => {
    expect(samePhaseId(1, '01')).toBe(true);
    expect(samePhaseId('3.1', '3.10')).toBe(false);
    expect(samePhaseId('3.1', ' 3.1 ')).toBe(true);
  });
});
