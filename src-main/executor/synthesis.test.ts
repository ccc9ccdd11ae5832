import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findBundledDir, openWorkspace, parseRecord, sha256, type Workspace } from '../fs';
import { parseSynthesis, planSynthesisUpdates, SynthesisContractError } from './synthesis';

const synthesis = (views: string, expressions: string) => `## SUMMARY
Labour data softened again; the Fed View strengthens.

## VIEW UPDATES
\`\`\`yaml
${views}
\`\`\`

## EXPRESSION IMPLICATIONS
\`\`\`yaml
${expressions}
\`\`\`

## DISAGREEMENTS
- none
`;

const goodViews = `- view_id: V-001
  prior_confidence: 0.7
  updated_confidence: 0.75
  direction: strengthened
  scenario_changes:
    - scenario: "Base"
      prior_probability: 0.60
      updated_probability: 0.65
    - scenario: "Bear"
      prior_probability: 0.20
      updated_probability: 0.15
  key_evidence: "Continuing claims 1.97m on 2026-11-19, a new cycle high"`;

const goodExpressions = `- expression_id: E-001
  action: adjust
  adjustment: "add 20% to the 2y payer"
  urgency: next_session
- expression_id: E-002
  action: hold
  urgency: monitoring`;

function errorOf(text: string): SynthesisContractError {
  try {
    parseSynthesis(text);
  } catch (e) {
    if (e instanceof SynthesisContractError) return e;
    throw e;
  }
  throw new Error('expected a SynthesisContractError');
}

