import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { MARKER, parseMarkers } from './markers';
import { auditRequest, parseAuditorFindings } from './audit-messages';
import { firstMessage, phaseAdvanceMessage, signOffRejected, stopAnswered, unknownStopCode } from './messages';
import { projectBrief } from './project-brief';
import { recoveryPlanFrom, recoveryRequest } from './recovery-messages';

describe('projectBrief', () => {
  it("takes the name and first sentence of Forge's own blueprint", () => {
    const text = readFileSync(join(__dirname, '..', '..', 'contracts', 'blueprint.md'), 'utf8');
    expect(projectBrief(text)).toEqual({
      name: 'Forge Workbench',
      description: 'Forge is a desktop workbench for a discretionary macro portfolio manager (PM).',
    });
  });

  it('drops a trailing "Blueprint" label and markdown from the description', () => {
    const md = '<!-- generated -->\n# **Ledger** — Blueprint\n\n| a | b |\n\nA [shared](https://x.test) ledger for **households**. It splits costs.\n';
    expect(projectBrief(md)).toEqual({ name: 'Ledger', description: 'A shared ledger for households.' });
  });

  it('falls back to the given name and an empty description for a missing or bare blueprint', () => {
    expect(projectBrief(undefined, 'my-app')).toEqual({ name: 'my-app', description: '' });
    expect(projectBrief('# Blueprint\n', 'my-app')).toEqual({ name: 'my-app', description: '' });
    expect(projectBrief('Just a paragraph without a heading.')).toEqual({ name: 'Untitled project', description: 'Just a paragraph without a heading.' });
  });

  it('cuts a run-on description at a word, under 300 characters', () => {
    const d = projectBrief(`# X\n\n${'word '.repeat(200)}`).description;
    expect(d.length).toBeLessThanOrEqual(301);
    expect(d.endsWith('word…')).toBe(true);
  });
});

describe('firstMessage and phaseAdvanceMessage', () => {
  const base = { projectName: 'Ledger', description: 'A shared ledger.', listing: 'README.md\nsrc/', mode: 'mcp' as const };

  it('MCP mode: the brief, the listing and "begin" the plan\'s own first phase with the exact window call — no contract text', () => {
    const m = firstMessage({ ...base, firstPhase: { id: '1', name: 'Ledger core' }, contractsDump: [{ name: 'blueprint', text: 'SECRET CONTRACT TEXT' }] });
    expect(m).toBe(
      '# Project: Ledger\n\nA shared ledger.\n\n## Workspace\n\n```\nREADME.md\nsrc/\n```\n\nBegin Phase 1 — Ledger core. Call forge_get_phase_window({"phase_number": "1"}) first (writes and commands are refused until you have), then the documents it needs, then write your === PLAN === and start building.\n',
    );
    // spec-kit numbers its phases 3.1, 3.2 …: a message saying "Phase 0" started such a build with an error.
    expect(firstMessage({ ...base, firstPhase: { id: '3.1' } })).toContain('Begin Phase 3.1. Call forge_get_phase_window({"phase_number": "3.1"})');
  });

  it('dump mode: every contract inlined except the whole phases file, plus the first phase window', () => {
    const m = firstMessage({
      ...base,
      firstPhase: { id: '0', name: 'Genesis' },
      mode: 'dump',
      contractsDump: [
        { name: 'blueprint', file: 'blueprint.md', text: '# Blueprint — Ledger\n' },
        { name: 'phases', text: 'THE WHOLE ROADMAP' },
        { name: 'stack', text: 'Node 20' },
      ],
      phaseWindow: '## Phase 0 — Genesis\nScaffold.',
    });
    expect(m).toContain('<contract name="blueprint" file="blueprint.md">\n# Blueprint — Ledger\n</contract>');
    expect(m).toContain('<contract name="stack">\nNode 20\n</contract>');
    expect(m).not.toContain('THE WHOLE ROADMAP');
    expect(m).toContain('## Phase 0 window\n\n## Phase 0 — Genesis\nScaffold.');
    expect(m).not.toContain('forge_get_contract');
  });

  it('dump mode without contracts is a typed error, not an empty first message', () => {
    expect(() => firstMessage({ ...base, firstPhase: { id: '0' }, mode: 'dump' })).toThrow(expect.objectContaining({ code: 'invalid_input' }));
  });

  it('phase advance tells the builder to fetch the window (MCP) or carries it (dump)', () => {
    const mcp = phaseAdvanceMessage({ nextPhase: 2, nextPhaseName: 'API', diffSummary: '+ src/api.ts (40 lines)', listing: 'src/api.ts' });
    expect(mcp).toContain('## Phase 2 — API — start');
    expect(mcp).toContain('+ src/api.ts (40 lines)');
    expect(mcp).toContain('Call forge_get_phase_window({"phase_number": "2"})');
    const dump = phaseAdvanceMessage({ nextPhase: 2, diffSummary: '', listing: '', phaseWindow: '## Phase 2 — API\nRoutes.' });
    expect(dump).toContain('## Phase 2 — API\nRoutes.');
    expect(dump).not.toContain('forge_get_phase_window');
    expect(dump).toContain('(no file changes recorded)');
  });
});

