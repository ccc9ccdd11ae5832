import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AnthropicModel, ScriptedModel } from '../../llm';
import { startMockAnthropicServer, type MockAnthropicServer } from '../../llm/testing';
import { phaseWindow } from '../phases';
import { connect, fixture, jsonOf, textOf, type Fixture } from './fixtures';

const GOOD_PLAN = `# Plan: rates monitor

## Phase 0 — Skeleton
Objective: a runnable project with one passing test.
Deliverables: package.json, src/index.ts, a smoke test.
Exit criteria: npm test passes.

## Phase 1 — Data
Objective: load yield curves from CSV.
Deliverables: src/curves.ts with tests.

## Phase 2 — Screen
Objective: show the curve and its daily change.
Deliverables: src/ui.tsx, snapshot test.
`;

let mock: MockAnthropicServer;
let f: Fixture;
beforeAll(async () => {
  mock = await startMockAnthropicServer();
  f = fixture();
});
afterAll(async () => {
  await mock.close();
  f.dispose();
});

describe('forge_run_planner', () => {
  it('runs the planner model in a loop until the plan parses, saves it, and reports phases, usage and the turn trace', async () => {
    mock.enqueue(
      { toolCalls: [{ name: 'read_contract', input: { name: 'stack' } }] },
      { toolCalls: [{ name: 'submit_plan', input: { plan: '## Phase 1 — Oops\nstarts at one and has no siblings' } }] },
      { toolCalls: [{ name: 'submit_plan', input: { plan: GOOD_PLAN } }] },
    );
    const model = new AnthropicModel({ apiKey: () => 'test-key', baseURL: mock.url, defaultModel: 'planner-model', maxRetries: 0 });
    const c = await connect(f, { model: () => model });
    const progress: string[] = [];
    try {
      const r = await c.client.callTool(
        {
          name: 'forge_run_planner',
          arguments: { project_request: 'A rates monitor: yield curves from CSV, shown on one screen.', project_id: 'rates-monitor' },
        },
        undefined,
        { onprogress: (p) => progress.push(`${p.progress}/${p.total}`) },
      );
      expect(r.isError, textOf(r)).toBeFalsy();
      const out = jsonOf<{
        plan_path: string;
        phases: { number: number; name: string }[];
        turns: { turn: number; tool_calls: string[]; note: string }[];
        usage: { input_tokens: number; output_tokens: number };
        contract_version: number;
      }>(r);
      expect(out.phases).toEqual([
        { number: 0, name: 'Skeleton' },
        { number: 1, name: 'Data' },
        { number: 2, name: 'Screen' },
      ]);
      expect(out.turns.map((t) => t.tool_calls)).toEqual([['read_contract'], ['submit_plan'], ['submit_plan']]);
      expect(out.turns[1].note).toMatch(/numbered 0, 1, 2/);
      expect(out.turns[2].note).toBe('plan accepted: 3 phases');
      expect(out.usage.input_tokens).toBeGreaterThan(0);
      expect(out.usage.output_tokens).toBeGreaterThan(0);
      expect(out.contract_version).toBe(1);
      expect(readFileSync(out.plan_path, 'utf8')).toBe(GOOD_PLAN);
      expect(out.plan_path).toMatch(/projects\/rates-monitor\/Forge\/Contracts\/phases\.md$/);
      expect(progress.length).toBeGreaterThanOrEqual(3);

      // The model saw the contract it asked for, and the refusal named the problem.
      const sent = mock.messageRequests().map((q) => JSON.stringify(q.body.messages));
      expect(sent[1]).toContain('The stack contract of the fixture project');
      expect(sent[2]).toMatch(/refused.*numbered 0, 1, 2/);

      // The saved plan is the project's phases contract, and phase windows read it.
      const saved = jsonOf<{ content: string; version: number }>(
        await c.client.callTool({ name: 'forge_get_project_contract', arguments: { project_id: 'rates-monitor', contract_type: 'phases' } }),
      );
      expect(saved.content).toBe(GOOD_PLAN);
      expect(phaseWindow(saved.content, 1).phases.map((p) => p.name)).toEqual(['Data', 'Screen']);
    } finally {
      await c.close();
    }
  });

  it('stops after its turn budget and says why, instead of looping forever', async () => {
    const turns = Array.from({ length: 6 }, () => ({ reply: { text: 'I think the plan should be thoughtful.' } }));
    const model = new ScriptedModel({ name: 'stubborn', turns });
    const c = await connect(f, { model: () => model });
    try {
      const r = await c.client.callTool({ name: 'forge_run_planner', arguments: { project_request: 'Something vague but long enough.' } });
      expect(r.isError).toBe(true);
      expect(textOf(r)).toMatch(/did not produce a usable plan in 6 turns/);
      expect(model.finished).toBe(true);
    } finally {
      await c.close();
    }
  });

  it('plans a project, then forge_get_phase_window reads phase 0 of that plan over MCP', async () => {
    const plan = GOOD_PLAN.replace('# Plan: rates monitor', '# Plan: curve lab');
    const model = new ScriptedModel({
      name: 'planner-e2e',
      turns: [
        {
          expect: { role: 'planner', contains: 'curve lab' },
          reply: { toolCalls: [{ name: 'submit_plan', input: { plan: '## Phase 0 — Only\nno second phase here at all' } }] },
        },
        // The refusal comes back through the agent loop as an error tool result naming the problem.
        {
          expect: { role: 'planner', toolResult: 'submit_plan', isError: true, contains: 'at least 2' },
          reply: { toolCalls: [{ name: 'submit_plan', input: { plan } }] },
        },
      ],
    });
    const c = await connect(f, { model: () => model });
    try {
      const planned = await c.client.callTool({
        name: 'forge_run_planner',
        arguments: { project_request: 'A curve lab: fit Nelson-Siegel curves to daily yields.', project_id: 'curve-lab' },
      });
      expect(planned.isError, textOf(planned)).toBeFalsy();
      const out = jsonOf<{ turns: { tool_calls: string[]; stop_reason: string; note: string }[]; model: string }>(planned);
      expect(out.turns.map((t) => [t.tool_calls, t.stop_reason])).toEqual([
        [['submit_plan'], 'tool_use'],
        [['submit_plan'], 'tool_use'],
      ]);
      expect(out.turns[1].note).toBe('plan accepted: 3 phases');
      // The loop stopped once the plan was saved: no third model call.
      expect(model.turnsUsed).toBe(2);
      expect(out.model).toBe('scripted:planner-e2e');

      const window = await c.client.callTool({ name: 'forge_get_phase_window', arguments: { phase_number: 0, project_id: 'curve-lab' } });
      expect(window.isError, textOf(window)).toBeFalsy();
      const w = jsonOf<{
        phase_number: number;
        total_phases: number;
        phases: { number: number; name: string }[];
        content: string;
        project_id: string;
        contract_version: number;
      }>(window);
      expect(w.project_id).toBe('curve-lab');
      expect(w.contract_version).toBe(1);
      expect(w.total_phases).toBe(3);
      expect(w.phases).toEqual([
        { number: 0, id: '0', name: 'Skeleton' },
        { number: 1, id: '1', name: 'Data' },
      ]);
      expect(w.content).toContain('Objective: a runnable project with one passing test.');
      // Not the contracts folder's phases.md (whose phase 0 is "Genesis").
      expect(w.content).not.toContain('Genesis');

      // A project set for the connection is read the same way, without repeating its id.
      await c.client.callTool({ name: 'forge_set_session', arguments: { project_id: 'curve-lab' } });
      const viaSession = jsonOf<{ phases: { name: string }[] }>(await c.client.callTool({ name: 'forge_get_phase_window', arguments: { phase_number: 1 } }));
      expect(viaSession.phases.map((p) => p.name)).toEqual(['Data', 'Screen']);
    } finally {
      await c.close();
    }
  });

  it('a project with no plan says to run the planner; without a project the folder plan is read', async () => {
    const c = await connect(f);
    try {
      const none = await c.client.callTool({ name: 'forge_get_phase_window', arguments: { phase_number: 0, project_id: 'never-planned' } });
      expect(none.isError).toBe(true);
      expect(textOf(none)).toMatch(/no plan to read a phase from.*forge_run_planner/);
      const folder = jsonOf<{ phases: { name: string }[] }>(await c.client.callTool({ name: 'forge_get_phase_window', arguments: { phase_number: 0 } }));
      expect(folder.phases.map((p) => p.name)).toEqual(['Genesis', 'Storage']);
    } finally {
      await c.close();
    }
  });
});