describe('synthesis output contract', () => {
  it('reads both blocks into typed updates', () => {
    const c = parseSynthesis(synthesis(goodViews, goodExpressions));
    expect(c.viewUpdates).toEqual([
      {
        view_id: 'V-001',
        prior_confidence: 0.7,
        updated_confidence: 0.75,
        direction: 'strengthened',
        scenario_changes: [
          { scenario: 'Base', prior_probability: 0.6, updated_probability: 0.65 },
          { scenario: 'Bear', prior_probability: 0.2, updated_probability: 0.15 },
        ],
        key_evidence: 'Continuing claims 1.97m on 2026-11-19, a new cycle high',
      },
    ]);
    expect(c.expressionImplications.map((e) => [e.expression_id, e.action, e.urgency, e.adjustment])).toEqual([
      ['E-001', 'adjust', 'next_session', 'add 20% to the 2y payer'],
      ['E-002', 'hold', 'monitoring', ''],
    ]);
  });

  it('accepts [] when nothing is affected', () => {
    expect(parseSynthesis(synthesis('[]', '[]'))).toEqual({ viewUpdates: [], expressionImplications: [], newExpressions: [], processKnowledge: [] });
  });

  it("parses the skill's own template example once its placeholders are filled", () => {
    const template = readFileSync(new URL('../../skills/portfolio-synthesis/templates/synthesis.md', import.meta.url), 'utf8')
      .replace('V-NNN', 'V-002')
      .replace('E-NNN', 'E-003');
    const c = parseSynthesis(template);
    expect(c.viewUpdates[0]!.view_id).toBe('V-002');
    expect(c.expressionImplications[0]!.action).toBe('hold');
  });

  it('names the block and field of a malformed item, so the sub-agent can fix exactly that', () => {
    const e1 = errorOf(synthesis(goodViews.replace('updated_confidence: 0.75', 'updated_confidence: 1.4'), '[]'));
    expect(e1.block).toBe('VIEW UPDATES');
    expect(e1.field).toBe('[0].updated_confidence');
    expect(e1.message).toMatch(/^Synthesis VIEW UPDATES block, field \[0\]\.updated_confidence: /);
    expect(e1.code).toBe('invalid_input');

    const e2 = errorOf(synthesis('[]', goodExpressions.replace('action: hold', 'action: double_down')));
    expect([e2.block, e2.field]).toEqual(['EXPRESSION IMPLICATIONS', '[1].action']);

    const e3 = errorOf(synthesis('[]', '- expression_id: E-001\n  action: adjust\n  urgency: immediate'));
    expect([e3.block, e3.field]).toEqual(['EXPRESSION IMPLICATIONS', '[0].adjustment']);

    const e4 = errorOf(synthesis(goodViews.replace('V-001', 'the Fed view'), '[]'));
    expect([e4.block, e4.field]).toEqual(['VIEW UPDATES', '[0].view_id']);

    const e5 = errorOf(synthesis(goodViews + '\n  conviction: high', '[]'));
    expect(e5.block).toBe('VIEW UPDATES');
    expect(e5.message).toContain('conviction');
  });

  it('reports a missing section, a missing yaml fence and broken yaml by block', () => {
    const noExpr = synthesis(goodViews, '[]').replace(/## EXPRESSION IMPLICATIONS[\s\S]*?## DISAGREEMENTS/, '## DISAGREEMENTS');
    expect(errorOf(noExpr).block).toBe('EXPRESSION IMPLICATIONS');
    expect(errorOf(noExpr).message).toContain('missing');
    const noFence = synthesis(goodViews, '[]').replace(/## VIEW UPDATES\n```yaml\n([\s\S]*?)```/, '## VIEW UPDATES\n$1');
    expect(errorOf(noFence).message).toContain('no fenced');
    const broken = errorOf(synthesis('- view_id: V-001\n  prior_confidence: [0.7', '[]'));
    expect(broken.block).toBe('VIEW UPDATES');
    expect(broken.message).toContain('does not parse');
  });

  it('reads the optional NEW EXPRESSIONS and PROCESS KNOWLEDGE blocks, and names a bad field in them', () => {
    const extra = `${synthesis('[]', '[]')}
## NEW EXPRESSIONS
\`\`\`yaml
- title: "Pay 10y SOFR into supply"
  view_id: V-002
  instrument: "USD 10y SOFR swap (pay fixed)"
  notional: 5
  max_loss_pct: 0.4
  duration_impact: -0.3
  factor: us_rates
  rationale: "Supply pressure lifts term premium."
\`\`\`

## PROCESS KNOWLEDGE
\`\`\`yaml
- title: "Check auction calendars before sizing duration"
  lesson: "Two of three losing duration trades entered the week of a heavy auction."
  category: sizing
\`\`\`
`;
    const c = parseSynthesis(extra);
    expect(c.newExpressions).toEqual([
      {
        title: 'Pay 10y SOFR into supply',
        view_id: 'V-002',
        instrument: 'USD 10y SOFR swap (pay fixed)',
        notional: 5,
        max_loss_pct: 0.4,
        duration_impact: -0.3,
        factor: 'us_rates',
        rationale: 'Supply pressure lifts term premium.',
        exit_rules: '',
      },
    ]);
    expect(c.processKnowledge).toEqual([
      {
        title: 'Check auction calendars before sizing duration',
        lesson: 'Two of three losing duration trades entered the week of a heavy auction.',
        category: 'sizing',
        weight: 0.3,
      },
    ]);
    const bad = errorOf(extra.replace('notional: 5', 'notional: lots'));
    expect([bad.block, bad.field]).toEqual(['NEW EXPRESSIONS', '[0].notional']);
    // A trade with no factor would skip the concentration limit: the sub-agent is told to name one.
    const noFactor = errorOf(extra.replace('  factor: us_rates\n', ''));
    expect([noFactor.block, noFactor.field]).toEqual(['NEW EXPRESSIONS', '[0].factor']);
    const badPk = errorOf(extra.replace('category: sizing', 'category: Sizing Rules'));
    expect([badPk.block, badPk.field]).toEqual(['PROCESS KNOWLEDGE', '[0].category']);
  });

  describe('as proposed memory updates', () => {
    let dir: string;
    let ws: Workspace;
    beforeAll(async () => {
      dir = mkdtempSync(join(tmpdir(), 'forge-synth-'));
      ws = openWorkspace({ dataDir: dir, bundledSkillsDir: null, seedDir: findBundledDir(join('resources', 'seed')) });
      await ws.ready;
    });
    afterAll(() => {
      ws.close();
      rmSync(dir, { recursive: true, force: true });
    });

    it('turns a View update into the exact new record text: confidence, scenario odds and a dated note', () => {
      const c = parseSynthesis(synthesis(goodViews, goodExpressions));
      const [view, e1, e2] = planSynthesisUpdates(c, ws.fs, '2026-11-21');
      const before = ws.fs.readFile('/memory/views/V-001.md');
      expect(view!.path).toBe('/memory/views/V-001.md');
      expect(view!.baseHash).toBe(sha256(before));
      expect(view!.warnings).toEqual([]);
      const doc = parseRecord(view!.proposedContent!);
      expect(doc.header.confidence).toBe(0.75);
      expect(doc.header.status).toBe('active');
      expect(doc.body).toContain('- Base (65%): two 25bp Fed cuts by March');
      expect(doc.body).toContain('- Bear (15%): inflation re-accelerates');
      expect(doc.body).toContain('- Bull (20%)');
      expect(doc.body).toContain('## UPDATE 2026-11-21 (synthesis)\n- Confidence 0.7 → 0.75 (strengthened).\n- Base: 60% → 65%.');
      expect(e1).toMatchObject({ kind: 'expression_action', target: 'E-001', proposedContent: null, urgency: 'next_session' });
      expect(e1!.summary).toBe('E-001: adjust — add 20% to the 2y payer (next session)');
      expect(e2!.summary).toBe('E-002: hold (monitoring)');
    });

    it('warns when the synthesis assumed a different prior or names a missing scenario or View', () => {
      const text = synthesis(
        `${goodViews.replace('prior_confidence: 0.7', 'prior_confidence: 0.5').replace('"Bear"', '"Stagflation"')}
- view_id: V-999
  prior_confidence: 0.5
  updated_confidence: 0.2
  direction: invalidated
  key_evidence: "n/a"`,
        '[]',
      );
      const [v1, v999] = planSynthesisUpdates(parseSynthesis(text), ws.fs, '2026-11-21');
      expect(v1!.warnings).toEqual([
        'The synthesis assumed prior confidence 0.5, but memory says 0.7.',
        'Scenario "Stagflation" was not found in V-001\'s SCENARIOS; its probability was not changed.',
      ]);
      expect(v999!.proposedContent).toBeNull();
      expect(v999!.warnings[0]).toContain('not in memory');
    });
  });
});