describe('messages to the builder', () => {
  it('quotes the user answer to a STOP so it reads as their words', () => {
    expect(stopAnswered('AMBIGUOUS_INTENT', 'Use email.\nNo usernames.')).toContain(
      'You stopped with AMBIGUOUS_INTENT. The user answered:\n\n> Use email.\n> No usernames.',
    );
  });

  it('lists the six valid codes for an unknown STOP, in the marker format the parser reads', () => {
    const m = unknownStopCode({ code: 'NEED_TIME' });
    expect(m).toContain('"NEED_TIME" is not a STOP code');
    expect(m).toContain('EVIDENCE_MISSING, AMBIGUOUS_INTENT, CONTRACT_CONFLICT, RISK_EXCEEDS_SCOPE, NON_DETERMINISTIC_BEHAVIOR, ENVIRONMENT_LIMITATION');
    expect(m).toContain(`write ${MARKER.stop('<CODE>')} on its own line`);
    // Quoted mid-sentence, the marker itself is not a stop.
    expect(parseMarkers(m.replace('<CODE>', 'EVIDENCE_MISSING')).stop).toBeNull();
  });

  it('keeps the end of a long failing test output, where the failure summary is', () => {
    const out = `${'noise\n'.repeat(2000)}FAIL test/users.test.ts > lists users`;
    const m = signOffRejected({ phase: 1, testsOutput: out });
    expect(m).toContain('Your sign-off for Phase 1 is not accepted');
    expect(m).toContain('FAIL test/users.test.ts > lists users');
    expect(m).toMatch(/\[… \d+ earlier characters cut …\]/);
    expect(m.length).toBeLessThan(4600);
  });
});

describe('the recovery planner', () => {
  it('asks with the test, the plan and the last failing runs', () => {
    const r = recoveryRequest({
      test: 'users > lists users',
      attempts: 3,
      lastOutputs: ['run 1 failed', 'run 2 failed', 'run 3 failed', 'run 4 failed'],
      plan: [
        { number: 1, text: 'Scaffold', done: true },
        { number: 2, text: 'Users route' },
      ],
      phase: 1,
    });
    expect(r).toContain('The test "users > lists users" still fails in Phase 1 after 3 attempts.');
    expect(r).toContain('1. [done] Scaffold\n2. Users route');
    expect(r).toContain('### Attempt 1');
    expect(r).toContain('run 4 failed');
    expect(r).not.toContain('run 1 failed');
  });

  it('reads the cause and steps out of its answer, with prose around the block', () => {
    const plan = recoveryPlanFrom(
      'Here you go.\n=== RECOVERY PLAN ===\nCause: the test imports a file that was renamed.\n1. Fix the import in test/users.test.ts — verify: npm test\n2. Re-run — verify: users > lists users passes\n=== END RECOVERY PLAN ===\nGood luck.',
    );
    expect(plan.cause).toBe('the test imports a file that was renamed.');
    expect(plan.steps).toEqual(['Fix the import in test/users.test.ts — verify: npm test', 'Re-run — verify: users > lists users passes']);
    expect(plan.text).not.toContain('Good luck');
  });
});

describe('the auditor', () => {
  it('sends the phase, the diff, Forge findings and file excerpts', () => {
    const r = auditRequest({
      phase: 'Phase 1 — API',
      diffSummary: '+ src/api.ts',
      deterministicFindings: [{ severity: 'warning', source: 'contract_text', file: 'src/a.ts', message: 'mentions Forge/' }],
      files: [{ path: 'src/api.ts', excerpt: 'export const api = 1;' }],
    });
    expect(r).toContain('# Audit of Phase 1 — API');
    expect(r).toContain('- [warning] contract_text src/a.ts: mentions Forge/');
    expect(r).toContain('### src/api.ts\n\n```\nexport const api = 1;\n```');
  });

  it('reads the JSON array from a fenced block with prose around it', () => {
    const text =
      'I checked the phase.\n```json\n[{"severity":"severe","file":"src/api.ts","message":"GET /users is missing"},{"severity":"low","file":null,"message":"naming"}]\n```\nThat is all.';
    expect(parseAuditorFindings(text)).toEqual([
      { severity: 'severe', source: 'auditor', file: 'src/api.ts', message: 'GET /users is missing' },
      { severity: 'warning', source: 'auditor', file: null, message: 'naming' },
    ]);
  });

  it('accepts a bare array, an object with findings, and an empty list as a pass', () => {
    expect(parseAuditorFindings('[{"severity":"info","message":"fine"}]')).toEqual([{ severity: 'info', source: 'auditor', file: null, message: 'fine' }]);
    expect(parseAuditorFindings('{"findings":[{"severity":"critical","path":"a.ts","description":"leak"}]}')).toEqual([
      { severity: 'severe', source: 'auditor', file: 'a.ts', message: 'leak' },
    ]);
    expect(parseAuditorFindings('No problems.\n```json\n[]\n```')).toEqual([]);
  });

  it('turns an unreadable answer into one warning instead of a silent pass or a throw', () => {
    for (const bad of ['AUDIT: PASS, looks good', '```json\n[{"severity": "severe", \n```', '[{"foo": 1}]', '']) {
      const f = parseAuditorFindings(bad);
      expect(f).toHaveLength(1);
      expect(f[0]).toMatchObject({ severity: 'warning', source: 'auditor', file: null });
      expect(f[0]!.message).toContain("The auditor's answer could not be read");
    }
  });
});
