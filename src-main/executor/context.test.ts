import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findBundledDir, openWorkspace, type SessionFS, type Workspace } from '../fs';
import { buildSubAgentMessage, extractOutputSummary, resolveRef } from './context';
import { grantTools } from './grants';

let dir: string;
let ws: Workspace;
let files: SessionFS;
beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'forge-ctx-'));
  ws = openWorkspace({ dataDir: dir, bundledSkillsDir: null, seedDir: findBundledDir(join('resources', 'seed')) });
  await ws.ready;
  files = ws.fs.forSession('sess_ctx');
  await files.writeFile('/session/context/ctx_001.md', '# ctx_001 — payrolls\nsource: bls\n---\n## SUMMARY\nPayrolls +90k.\n\n## DATA\nrow 1\nrow 2', {
    actor: 'agent',
  });
  await files.writeFile('/session/results/macro_ctx.md', '## SUMMARY\nClaims up five weeks.\n\n## DETAIL\nlong table', { actor: 'subagent:macro_ctx' });
  await files.writeFile('/session/integration_brief.md', 'Brief: focus on US rates.', { actor: 'agent' });
});
afterAll(() => {
  ws.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('context refs', () => {
  it('resolves each kind of ref at the depth asked for, so a sub-agent sees the evidence it was given', () => {
    expect(resolveRef('V-001:header', files)).toMatch(/^# V-001 — Fed cuts twice more[\s\S]*source: demo\n\[\d+ more lines/);
    const summary = resolveRef('V-001:summary', files);
    expect(summary).toContain('## SUMMARY\nSoftening labour data');
    expect(summary).not.toContain('## THESIS');
    expect(resolveRef('V-001', files)).toContain('## INVALIDATION');
    expect(resolveRef('E-001:header', files)).toMatch(/^# E-001 — /);
    expect(resolveRef('PK-001:summary', files)).toContain('Positions sized from the distance to the stop');
    expect(resolveRef('ctx_001:summary', files)).toContain('Payrolls +90k.');
    expect(resolveRef('ctx_001:summary', files)).not.toContain('row 2');
    expect(resolveRef('macro_ctx', files)).toContain('long table');
    expect(resolveRef('integration_brief', files)).toBe('Brief: focus on US rates.');
    expect(resolveRef('V-999', files)).toBe("(ref 'V-999' not found)");
    expect(resolveRef('no_such_task:summary', files)).toBe("(ref 'no_such_task:summary' not found)");
  });

  it('builds OBJECTIVE / CONTEXT / PRIOR ANALYSIS / NOTES in that order', () => {
    const msg = buildSubAgentMessage(
      { objective: 'Size the payer.', context: ['ctx_001:summary'], notes: 'Use half Kelly.' },
      [['rates', 'Curve steepens.']],
      files,
    );
    const order = [
      'OBJECTIVE:\nSize the payer.',
      'CONTEXT:\n[ctx_001:summary]\n# ctx_001 — payrolls',
      'PRIOR ANALYSIS:\n[From rates]\nCurve steepens.',
      'NOTES:\nUse half Kelly.',
    ];
    const at = order.map((s) => msg.indexOf(s));
    expect(at.every((i) => i >= 0)).toBe(true);
    expect([...at].sort((a, b) => a - b)).toEqual(at);
    expect(msg.split('\n\n---\n\n')).toHaveLength(4);
  });

  it('takes the SUMMARY of an output, or its opening when there is none', () => {
    expect(extractOutputSummary('## SUMMARY\nShort answer.\n\n## DETAIL\nx')).toBe('Short answer.');
    expect(extractOutputSummary('No headings at all.')).toBe('No headings at all.');
    expect(extractOutputSummary('word '.repeat(300)).length).toBeLessThanOrEqual(601);
  });
});

describe('tool grants', () => {
  it('grants read always, adds only search, fetch and run_script, and refuses write, dispatch and the rest', () => {
    expect(grantTools(['read', 'search', 'fetch', 'run_script'])).toEqual({ granted: ['read', 'search', 'fetch', 'run_script'], refused: [] });
    expect(grantTools(['write', 'Fetch', 'dispatch', 'review', 'compact', 'Bash(git:*)'])).toEqual({
      granted: ['read', 'fetch'],
      refused: ['write', 'dispatch', 'review', 'compact', 'bash'],
    });
    expect(grantTools([])).toEqual({ granted: ['read'], refused: [] });
  });
});
