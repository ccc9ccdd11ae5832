import { describe, expect, it } from 'vitest';
import { builderSystemPrompt } from '../mcp';
import { BUILDER_FORGE_TOOLS } from './forge-tools';
import { MARKER, parseMarkers, STOP_CODES } from './markers';
import { builderTokens } from './tokens';

/**
 * The builder's system prompt lives in mcp/ (the MCP server serves it too); the parser of the
 * markers it teaches lives here. These tests keep the two from drifting apart.
 */

const PROJECT_TOOLS = ['read_file', 'list_directory', 'search_code', 'write_file', 'edit_file', 'run_tests', 'check_syntax', 'run_command'];

describe('the builder system prompt', () => {
  const mcp = builderSystemPrompt();
  const dump = builderSystemPrompt(undefined, { mode: 'dump' });

  it('names all 13 tools in MCP mode, and in dump mode only the tools a dump build gets', () => {
    expect(BUILDER_FORGE_TOOLS).toHaveLength(5);
    for (const t of [...PROJECT_TOOLS, ...BUILDER_FORGE_TOOLS]) expect(mcp, t).toMatch(new RegExp(`\\b${t}\\(`));
    for (const t of [...PROJECT_TOOLS, 'forge_scratchpad']) expect(dump, t).toMatch(new RegExp(`\\b${t}\\(`));
    expect(dump).not.toContain('forge_get_contract');
    expect(dump).not.toContain('forge_get_phase_window');
    expect(dump).toContain("The contracts and the first phase's window are in the first message");
  });

  it('names the six STOP codes', () => {
    expect(STOP_CODES).toHaveLength(6);
    for (const code of STOP_CODES) expect(mcp, code).toContain(`- ${code} — `);
  });

  it('teaches the markers in exactly the format parseMarkers reads', () => {
    for (const m of [MARKER.planStart, MARKER.planEnd, MARKER.taskDone('<task number>'), MARKER.signOffStart, MARKER.signOffEnd, MARKER.stop('<CODE>')]) {
      expect(mcp, m).toContain(`\n${m}\n`);
    }
    // Fill the prompt's placeholders the way a model would and read the whole prompt back.
    const filled = mcp.replace('<task number>', '3').replace('<CODE>', 'AMBIGUOUS_INTENT').replace('<number — name>', '0 — Genesis');
    const p = parseMarkers(filled);
    expect(p.plan).toEqual([
      { number: 1, text: '<task>' },
      { number: 2, text: '<task>' },
    ]);
    expect(p.tasksDone).toEqual([3]);
    expect(p.signOff).toMatchObject({ phase: '0 — Genesis', phaseNumber: 0, deliverables: ['<comma-separated list>'] });
    expect(p.signOff?.tests).toMatch(/^PASS — /);
    expect(p.stop?.code).toBe('AMBIGUOUS_INTENT');
    expect(p.unknownStop).toBeNull();
  });

  it('opens with the project name for the MCP prompt and tells the first turn to fetch before coding', () => {
    expect(builderSystemPrompt('Ledger')).toMatch(/^# Forge builder — Ledger\n/);
    expect(mcp).toContain("The first message names the plan's first phase: call forge_get_phase_window with its id");
    // A plan numbered from 1 (or 3.1) started with an error when the prompt said "Phase 0".
    for (const p of [mcp, dump]) expect(p).not.toMatch(/Phase 0|window\(0\)/);
    expect(mcp).toContain('README');
    expect(mcp).toContain('Minimal diff');
  });

  it('stays under 1,500 tokens in both modes, o200k (with the tools, the fixed context must fit in 3,000)', () => {
    expect(builderTokens(builderSystemPrompt('A project with a fairly long name'))).toBeLessThan(1500);
    expect(builderTokens(dump)).toBeLessThan(1500);
  });
});
