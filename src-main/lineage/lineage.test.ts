import { cpSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startDemo, type DemoRun } from '../agent/demo';
import { SkillVersionStore } from '../evolution';
import { findBundledDir, sha256 } from '../fs';
import { defaultGuardrailLimits } from '../guardrails';
import { SkillLoader } from '../skills';
import { applyWrite, approveExpression, rejectExpression } from '../tools';
import { buildLineage } from './build';
import { lineageMarkdown } from './markdown';
import { skillVersionLookup } from './skill-versions';

/**
 * The offline demo run for real (scripted model, real loop, tools, sub-agents, guardrails, SQLite)
 * on a temp workspace, then the PM approves E-004: its lineage must trace everything that shaped it.
 * The skills are a copy whose SKILL.md has a recorded version 1, so the trace can name the version.
 */
let dataDir: string;
let skillsDir: string;
let skills: SkillLoader;
let run: DemoRun;
let skillHash: string;

beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'forge-lineage-'));
  skillsDir = mkdtempSync(join(tmpdir(), 'forge-lineage-skills-'));
  cpSync(findBundledDir('skills')!, skillsDir, { recursive: true });
  const skillText = readFileSync(join(skillsDir, 'context-retrieval', 'SKILL.md'), 'utf8');
  skillHash = sha256(skillText);
  new SkillVersionStore(join(skillsDir, 'context-retrieval')).ensureRecorded('SKILL.md', skillText, '2026-11-01T00:00:00.000Z');
  skills = new SkillLoader(skillsDir, { mode: 'lenient' });
  run = await startDemo({ dataDir, skills });
  const out = await run.done;
  expect(out.stop).toBe('answered');
  const approved = await approveExpression(run.workspace.fs, 'E-004', defaultGuardrailLimits);
  expect(approved.status).toBe('active');
}, 120_000);

afterAll(async () => {
  await run?.close();
  skills?.close();
  rmSync(dataDir, { recursive: true, force: true });
  rmSync(skillsDir, { recursive: true, force: true });
});

const lineage = (id = 'E-004') => buildLineage(run.workspace.fs, id, { skillVersion: skillVersionLookup((s) => join(skillsDir, s)) });

