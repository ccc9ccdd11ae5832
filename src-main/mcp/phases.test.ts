import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connect, type Fixture, fixture, jsonOf, textOf } from './__tests__/fixtures';
import { parsePhases, phaseWindow } from './phases';

/**
 * Forge's own phases.md and a planner project's plan are read by the specs module's plan reader
 * (issue #28). If this failed, a plan written as spec-kit writes one (`## Phase 3.1: …`), one numbered
 * from 1 with `### Phase 1 - …` headings, or a numbered list of phases would give the builder no
 * phases at all ("has no ## Phase N headings"), and the tech stack written above the first phase
 * would be missing from every window the builder reads.
 */

const DECIMAL_PLAN = `# Photo albums — tasks

**Tech stack**: Vite, vanilla JS, SQLite (wa-sqlite).

## Phase 3.1: Setup
- [ ] T001 Create the project structure
- [ ] T002 [P] Configure linting

## Phase 3.2: Tests first
- [ ] T003 [P] Contract test for the album list

## Phase 3.10: Polish
- [ ] T009 Performance check
`;

const ONE_BASED_PLAN = `# Rates monitor plan

Structure: src/ for code, tests/ beside it. Node 20.

### Phase 1 - Curves
Load yield curves from CSV into src/curves.ts, with tests.

### Phase 2 - Screen
Show the curve and its daily change.
`;

const LISTED_PLAN = `# Roadmap

1. Foundations — the repository, CI and a first passing test
   - scaffold
   - CI
2. Data — the CSV loader
3. Screen — the chart
`;

describe('parsePhases and phaseWindow read any plain plan', () => {
  it('keeps decimal ids as written and tells 3.1 from 3.10', () => {
    expect(parsePhases(DECIMAL_PLAN).map((p) => [p.id, p.name])).toEqual([
      ['3.1', 'Setup'],
      ['3.2', 'Tests first'],
      ['3.10', 'Polish'],
    ]);
    const w = phaseWindow(DECIMAL_PLAN, '3.10');
    expect(w.phase).toBe('3.10');
    expect(w.content).toContain('T009 Performance check');
    expect(w.is_last).toBe(true);
    // The number 3.1 is Phase 3.1, never 3.10.
    expect(phaseWindow(DECIMAL_PLAN, 3.1).phases.map((p) => p.id)).toEqual(['3.1', '3.2']);
  });

  it('reads ### Phase headings numbered from 1 and a numbered list of phases', () => {
    expect(parsePhases(ONE_BASED_PLAN).map((p) => `${p.number} ${p.name}`)).toEqual(['1 Curves', '2 Screen']);
    const first = phaseWindow(ONE_BASED_PLAN, 1);
    expect(first.first_phase).toBe(1);
    expect(first.phase_number).toBe(1);
    expect(parsePhases(LISTED_PLAN).map((p) => `${p.id} ${p.name}`)).toEqual(['1 Foundations', '2 Data', '3 Screen']);
  });

  it('carries the preamble into every window, and names the phases when one does not exist', () => {
    for (const id of ['3.1', '3.2', '3.10']) expect(phaseWindow(DECIMAL_PLAN, id).content).toContain('**Tech stack**: Vite');
    expect(phaseWindow(ONE_BASED_PLAN, 2).content).toContain('Structure: src/ for code');
    expect(() => phaseWindow(ONE_BASED_PLAN, 0)).toThrow('There is no Phase 0. This plan has phases 1 to 2 (2 in all).');
  });
});

describe('forge_get_phase_window over a real MCP client', () => {
  let f: Fixture;
  beforeAll(() => {
    f = fixture();
  });
  afterAll(() => f.dispose());

  it("serves a planner project's decimal and 1-based plans by the plan's own ids, preamble included", async () => {
    const c = await connect(f);
    try {
      const store = await c.service.projectStore();
      store.ensureProject({ id: 'albums', name: 'Photo albums' });
      store.saveContract('albums', 'phases', DECIMAL_PLAN, 'user');
      store.ensureProject({ id: 'rates', name: 'Rates monitor' });
      store.saveContract('rates', 'phases', ONE_BASED_PLAN, 'user');

      const byString = await c.client.callTool({ name: 'forge_get_phase_window', arguments: { phase_number: '3.2', project_id: 'albums' } });
      expect(byString.isError, textOf(byString)).toBeFalsy();
      const w = jsonOf<{ phase: string; phases: { id: string }[]; content: string; project_id: string }>(byString);
      expect(w.project_id).toBe('albums');
      expect(w.phases.map((p) => p.id)).toEqual(['3.2', '3.10']);
      expect(w.content).toContain('**Tech stack**: Vite');
      expect(w.content).toContain('T003 [P] Contract test');

      // A JSON number, as a model may write it.
      const byNumber = jsonOf<{ phase: string }>(
        await c.client.callTool({ name: 'forge_get_phase_window', arguments: { phase_number: 3.1, project_id: 'albums' } }),
      );
      expect(byNumber.phase).toBe('3.1');

      const first = jsonOf<{ phase_number: number; first_phase: number; phases: { number: number; name: string }[]; content: string }>(
        await c.client.callTool({ name: 'forge_get_phase_window', arguments: { phase_number: 1, project_id: 'rates' } }),
      );
      expect(first.first_phase).toBe(1);
      expect(first.phases.map((p) => `${p.number} ${p.name}`)).toEqual(['1 Curves', '2 Screen']);
      expect(first.content).toContain('Structure: src/ for code');

      const zero = await c.client.callTool({ name: 'forge_get_phase_window', arguments: { phase_number: 0, project_id: 'rates' } });
      expect(zero.isError).toBe(true);
      expect(textOf(zero)).toContain('There is no Phase 0. This plan has phases 1 to 2');
    } finally {
      await c.close();
    }
  });

  it("reads the contracts folder's own phases.md when it is written with decimal ids", async () => {
    writeFileSync(join(f.contractsDir, 'phases.md'), DECIMAL_PLAN);
    const c = await connect(f);
    try {
      const r = await c.client.callTool({ name: 'forge_get_phase_window', arguments: { phase_number: '3.1' } });
      expect(r.isError, textOf(r)).toBeFalsy();
      const w = jsonOf<{ phase: string; total_phases: number; content: string }>(r);
      expect(w.phase).toBe('3.1');
      expect(w.total_phases).toBe(3);
      expect(w.content).toContain('T001 Create the project structure');
    } finally {
      await c.close();
    }
  });
});
