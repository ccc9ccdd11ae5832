import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { TaskRecord } from '../executor';
import { parseRecord } from '../fs';
import { defaultGuardrailLimits } from '../guardrails';
import { ScriptedModel, type ScenarioInput } from '../llm';
import { SkillLoader } from '../skills';
import { openTestWorkspace, type TestWorkspace } from '../tools/testing';
import { buildDelegation, type Delegation } from './delegation';

/**
 * A synthesis task end to end, as the app wires it (buildDelegation): the real executor, the
 * repository's portfolio-synthesis skill, the agent loop, a seeded SQLite-backed ForgeFS, the
 * write pipeline with its limits and review gate — only the model is scripted.
 */
const SKILLS = fileURLToPath(new URL('../../skills', import.meta.url));
const SESSION = 'sess_synth';

let t: TestWorkspace;
let skills: SkillLoader;
let d: Delegation | null;
beforeEach(async () => {
  t = await openTestWorkspace();
  skills = new SkillLoader(SKILLS);
  d = null;
});
afterEach(async () => {
  await d?.close();
  skills.close();
  t.close();
});

const yaml = (s: string) => `\`\`\`yaml\n${s}\n\`\`\``;
const VIEW_UPDATE = `- view_id: V-001
  prior_confidence: 0.7
  updated_confidence: 0.75
  direction: strengthened
  key_evidence: "Continuing claims at a cycle high on 2026-11-19"`;
const SMALL_TRADE = `- title: "Receive 5y SOFR on softer claims"
  view_id: V-001
  instrument: "USD 5y SOFR swap (receive fixed)"
  notional: 2
  max_loss_pct: 0.2
  duration_impact: 0.1
  factor: us_rates
  rationale: "Claims keep rising; the belly under-prices a second cut."`;
const LESSON = `- title: "Weight claims over payrolls in a hiring freeze"
  lesson: "Claims turned two months before payrolls in both 2024 slowdowns."
  category: macro_signals`;

function synthesis(o: { views?: string; trades?: string; pk?: string; implications?: string } = {}): string {
  return [
    '## SUMMARY',
    'Labour data softened again; the Fed View strengthens.',
    '',
    '## VIEW UPDATES',
    yaml(o.views ?? VIEW_UPDATE),
    '',
    '## EXPRESSION IMPLICATIONS',
    yaml(o.implications ?? '- expression_id: E-001\n  action: hold\n  urgency: monitoring'),
    '',
    ...(o.trades ? ['## NEW EXPRESSIONS', yaml(o.trades), ''] : []),
    ...(o.pk ? ['## PROCESS KNOWLEDGE', yaml(o.pk), ''] : []),
    '## DISAGREEMENTS',
    '- none',
    '',
    '## OPEN QUESTIONS',
    '- ECB timing',
    '',
    '## NEXT ACTIONS',
    '- watch claims on Thursday',
  ].join('\n');
}

async function run(scenario: ScenarioInput): Promise<{ task: TaskRecord; model: ScriptedModel }> {
  const model = new ScriptedModel(scenario);
  d = buildDelegation({ fs: t.ws.fs, skills, model, providers: t.providers, limits: () => defaultGuardrailLimits, search: (r) => t.index.search(r) });
  d.executor.submit(SESSION, { id: 'synth', skill: 'portfolio-synthesis', objective: 'Synthesise the labour-market analyses for the PM.' });
  const task = await d.executor.waitFor(SESSION, 'synth');
  return { task, model };
}

const auditActors = (path: string) => t.ws.store.audit.list({ path, limit: 20 }).map((r) => r.actor);
const recordCount = (folder: string) => t.ws.fs.listDir(folder, undefined, { limit: 500 }).entries.length;

