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
        { name: 'forge_run_planner', arguments: { project_request: 'A rates monitor: yield curves from CSV, shown on one screen.', project_id: 'rates-monitor' } },
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
});
