import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { packageRoot } from '../../common/package-root';
import { trackerWriter } from '../../fs';
import { defaultGuardrailLimits } from '../../guardrails';
import { createGovernanceServer, defineMcpTool, type GovernanceTool } from '../../mcp';
import { ProviderRegistry } from '../../providers';
import { SkillLoader } from '../../skills';
import { analystTools, runTool, subAgentToolFactory, writeTool } from '../../tools';
import type { AnalystToolContext } from '../../tools/context';
import { openTestWorkspace, type TestWorkspace } from '../../tools/testing';
import { computeCalibration } from '../../tracking';
import type { Core } from '../core';
import { mcpStateFor, setMcpAnalystTools } from '../handlers/mcp';
import { tempCore } from '../testing';

/**
 * Calibration is computed, never typed in (issue #26 §4): through each door that writes memory —
 * the analyst's write tool, a sub-agent, the PM's memory/write, an attached IDE — a hand-written
 * Outcome, a Counterfactual marked won or an edited calibration file is refused with `forbidden`
 * naming the tracker. If these fail, the PM's calibration (and the reviewer's, and the analyst's
 * prompt line) could count trades that never happened.
 */

const WINNING_OUTCOME = [
  '# new — Outcome of E-001: a winner',
  'expression: E-001',
  'view_id: V-001',
  'status: resolved',
  'category: macro_regime',
  'confidence: 0.9',
  'hit: true',
  'pnl_bp: 500',
  'exit_date: 2026-01-20',
  '---',
  '## SUMMARY',
  'Hit its target.',
].join('\n');

/** A real resolved Outcome, as the tracker writes it: calibration has something to protect. */
async function trackerOutcome(fs: TestWorkspace['ws']['fs']): Promise<void> {
  await fs.writeFile('/memory/outcomes/new.md', WINNING_OUTCOME.replace('hit: true', 'hit: false').replaceAll('E-001', 'E-002'), trackerWriter());
}

const outcomesOf = (fs: TestWorkspace['ws']['fs'], expr: string) => fs.listDir('/memory/outcomes/', `expression:${expr}`).entries;

