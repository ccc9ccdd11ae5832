import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { SpecPackage } from '../../specs/types';
import { ArtifactStore } from '../artifacts';
import { LocalSource } from '../local';
import { Scratchpad } from '../scratchpad';
import { McpSession } from '../session';
import { phaseIdText } from '../spec-package';
import { dispatch, listTools, type ToolContext } from '../tools';
import { writeContracts } from './fixtures';

/**
 * forge_get_phase_window takes the plan's own phase id as a string (the host's mcp/phase-window: host/handlers/phase-window.test.ts)
 * or a JSON number. A model that writes `{"phase_number": 3.1}` (a number, as JSON allows) for a
 * spec-kit plan's "Phase 3.1" would otherwise be refused as invalid arguments and stall at the
 * gate. A number is read in its shortest decimal form, so "3.10" (a different phase) is reachable
 * only as a string — the description says so.
 */

const dir = mkdtempSync(join(tmpdir(), 'forge-phase-id-'));
writeContracts(dir);
afterAll(() => {
  rmSync(dir, { recursive: true, force: true });
});

const phase = (id: string, ordinal: number) => ({
  id,
  ordinal,
  name: `Step ${id}`,
  tasks: [{ id: `T${ordinal}`, text: `Task of ${id}` }],
  text: `## Phase ${id}: Step ${id}\n- [ ] T${ordinal} Task of ${id}`,
  source: 'specs/001-x/tasks.md',
});
const pkg: SpecPackage = {
  format: 'spec-kit',
  root: '/tmp/x',
  feature: '001-x',
  documents: [{ id: 'specs/001-x/tasks.md', kind: 'tasks', title: 'Tasks', brief: 'Tasks.', tokens: 20, text: '# Tasks\n' }],
  phases: [phase('3.1', 0), phase('3.2', 1), phase('3.10', 2)],
  preamble: '',
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
const call = async (c: ToolContext, args: Record<string, unknown>) => {
  const r = await dispatch('forge_get_phase_window', args, c);
  return { isError: !!r.isError, text: r.content.map((x) => x.text).join('\n') };
};

describe('a phase id as a JSON number', () => {
  it('is read in its shortest decimal form', () => {
    expect(phaseIdText(3.1)).toBe('3.1');
    expect(phaseIdText(2)).toBe('2');
    expect(phaseIdText(' 3.10 ')).toBe('3.10');
  });

  it('serves spec-kit\'s Phase 3.1 for the number 3.1, and "3.10" only for the string', async () => {
    const c = ctx(true);
    const byNumber = await call(c, { phase_number: 3.1 });
    expect(byNumber.isError, byNumber.text).toBe(false);
    expect(JSON.parse(byNumber.text).phase).toBe('3.1');
    expect(JSON.parse((await call(c, { phase_number: '3.10' })).text).phase).toBe('3.10');
    // JSON's 3.10 is the number 3.1: it names Phase 3.1, never 3.10.
    expect(JSON.parse((await call(c, { phase_number: 3.1 })).text).phase).not.toBe('3.10');
  });

  it("says in the tool's description how a number is read", () => {
    // What an IDE's model reads in tools/list: the id's schema accepts a number and says how it is read.
    const t = listTools().find((x) => x.name === 'forge_get_phase_window');
    expect(JSON.stringify(t?.inputSchema)).toMatch(/shortest decimal form/);
    expect(JSON.stringify(t?.inputSchema)).toContain('"type":"number"');
  });

  it("is refused with a sentence when the app's whole-number phases.md has no such phase, not as invalid arguments", async () => {
    const r = await call(ctx(false), { phase_number: 1.5 });
    expect(r.isError).toBe(true);
    expect(r.text).toContain('There is no Phase 1.5. This plan has phases 0 to 4');
    expect(JSON.parse((await call(ctx(false), { phase_number: 1 })).text).phase_number).toBe(1);
  });
});