describe('decision lineage of the demo Expression', () => {
  it('traces the approved trade to both sub-agents, the skill version they loaded, the guardrail figures, the review and the PM — in time order', () => {
    // If this failed, a PM tracing E-004 would not see what shaped it: the tasks, the skill text, the blocked size, the verdict or their own approval.
    const view = lineage();
    expect(view).toMatchObject({ id: 'E-004', status: 'active', title: 'Receive 5y SOFR, sized from the stop' });
    expect(view.sessionId).toMatch(/^sess_/);
    const kinds = view.steps.map((s) => s.kind);

    const tasks = view.steps.filter((s) => s.kind === 'task');
    expect(tasks.map((t) => t.title)).toEqual(['Sub-agent task labour_ctx (context-retrieval) — ok', 'Sub-agent task curve_ctx (context-retrieval) — ok']);
    expect(tasks[0]!.summary).toContain('payroll growth keeps fading');
    expect(tasks[0]!.links).toEqual([`/session/${view.sessionId}/results/labour_ctx.md`]);

    const loaded = view.steps.filter((s) => s.kind === 'skill');
    expect(loaded).toHaveLength(2);
    for (const s of loaded) {
      expect(s.figures).toContainEqual({ label: 'SKILL.md sha256', value: skillHash.slice(0, 16) });
      expect(s.figures).toContainEqual({ label: 'version', value: '1' });
    }

    const guard = view.steps.find((s) => s.kind === 'guardrail')!;
    expect(guard.figures).toEqual(
      expect.arrayContaining([
        { label: 'max_single_risk actual', value: '6' },
        { label: 'max_single_risk limit', value: '5' },
        { label: 'max_gross_exposure actual', value: '217.5' },
        { label: 'max_gross_exposure limit', value: '200' },
      ]),
    );

    const review = view.steps.find((s) => s.kind === 'review')!;
    expect(review.title).toBe('Reviewer: approve_with_notes — of the text proposed');

    const fetches = view.steps.filter((s) => s.kind === 'fetch');
    expect(fetches.length).toBe(4); // two by the sub-agents, two by the analyst
    expect(fetches.every((f) => f.figures.some((x) => x.label === 'as of' && /^\d{4}-\d{2}-\d{2}$/.test(x.value)))).toBe(true);

    const viewStep = view.steps.find((s) => s.kind === 'view')!;
    expect(viewStep.title).toMatch(/^View V-001: /);
    expect(view.steps.filter((s) => s.kind === 'read').map((s) => s.links[0])).toEqual(['/memory/views/V-001.md', '/portfolio/book.md']);

    const decision = view.steps.find((s) => s.kind === 'decision')!;
    expect(decision.title).toBe('PM approved E-004');

    // Time order: the View, then the session's work, the review, the proposal's own check, the
    // proposal, approval's re-check and last the PM.
    const order = (k: string) => kinds.indexOf(k as (typeof kinds)[number]);
    expect(order('view')).toBe(0);
    expect(order('task')).toBeLessThan(order('guardrail'));
    expect(order('guardrail')).toBeLessThan(order('review'));
    expect(order('review')).toBeLessThan(order('proposal'));
    expect(kinds.slice(-4)).toEqual(['guardrail', 'proposal', 'guardrail', 'decision']);
    const times = view.steps.map((s) => s.at).filter((t): t is string => t !== null);
    expect(times).toEqual([...times].sort());
    expect(view.steps.every((s) => s.recorded)).toBe(true);
  });

  it('shows the guardrail check at the proposal and the one approval ran, each with every limit, its figure and its result', () => {
    // If this failed, a PM tracing the booked E-004 would see figures only for the blocked draft, and
    // "not recorded" for what the trade actually passed when proposed and again when approved.
    const view = lineage();
    const checks = view.steps.filter((s) => s.kind === 'guardrail');
    expect(checks.map((c) => c.title)).toEqual([
      'Guardrails blocked a write to /memory/expressions/new.md',
      'Guardrails passed at the proposal — all 5 limits pass',
      'Guardrails passed at approval — all 5 limits pass',
    ]);
    for (const check of checks.slice(1)) {
      expect(check.links).toEqual(['/memory/expressions/E-004.md']);
      expect(check.figures).toEqual(
        expect.arrayContaining([
          { label: 'expression_requires_view actual', value: 'V-001' },
          { label: 'max_single_risk actual', value: '0.4' },
          { label: 'max_single_risk limit', value: '5' },
          { label: 'max_single_risk result', value: 'pass' },
          { label: 'max_gross_exposure actual', value: '146' },
          { label: 'max_gross_exposure limit', value: '200' },
          { label: 'max_factor_concentration actual', value: '29.8' }, // stored unrounded, printed as the page prints it
          { label: 'max_factor_concentration limit', value: '30' },
          { label: 'max_duration_contribution actual', value: '0.3' },
          { label: 'max_duration_contribution limit', value: '5' },
          { label: 'book as of', value: '2026-11-20' },
        ]),
      );
      expect(check.figures.filter((f) => f.label.endsWith(' result')).map((f) => f.value)).toEqual(['pass', 'pass', 'pass', 'pass', 'pass']);
    }
    const [, atProposal, atApproval] = checks;
    const proposal = view.steps.find((s) => s.kind === 'proposal')!;
    const decision = view.steps.find((s) => s.kind === 'decision')!;
    expect(atProposal!.at! <= proposal.at!).toBe(true);
    expect(atApproval!.at! <= decision.at!).toBe(true);
    expect(proposal.at! <= atApproval!.at!).toBe(true);
    expect(atProposal!.summary).toContain('Checked for the analyst');
    expect(atApproval!.summary).toContain('Checked for the PM approving it');
    expect(decision.summary).not.toContain('not recorded');
    expect(decision.summary).toContain(`guardrail step at ${atApproval!.at}`);
  });

  it('exports one Markdown document with every step, its time, figures and record paths', () => {
    // If this failed, the file a PM keeps in their decision journal would miss what the screen shows.
    const view = lineage();
    const md = lineageMarkdown(view, '2026-11-28T00:00:00.000Z');
    expect(md.startsWith('# Decision lineage — E-004: Receive 5y SOFR, sized from the stop\n')).toBe(true);
    expect(md).toContain('· task — Sub-agent task labour_ctx (context-retrieval) — ok');
    expect(md).toContain('· task — Sub-agent task curve_ctx (context-retrieval) — ok');
    expect(md).toContain('· skill — Task labour_ctx loaded skill context-retrieval');
    expect(md).toContain('- max_single_risk actual: 6');
    expect(md).toContain('· guardrail — Guardrails passed at the proposal — all 5 limits pass');
    expect(md).toContain('· guardrail — Guardrails passed at approval — all 5 limits pass');
    expect(md).toContain('- max_gross_exposure actual: 146');
    expect(md).toContain('- max_factor_concentration limit: 30');
    expect(md).toContain('- max_duration_contribution result: pass');
    expect(md).toContain('· review — Reviewer: approve_with_notes');
    expect(md).toContain('· decision — PM approved E-004');
    expect(md).toContain(`- \`/session/${view.sessionId}/results/curve_ctx.md\``);
    expect(md.match(/^## \d+\. /gm)).toHaveLength(view.steps.length);
  });

  it('answers an unknown Expression with a typed not-found, and a bad id as bad input', () => {
    // If this failed, the Lineage page would show an empty trace (or crash) instead of saying there is no such Expression.
    expect(() => lineage('E-999')).toThrow(expect.objectContaining({ code: 'not_found' }));
    expect(() => lineage('V-001')).toThrow(expect.objectContaining({ code: 'invalid_input' }));
  });

  it("traces a PM's own declined Expression to the PM, the reason and its Counterfactual, and says no session shaped it", async () => {
    // If this failed, a declined idea's trace would invent a session or lose the PM's reason.
    const fs = run.workspace.fs;
    const content =
      '# new — Pay 10y on a hawkish surprise\nstatus: proposed\nview_id: V-001\ninstrument: UST 10y future (short)\nnotional: 2\nmax_loss_pct: 0.3\nduration_impact: -0.2\nfactor: us_rates\nconfidence: 0.7\n---\n## SUMMARY\nA small hedge.\n';
    const written = await fs.writeFile('/memory/expressions/new.md', content, { actor: 'pm' });
    const id = written.path.match(/E-\d+/)![0];
    await rejectExpression(fs, id, 'Hedging against my own View is not worth the carry.', defaultGuardrailLimits);
    const view = lineage(id);
    expect(view.sessionId).toBeNull();
    expect(view.steps.filter((s) => s.kind === 'gap').map((s) => s.title)).toEqual(['No analyst session', 'Guardrail checks not recorded']);
    expect(view.steps.find((s) => s.kind === 'decision')).toMatchObject({
      title: `PM declined ${id}`,
      summary: 'Reason: Hedging against my own View is not worth the carry.',
    });
    const cf = view.steps.filter((s) => s.kind === 'counterfactual');
    expect(cf).toHaveLength(1);
    expect(cf[0]!.links[0]).toMatch(/^\/memory\/counterfactuals\/CF-\d+\.md$/);
  });

  it('keeps the figures each check measured then: an approval refused under tighter limits shows its failing figure, the proposal keeps its own', async () => {
    // If this failed, a trace would recompute the figures against today's book and limits (rewriting what
    // the PM saw), or a refused approval would leave no trace of the limit that stopped it.
    const fs = run.workspace.fs;
    const content =
      '# new — Small FX hedge\nstatus: proposed\nview_id: V-001\ninstrument: EURUSD forward\nnotional: 1\nmax_loss_pct: 0.3\nduration_impact: 0\nfactor: fx\nconfidence: 0.7\n---\n## SUMMARY\nA small hedge.\n';
    // Through the write pipeline, as the PM's memory/write does: the proposal is checked there.
    const written = await applyWrite(fs, '/memory/expressions/new.md', content, { actor: 'pm' }, { limits: defaultGuardrailLimits });
    expect(written.ok).toBe(true);
    const id = written.path!.match(/E-\d+/)![0];
    const tighter = { ...defaultGuardrailLimits, maxSingleRisk: 0.25 };
    const refused = await approveExpression(fs, id, tighter);
    expect(refused.approved).toBe(false);
    const checks = lineage(id).steps.filter((s) => s.kind === 'guardrail');
    expect(checks.map((c) => c.title)).toEqual([
      'Guardrails passed at the proposal — all 5 limits pass',
      'Guardrails refused the approval — 1 of 5 limits failed',
    ]);
    expect(checks[0]!.figures).toEqual(
      expect.arrayContaining([
        { label: 'max_single_risk limit', value: '5' },
        { label: 'max_single_risk result', value: 'pass' },
      ]),
    );
    expect(checks[1]!.figures).toEqual(
      expect.arrayContaining([
        { label: 'max_single_risk actual', value: '0.3' },
        { label: 'max_single_risk limit', value: '0.25' },
        { label: 'max_single_risk result', value: 'fail' },
      ]),
    );
    expect(checks[1]!.summary).toContain('max_single_risk: 0.3 against 0.25 — fail');
  });
});