describe("the analyst's write tool and a sub-agent's", () => {
  let t: TestWorkspace;
  afterEach(() => t?.close());

  it('the analyst writing a resolved Outcome, editing one, or editing a calibration file is refused, naming the tracker; calibration is unchanged', async () => {
    t = await openTestWorkspace();
    const fs = t.ws.fs;
    await trackerOutcome(fs);
    const calibration = computeCalibration(fs.store);
    expect(calibration.n).toBe(1);
    const tools = analystTools({ providers: t.providers });
    const ctx = t.context();

    const fresh = await runTool(tools, 'write', { path: '/memory/outcomes/new.md', content: WINNING_OUTCOME }, ctx);
    expect(fresh.isError).toBe(true);
    expect(fresh.content).toMatch(/^write failed \[forbidden\]: Outcomes are recorded only by Forge's tracker when an Expression closes/);
    expect(fresh.content).toContain('The analyst cannot write');

    const existing = fs.readFile('/memory/outcomes/OUT-001.md');
    const flipped = await runTool(tools, 'write', { path: '/memory/outcomes/OUT-001.md', content: existing.replace('hit: false', 'hit: true') }, ctx);
    expect(flipped.content).toMatch(/\[forbidden\].*The analyst cannot change \/memory\/outcomes\/OUT-001\.md/);

    const file = fs.readFile('/memory/calibration/macro_regime.md');
    const cal = await runTool(tools, 'write', { path: '/memory/calibration/macro_regime.md', content: file.replace(/\n---/, '\nhit_rate: 1\n---') }, ctx);
    expect(cal.content).toMatch(/\[forbidden\]: Calibration files are computed only by Forge's tracker/);

    const cf = await runTool(
      tools,
      'write',
      {
        path: '/memory/counterfactuals/new.md',
        content:
          '# new — Declined: receive 2y\ndecision_type: alternative\nreference_date: 2026-01-10\nstatus: completed\nconfidence: 0.9\ncategory: macro_regime\nhit: true\n---\n## SUMMARY\nWould have won.\n',
      },
      ctx,
    );
    expect(cf.content).toMatch(/\[forbidden\]: A Counterfactual is resolved only by Forge's tracker/);

    expect(outcomesOf(fs, 'E-001')).toEqual([]);
    expect(fs.readFile('/memory/outcomes/OUT-001.md')).toBe(existing);
    expect(fs.readFile('/memory/calibration/macro_regime.md')).toBe(file);
    expect(fs.listDir('/memory/counterfactuals/').total).toBe(0);
    expect(computeCalibration(fs.store)).toEqual(calibration);
  });

  it("a sub-agent granted the write tool is refused the same way, as itself (the grant's writer)", async () => {
    t = await openTestWorkspace();
    const fs = t.ws.fs;
    await trackerOutcome(fs);
    const calibration = computeCalibration(fs.store);
    const make = subAgentToolFactory({
      available: analystTools({ providers: t.providers }),
      skills: new SkillLoader(join(packageRoot(), 'skills')),
      contextFor: (sessionId) => t.context({ sessionId }),
    });
    // No bundled skill grants `write` (executor/grants.ts); were one ever to, the memory layer still holds.
    const { tools, context } = make({
      sessionId: 'sess_sub',
      taskId: 'rates_ctx',
      skill: 'context-retrieval',
      skillDir: '',
      allowed: ['read', 'write'],
      signal: new AbortController().signal,
    });
    expect(context.writer.actor).toBe('subagent:rates_ctx');
    const r = await runTool(tools, 'write', { path: '/memory/outcomes/new.md', content: WINNING_OUTCOME }, context);
    expect(r.isError).toBe(true);
    expect(r.content).toMatch(/\[forbidden\]: Outcomes are recorded only by Forge's tracker.*A sub-agent \(rates_ctx\) cannot write/);
    expect(outcomesOf(fs, 'E-001')).toEqual([]);
    expect(computeCalibration(fs.store)).toEqual(calibration);
  });

  it('the tracker still records the Outcome when the PM closes an Expression, audited as the tracker', async () => {
    t = await openTestWorkspace();
    const pm = t.context({ actor: 'pm' });
    const e = t.ws.fs.readFile('/memory/expressions/E-001.md').replace('status: active', 'status: closed\nexit_reason: target hit');
    const r = await runTool(analystTools({ providers: t.providers }), 'write', { path: '/memory/expressions/E-001.md', content: e }, pm);
    expect(r.content).toContain('Outcome OUT-001 recorded');
    expect(t.ws.store.audit.list({ path: '/memory/outcomes/OUT-001.md', limit: 5 })).toMatchObject([{ actor: 'tracker', session_id: 'sess_test' }]);
  });
});

describe("the PM's memory/write and an attached IDE", () => {
  let core: Core | undefined;
  let dispose: (() => Promise<void>) | undefined;
  afterEach(async () => {
    await dispose?.();
    core = dispose = undefined;
  });

  async function start(): Promise<Core> {
    ({ core, dispose } = tempCore());
    await core.context.memory.ready;
    await core.context.memory.fs.writeFile(
      '/memory/outcomes/new.md',
      WINNING_OUTCOME.replace('hit: true', 'hit: false').replaceAll('E-001', 'E-002'),
      trackerWriter(),
    );
    return core;
  }

  it('memory/write refuses an Outcome, a calibration file and a Counterfactual result with forbidden naming the tracker, and cannot choose its writer', async () => {
    const c = await start();
    const fs = c.context.memory.fs;
    const before = await c.invoke('calibration/get', {});
    expect(before.ok && before.value.n).toBe(1);

    const out = await c.invoke('memory/write', { path: '/memory/outcomes/new.md', content: WINNING_OUTCOME });
    expect(out).toMatchObject({ ok: false, error: { code: 'forbidden' } });
    expect(!out.ok && out.error.message).toMatch(/^Outcomes are recorded only by Forge's tracker.*The PM cannot write/);

    const edit = await c.invoke('memory/write', {
      path: '/memory/outcomes/OUT-001.md',
      content: fs.readFile('/memory/outcomes/OUT-001.md').replace('hit: false', 'hit: true'),
    });
    expect(edit).toMatchObject({ ok: false, error: { code: 'forbidden' } });

    const cal = fs.readFile('/memory/calibration/macro_regime.md');
    const calEdit = await c.invoke('memory/write', { path: '/memory/calibration/macro_regime.md', content: cal.replace(/\n---/, '\nforged: true\n---') });
    expect(calEdit).toMatchObject({
      ok: false,
      error: { code: 'forbidden', message: expect.stringMatching(/^Calibration files are computed only by Forge's tracker/) },
    });

    const cf = await c.invoke('memory/write', {
      path: '/memory/counterfactuals/new.md',
      content: '# new — Declined\ndecision_type: alternative\nreference_date: 2026-01-10\nstatus: completed\nconfidence: 0.9\nhit: true\n---\n## SUMMARY\nx\n',
    });
    expect(cf).toMatchObject({
      ok: false,
      error: { code: 'forbidden', message: expect.stringMatching(/^A Counterfactual is resolved only by Forge's tracker/) },
    });

    // The input cannot name a writer: no `who`/`actor` field, whatever it says.
    const claim = await c.invoke('memory/write', { path: '/memory/outcomes/new.md', content: WINNING_OUTCOME, actor: 'tracker' } as never);
    expect(claim).toMatchObject({ ok: false, error: { code: 'invalid_input' } });

    expect(outcomesOf(fs as never, 'E-001')).toEqual([]);
    expect(fs.readFile('/memory/calibration/macro_regime.md')).toBe(cal);
    expect(await c.invoke('calibration/get', {})).toEqual(before);
  });

  it('an IDE attached over MCP is offered no write tool, and a memory-writing tool run as the IDE is refused with the tracker named', async () => {
    const c = await start();
    const fs = c.context.memory.fs;
    const before = await c.invoke('calibration/get', {});
    expect((await c.invoke('mcp/set-options', { exposeAnalystTools: true })).ok).toBe(true);
    // The IDE's tool context, as the host builds it (core.ts): writes, if any, are the `mcp` writer's.
    const ide: AnalystToolContext = {
      fs: fs.forSession('mcp'),
      writer: { actor: 'mcp' },
      limits: () => defaultGuardrailLimits,
      providers: new ProviderRegistry(),
    };
    const offered = mcpStateFor(c.context).analystTools;
    const record = defineMcpTool({
      name: 'record_note',
      description: 'Writes a memory record as the attached IDE (what any future memory-writing MCP tool would do).',
      input: z.object({ path: z.string(), content: z.string() }),
      annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
      async run(input: { path: string; content: string }) {
        const r = await writeTool.run(input, ide);
        if (r.isError) throw new Error(r.content);
        return r.content;
      },
    });
    setMcpAnalystTools(c.context, () => [...offered(), record as unknown as GovernanceTool]);

    const server = createGovernanceServer(mcpStateFor(c.context).service, { transport: 'memory' });
    const [a, b] = InMemoryTransport.createLinkedPair();
    const client = new Client({ name: 'ide', version: '1' });
    await Promise.all([server.connect(b), client.connect(a)]);
    try {
      const names = (await client.listTools()).tools.map((x) => x.name);
      expect(names).toContain('read');
      expect(names).not.toContain('write');
      const direct = await client.callTool({ name: 'write', arguments: { path: '/memory/outcomes/new.md', content: WINNING_OUTCOME } }).then(
        (r) => (r as { isError?: boolean }).isError === true,
        () => true,
      );
      expect(direct).toBe(true);

      const r = (await client.callTool({ name: 'record_note', arguments: { path: '/memory/outcomes/new.md', content: WINNING_OUTCOME } })) as {
        content: { text: string }[];
        isError?: boolean;
      };
      expect(r.isError).toBe(true);
      expect(r.content[0].text).toMatch(/^Outcomes are recorded only by Forge's tracker.*An attached IDE \(MCP client\) cannot write/);
      const calFile = fs.readFile('/memory/calibration/macro_regime.md');
      const cal = (await client.callTool({
        name: 'record_note',
        arguments: { path: '/memory/calibration/macro_regime.md', content: calFile.replace(/\n---/, '\nforged: true\n---') },
      })) as {
        content: { text: string }[];
        isError?: boolean;
      };
      expect(cal.isError).toBe(true);
      expect(cal.content[0].text).toMatch(/^Calibration files are computed only by Forge's tracker/);
    } finally {
      await client.close();
    }
    expect(outcomesOf(fs as never, 'E-001')).toEqual([]);
    expect(await c.invoke('calibration/get', {})).toEqual(before);
  });
});
