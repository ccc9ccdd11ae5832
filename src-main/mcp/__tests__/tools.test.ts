import { ErrorCode, McpError } from '@modelcontextprotocol/sdk/types.js';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connect, fixture, jsonOf, textOf, type Fixture } from './fixtures';

type Conn = Awaited<ReturnType<typeof connect>>;
let f: Fixture;
let c: Conn;

beforeAll(async () => {
  f = fixture();
  c = await connect(f);
});
afterAll(async () => {
  await c.close();
  f.dispose();
});

const call = (name: string, args: Record<string, unknown> = {}) => c.client.callTool({ name, arguments: args });

describe('the tool catalogue over a real MCP client', () => {
  it('lists the 19 current tools, and hides the deprecated shortcuts and the forge_get_summary alias', async () => {
    const { tools } = await c.client.listTools();
    const names = tools.map((t) => t.name);
    expect(names).toHaveLength(19);
    for (const n of ['forge_get_governance', 'forge_summary', 'forge_get_phase_window', 'forge_scratchpad', 'forge_run_planner', 'forge_get_build_contracts']) {
      expect(names).toContain(n);
    }
    for (const hidden of ['forge_get_boundaries', 'forge_get_physics', 'forge_get_directive', 'forge_get_stack', 'forge_get_summary']) {
      expect(names).not.toContain(hidden);
    }
  });

  it('annotates tools as the spec assigns (an IDE would otherwise ask to confirm harmless reads, or not warn before deletes)', async () => {
    const { tools } = await c.client.listTools();
    const a = Object.fromEntries(tools.map((t) => [t.name, t.annotations]));
    expect(a.forge_get_contract).toEqual({ readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false });
    expect(a.forge_get_build_contracts?.readOnlyHint).toBe(true);
    expect(a.forge_clear_artifacts).toMatchObject({ readOnlyHint: false, destructiveHint: true });
    expect(a.forge_store_artifact).toMatchObject({ readOnlyHint: false, idempotentHint: true, destructiveHint: false });
    expect(a.forge_set_session).toMatchObject({ idempotentHint: true });
    expect(a.forge_run_planner).toMatchObject({ openWorldHint: true, readOnlyHint: false });
    // forge_fetch reads outside data (the PM's vendors) but changes nothing.
    expect(a.forge_fetch).toEqual({ readOnlyHint: true, destructiveHint: false, idempotentHint: false, openWorldHint: true });
    expect(tools.filter((t) => t.annotations?.openWorldHint).map((t) => t.name)).toEqual(['forge_run_planner', 'forge_fetch']);
  });

  it('returns JSON contracts parsed and markdown raw', async () => {
    const b = jsonOf<{ format: string; content: { modules: Record<string, unknown> } }>(await call('forge_get_contract', { name: 'boundaries' }));
    expect(b.format).toBe('json');
    expect(Object.keys(b.content.modules)).toEqual(['core', 'ui']);
    const p = jsonOf<{ content: { paths: Record<string, unknown> } }>(await call('forge_get_contract', { name: 'physics' }));
    expect(Object.keys(p.content.paths)).toEqual(['/api/app/info', '/events']);
    expect(textOf(await call('forge_get_contract', { name: 'blueprint' }))).toBe('# blueprint\n\nThe blueprint contract of the fixture project.\n');
  });

  it('refuses the whole phases contract and points at forge_get_phase_window', async () => {
    const r = await call('forge_get_contract', { name: 'phases' });
    expect(r.isError).toBe(true);
    expect(textOf(r)).toMatch(/forge_get_phase_window\(phase_number\)/);
  });

  it('names the bad field when arguments are invalid, for every tool that takes arguments', async () => {
    const cases: [string, Record<string, unknown>, string][] = [
      ['forge_get_contract', { name: '' }, 'name'],
      ['forge_get_contract', {}, 'name'],
      ['forge_store_artifact', { project_id: 'p', artifact_type: 'plan', key: 'k' }, 'content'],
      ['forge_store_artifact', { project_id: 'p', artifact_type: 'poem', key: 'k', content: 'x' }, 'artifact_type'],
      ['forge_get_artifact', { project_id: 'p', artifact_type: 'plan' }, 'key'],
      ['forge_list_artifacts', {}, 'project_id'],
      ['forge_clear_artifacts', { project_id: 7 }, 'project_id'],
      ['forge_set_session', {}, 'project_id'],
      ['forge_get_project_contract', { contract_type: 'x' }, 'contract_type'],
      ['forge_get_build_contracts', { build_id: '' }, 'build_id'],
      ['forge_run_planner', { project_request: 'short' }, 'project_request'],
      ['forge_get_phase_window', { phase_number: -1 }, 'phase_number'],
      ['forge_get_phase_window', {}, 'phase_number'],
      ['forge_scratchpad', { operation: 'erase' }, 'operation'],
      ['forge_summary', { extra: 1 }, 'extra'],
    ];
    for (const [name, args, field] of cases) {
      const r = await call(name, args);
      expect(r.isError, `${name} ${JSON.stringify(args)}`).toBe(true);
      expect(textOf(r), name).toContain(`Invalid arguments for ${name}`);
      expect(textOf(r), name).toMatch(new RegExp(`\\b${field}\\b`));
    }
  });

  it('answers an unknown tool with the JSON-RPC error -32602, as the MCP specification does, and keeps serving', async () => {
    const err = await call('forge_make_coffee').then(
      () => undefined,
      (e: unknown) => e as McpError,
    );
    // An IDE that got an isError result here would show it as a failed tool run, not a wrong name.
    expect(err).toBeInstanceOf(McpError);
    expect(err?.code).toBe(ErrorCode.InvalidParams);
    // The prefix once: a doubled "MCP error -32602: MCP error -32602:" is what users saw before.
    expect(err?.message).toBe('MCP error -32602: Unknown tool: forge_make_coffee. Call tools/list to see the tools; forge_summary gives an overview.');
    expect(c.service.calls.list(1)[0]).toMatchObject({
      tool: 'forge_make_coffee',
      ok: false,
      error: expect.stringMatching(/^Unknown tool: forge_make_coffee/),
    });
    expect(jsonOf<{ contracts: unknown[] }>(await call('forge_list_contracts')).contracts).toHaveLength(15);
  });

  it('carries the "MCP error" prefix once on protocol errors (it read "MCP error -32602: MCP error -32602: …")', async () => {
    const resource = await c.client.readResource({ uri: 'forge://contracts/nothing' }).catch((e: Error) => e);
    expect((resource as Error).message).toMatch(/^MCP error -32602: No resource at forge:\/\/contracts\/nothing\./);
    const prompt = await c.client.getPrompt({ name: 'nope' }).catch((e: Error) => e);
    expect((prompt as Error).message).toMatch(/^MCP error -32602: No prompt named "nope"/);
    for (const e of [resource, prompt]) expect((e as Error).message.match(/MCP error/g)).toHaveLength(1);
  });

  it('still answers the four deprecated shortcuts with the contract they stood for', async () => {
    expect(jsonOf<{ name: string }>(await call('forge_get_boundaries')).name).toBe('boundaries');
    expect(jsonOf<{ name: string }>(await call('forge_get_physics')).name).toBe('physics');
    expect(textOf(await call('forge_get_directive'))).toContain('# builder_directive');
    expect(textOf(await call('forge_get_stack'))).toContain('# stack');
  });

  it('answers forge_get_summary exactly like forge_summary', async () => {
    const a = jsonOf(await call('forge_summary'));
    const b = jsonOf(await call('forge_get_summary'));
    expect(b).toEqual(a);
    expect(a.mode).toBe('local');
    expect((a.contracts as { available: boolean }[]).every((x) => x.available)).toBe(true);
    expect((a.layers as { name: string }[]).map((l) => l.name)).toEqual(['core', 'ui']);
    expect(a.endpoints).toEqual(['/api/app/info', '/events']);
    expect(a.invariants).toContain('test_count');
    expect(a.tools).toHaveLength(19);
  });

  it('lists contracts with availability, and the governance gate bundles four reads', async () => {
    const l = jsonOf<{ contracts: { name: string; file: string; format: string }[] }>(await call('forge_list_contracts'));
    expect(l.contracts).toHaveLength(15);
    expect(l.contracts.find((x) => x.name === 'remediation')).toMatchObject({ file: 'Remediation.md', format: 'markdown' });
    const g = jsonOf(await call('forge_get_governance'));
    expect(Object.keys(g).sort()).toEqual(['boundaries', 'builder_contract', 'invariants', 'stack']);
    const inv = jsonOf<{ gates: { name: string; constraint: string }[]; constraint_types: Record<string, string> }>(await call('forge_get_invariants'));
    expect(inv.gates.find((x) => x.name === 'test_count')?.constraint).toBe('monotonic_up');
    expect(Object.keys(inv.constraint_types)).toEqual(['monotonic_up', 'monotonic_down', 'equal', 'gte', 'lte']);
  });

  it('serves phase windows at the first, a middle and the last phase, and explains an out-of-range one', async () => {
    const first = jsonOf<{ phases: { number: number; name: string }[]; content: string; is_last: boolean; total_phases: number }>(
      await call('forge_get_phase_window', { phase_number: 0 }),
    );
    expect(first.phases).toEqual([
      { number: 0, id: '0', name: 'Genesis' },
      { number: 1, id: '1', name: 'Storage' },
    ]);
    expect(first.total_phases).toBe(5);
    expect(first.content).toContain('scaffold, first test');
    // The text before the first phase is the plan's preamble: every window carries it.
    expect(first.content).toContain('Intro text');
    const middle = jsonOf<{ phases: { number: number }[]; content: string }>(await call('forge_get_phase_window', { phase_number: 1 }));
    expect(middle.phases.map((p) => p.number)).toEqual([1, 2]);
    expect(middle.content).toContain('Phase 99 — inside a code fence'); // fenced text stays inside phase 1
    const last = jsonOf<{ phases: { number: number }[]; is_last: boolean; content: string }>(await call('forge_get_phase_window', { phase_number: 4 }));
    expect(last.phases.map((p) => p.number)).toEqual([4]);
    expect(last.is_last).toBe(true);
    const out = await call('forge_get_phase_window', { phase_number: 9 });
    expect(out.isError).toBe(true);
    expect(textOf(out)).toBe('There is no Phase 9. This plan has phases 0 to 4 (5 in all).');
  });

  it('stores, lists, reads and clears artifacts by type', async () => {
    await call('forge_store_artifact', { project_id: 'demo', artifact_type: 'plan', key: 'phase-0', content: 'do things' });
    await call('forge_store_artifact', { project_id: 'demo', artifact_type: 'diff', key: 'a/b.ts', content: '+1', persist: true });
    const got = jsonOf<{ content: string }>(await call('forge_get_artifact', { project_id: 'demo', artifact_type: 'plan', key: 'phase-0' }));
    expect(got.content).toBe('do things');
    const listed = jsonOf<{ artifacts: { key: string; artifact_type: string; persisted: boolean; size: number }[] }>(
      await call('forge_list_artifacts', { project_id: 'demo' }),
    );
    expect(listed.artifacts.map((a) => [a.artifact_type, a.key, a.persisted, a.size])).toEqual([
      ['diff', 'a/b.ts', true, 2],
      ['plan', 'phase-0', false, 9],
    ]);
    const cleared = jsonOf<{ removed: number }>(await call('forge_clear_artifacts', { project_id: 'demo', artifact_type: 'plan' }));
    expect(cleared.removed).toBe(1);
    const missing = await call('forge_get_artifact', { project_id: 'demo', artifact_type: 'plan', key: 'phase-0' });
    expect(missing.isError).toBe(true);
    expect(textOf(missing)).toMatch(/forge_list_artifacts/);
    expect(jsonOf<{ artifacts: unknown[] }>(await call('forge_list_artifacts', { project_id: 'demo' })).artifacts).toHaveLength(1);
  });

  it('uses the session project when project tools omit the id, and says what to do without one', async () => {
    const none = await call('forge_get_project_context');
    expect(none.isError).toBe(true);
    expect(textOf(none)).toMatch(/forge_set_session/);
    const store = await c.service.projectStore();
    store.createProject({ id: 'macro-dash', name: 'Macro dashboard' });
    store.saveContract('macro-dash', 'blueprint', '# v1');
    const set = jsonOf<{ session: { project_id: string } }>(await call('forge_set_session', { project_id: 'macro-dash' }));
    expect(set.session.project_id).toBe('macro-dash');
    const ctx = jsonOf<{ name: string; contracts: { contract_type: string; version: number }[] }>(await call('forge_get_project_context'));
    expect(ctx.name).toBe('Macro dashboard');
    expect(ctx.contracts.map((x) => [x.contract_type, x.version])).toEqual([['blueprint', 1]]);
    const list = jsonOf<{ contracts: unknown[] }>(await call('forge_list_project_contracts'));
    expect(list.contracts).toHaveLength(1);
    expect(jsonOf<{ content: string }>(await call('forge_get_project_contract', { contract_type: 'blueprint' })).content).toBe('# v1');
    const noBuild = await call('forge_get_build_contracts');
    expect(textOf(noBuild)).toMatch(/pass build_id/);
    await call('forge_clear_session');
    expect((await call('forge_list_project_contracts')).isError).toBe(true);
  });

  it('keeps scratchpad notes across a server restart in the same working directory', async () => {
    await call('forge_scratchpad', { operation: 'write', key: 'decisions', value: 'use WAL' });
    await call('forge_scratchpad', { operation: 'append', key: 'decisions', value: 'zod at the boundary' });
    expect((await call('forge_scratchpad', { operation: 'write', key: 'x' })).isError).toBe(true);
    const other = await connect(f); // a new server process would read the same file
    try {
      const r = jsonOf<{ value: string }>(await other.client.callTool({ name: 'forge_scratchpad', arguments: { operation: 'read', key: 'decisions' } }));
      expect(r.value).toBe('use WAL\nzod at the boundary');
      const keys = jsonOf<{ keys: string[] }>(await other.client.callTool({ name: 'forge_scratchpad', arguments: { operation: 'list' } }));
      expect(keys.keys).toEqual(['decisions']);
    } finally {
      await other.close();
    }
    expect(JSON.parse(readFileSync(join(f.workDir, 'Forge', '.scratchpad.json'), 'utf8'))).toEqual({ decisions: 'use WAL\nzod at the boundary' });
    const missing = await call('forge_scratchpad', { operation: 'read', key: 'nope' });
    expect(textOf(missing)).toMatch(/no key "nope".*decisions/);
  });

  it('says the planner needs a model when none is configured', async () => {
    const r = await call('forge_run_planner', { project_request: 'A dashboard for macro views and trades.' });
    expect(r.isError).toBe(true);
    expect(textOf(r)).toMatch(/needs a model|API key/);
  });

  it('names the file when a contract is missing or unparsable', async () => {
    const other = fixture();
    writeFileSync(join(other.contractsDir, 'physics.yaml'), 'paths: [unclosed');
    writeFileSync(join(other.contractsDir, 'boundaries.json'), '{"modules": ');
    const { rmSync } = await import('node:fs');
    rmSync(join(other.contractsDir, 'ui.md'));
    const o = await connect(other);
    try {
      const bad = await o.client.callTool({ name: 'forge_get_contract', arguments: { name: 'physics' } });
      expect(bad.isError).toBe(true);
      expect(textOf(bad)).toMatch(/physics\.yaml is not valid YAML/);
      expect(textOf(await o.client.callTool({ name: 'forge_get_contract', arguments: { name: 'boundaries' } }))).toMatch(/boundaries\.json is not valid JSON/);
      const gone = await o.client.callTool({ name: 'forge_get_contract', arguments: { name: 'ui' } });
      expect(textOf(gone)).toMatch(/no ui\.md in/);
      const listing = jsonOf<{ contracts: { name: string; available: boolean }[] }>(await o.client.callTool({ name: 'forge_list_contracts', arguments: {} }));
      expect(listing.contracts.find((x) => x.name === 'ui')?.available).toBe(false);
      // The summary still answers without the broken files.
      expect(jsonOf(await o.client.callTool({ name: 'forge_summary', arguments: {} })).layers).toEqual([]);
    } finally {
      await o.close();
      other.dispose();
    }
  });

  it('offers contracts as resources and the builder prompt as a prompt', async () => {
    const { resources } = await c.client.listResources();
    expect(resources).toHaveLength(15);
    expect(resources[0].uri).toBe('forge://contracts/boundaries');
    const { resourceTemplates } = await c.client.listResourceTemplates();
    expect(resourceTemplates[0].uriTemplate).toBe('forge://contracts/{name}');
    const r = await c.client.readResource({ uri: 'forge://contracts/stack' });
    expect(r.contents[0]).toMatchObject({ mimeType: 'text/markdown', text: '# stack\n\nThe stack contract of the fixture project.\n' });
    const j = await c.client.readResource({ uri: 'forge://contracts/boundaries' });
    expect(JSON.parse(String((j.contents[0] as { text: string }).text)).modules.ui.mayImport).toEqual(['core']);
    await expect(c.client.readResource({ uri: 'forge://contracts/nothing' })).rejects.toThrow(/forge:\/\/contracts\/<name>/);
    const { prompts } = await c.client.listPrompts();
    expect(prompts.map((p) => p.name)).toEqual(['forge_builder']);
    const p = await c.client.getPrompt({ name: 'forge_builder', arguments: { project_name: 'Ledger' } });
    const text = (p.messages[0].content as { text: string }).text;
    expect(text).toMatch(/^# Forge builder — Ledger/);
    expect(text).toContain('forge_get_phase_window(N)');
    expect(text).toContain('=== PHASE SIGN-OFF: PASS ===');
  });

  it('records each call with its duration and error for the MCP screen', async () => {
    await call('forge_list_contracts');
    await call('forge_get_contract', { name: 'phases' });
    const recent = c.service.calls.list(2);
    expect(recent[0]).toMatchObject({ tool: 'forge_get_contract', ok: false, transport: 'memory' });
    expect(recent[0].error).toMatch(/forge_get_phase_window/);
    expect(recent[1]).toMatchObject({ tool: 'forge_list_contracts', ok: true });
    expect(c.service.calls.stats().forge_list_contracts.calls).toBeGreaterThanOrEqual(2);
    expect(existsSync(join(f.dataDir, 'forge.db'))).toBe(true); // the project test above opened it lazily
  });
});