describe('a synthesis task writes its YAML updates through the write pipeline', () => {
  it('good YAML: the View, a proposed Expression and a PK record exist, written as the sub-agent, and the task result says so', async () => {
    const expressionsBefore = recordCount('/memory/expressions/');
    const { task, model } = await run({
      name: 'synthesis-good',
      turns: [
        { expect: { role: 'synthesis', contains: 'Synthesise the labour-market analyses' }, reply: { text: synthesis({ trades: SMALL_TRADE, pk: LESSON }) } },
        // The new Expression passed the limits but had no review: the independent reviewer runs, then the gate.
        {
          expect: { role: 'review', contains: 'OUTPUT TO REVIEW:\n# new — Receive 5y SOFR on softer claims' },
          reply: { text: 'Small, stop-sized, consistent with V-001.\nVERDICT: approve' },
        },
      ],
    });
    expect(task.error).toBeNull();
    expect(task.status).toBe('ok');
    expect(model.finished).toBe(true);

    const view = parseRecord(t.ws.fs.readFile('/memory/views/V-001.md'));
    expect(view.header.confidence).toBe(0.75);
    expect(view.body).toContain('## UPDATE');
    expect(auditActors('/memory/views/V-001.md')[0]).toBe('subagent:synth');

    const added = t.ws.fs.listDir('/memory/expressions/', 'source:synthesis', { limit: 10 }).entries;
    expect(added).toHaveLength(1);
    expect(recordCount('/memory/expressions/')).toBe(expressionsBefore + 1);
    const expr = parseRecord(t.ws.fs.readFile(added[0]!.path));
    expect(expr.header.status).toBe('proposed');
    expect(expr.header.notional).toBe(2);
    expect(auditActors(added[0]!.path)).toEqual(['subagent:synth']);

    const pk = t.ws.fs.listDir('/memory/pk/', 'source:synthesis', { limit: 10 }).entries;
    expect(pk).toHaveLength(1);
    const lesson = parseRecord(t.ws.fs.readFile(pk[0]!.path));
    expect(lesson.title).toBe('Weight claims over payrolls in a hiring freeze');
    expect(lesson.header.weight).toBe(0.3);
    expect(auditActors(pk[0]!.path)).toEqual(['subagent:synth']);

    expect(task.summary).toContain('Memory updates: 3 written (V-001, ');
    expect(task.summary).toContain('1 for the PM (E-001: hold (monitoring))');
    const result = t.ws.fs.forSession(SESSION).readFile(task.resultPath!);
    expect(result).toContain('## MEMORY UPDATES');
    expect(result).toContain(`- Written: new Expression "Receive 5y SOFR on softer claims"`);
    expect(result).toContain('(status proposed)');
  });

  it('malformed YAML then repaired: exactly two model calls, the second told the error, and the records are written', async () => {
    const broken = synthesis().replace('updated_confidence: 0.75', 'updated_confidence: 1.75');
    const { task, model } = await run({
      name: 'synthesis-repair',
      turns: [
        { expect: { role: 'synthesis' }, reply: { text: broken } },
        {
          expect: { role: 'synthesis', contains: ['VIEW UPDATES block, field [0].updated_confidence', 'Nothing has been written to memory'] },
          reply: { text: synthesis() },
        },
      ],
    });
    expect(task.status).toBe('ok');
    expect(model.turnsUsed).toBe(2);
    expect(task.rounds).toBe(2);
    expect(parseRecord(t.ws.fs.readFile('/memory/views/V-001.md')).header.confidence).toBe(0.75);
    expect(d!.executor.events(SESSION, 'synth').map((e) => e.kind)).toContain('synthesis_repair');
    // The stored result is the repaired output, not the broken one.
    expect(t.ws.fs.forSession(SESSION).readFile(task.resultPath!)).toContain('updated_confidence: 0.75');
  });

  it('malformed twice: the task fails with the parse error and nothing is written, not even the result file', async () => {
    const viewBefore = t.ws.fs.readFile('/memory/views/V-001.md');
    const auditBefore = t.ws.store.audit.list({ limit: 1 })[0]!.seq;
    const broken = synthesis().replace('direction: strengthened', 'direction: sideways');
    const { task, model } = await run({
      name: 'synthesis-broken',
      turns: [{ reply: { text: broken } }, { reply: { text: broken } }],
    });
    expect(model.turnsUsed).toBe(2);
    expect(task.status).toBe('failed');
    expect(task.failure).toBe('output');
    expect(task.error).toContain("The synthesis's YAML could not be read, even after one repair: Synthesis VIEW UPDATES block, field [0].direction");
    expect(task.error).toContain('Nothing was written to memory');
    expect(task.resultPath).toBeNull();
    expect(t.ws.fs.readFile('/memory/views/V-001.md')).toBe(viewBefore);
    expect(t.ws.store.audit.list({ limit: 1 })[0]!.seq).toBe(auditBefore);
  });

  it('an Expression that breaks a hard limit is not written (and not sent for review); the task result names the limit', async () => {
    const oversized = SMALL_TRADE.replace('notional: 2', 'notional: 400').replace('max_loss_pct: 0.2', 'max_loss_pct: 25');
    const expressionsBefore = recordCount('/memory/expressions/');
    const { task, model } = await run({
      name: 'synthesis-limit',
      // One call only: a review after this would be a divergence (ScriptDivergedError fails the task).
      turns: [{ expect: { role: 'synthesis' }, reply: { text: synthesis({ trades: oversized }) } }],
    });
    expect(task.status).toBe('ok');
    expect(model.turnsUsed).toBe(1);
    expect(recordCount('/memory/expressions/')).toBe(expressionsBefore);
    expect(task.summary).toMatch(/1 not written \(Receive 5y SOFR on softer claims: max_single_risk: actual 25, limit \d+/);
    const result = t.ws.fs.forSession(SESSION).readFile(task.resultPath!);
    expect(result).toMatch(/- Not written: new Expression "Receive 5y SOFR on softer claims".* — max_single_risk: actual 25/);
    // The valid View update in the same synthesis still went through.
    expect(parseRecord(t.ws.fs.readFile('/memory/views/V-001.md')).header.confidence).toBe(0.75);
    expect(d!.executor.events(SESSION, 'synth').filter((e) => e.kind === 'memory_refused')).toHaveLength(1);
  });
});
