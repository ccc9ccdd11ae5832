import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { EventMessage } from '../../api/events';
import { EnvSecretStore } from '../../config/secrets';
import { type MockAnthropicServer, startMockAnthropicServer } from '../../llm/testing';
import { createGovernanceServer, MCP_FILES } from '../../mcp';
import { PostgresConnection } from '../../store/postgres/connection';
import { skipWithoutPostgres } from '../../store/postgres/test-server';
import { type PostgresWorkspaces, startPostgresWorkspaces } from '../../store/postgres/test-workspaces';
import { type Core, createCore } from '../core';
import { mcpStateFor } from '../handlers/mcp';
import { untilEvent } from '../testing';
import { code, ok, type Result } from './answers';
import { seedDesk, TWO_PMS } from './desk-seed';

const PASSWORD = 'correct-horse-battery-staple';
const APP_ROLE = 'forge_desk_privacy_app';

const view = `# new — Fed cuts twice before the ECB\nstatus: active\nconfidence: 0.6\nscope: US rates\n---\n## SUMMARY\nGrowth slows into the spring.\n`;
const proposal = (viewId: string) =>
  `# new — Receive 2y\nstatus: proposed\nview_id: ${viewId}\ninstrument: USD 2y swap\nnotional: 20\nmax_loss_pct: 1.5\nduration_impact: 0.5\nfactor: usd_swap_spread\n---\n## SUMMARY\nThe View's trade.\n`;

type Summary = { id: string; title: string };

/**
 * A desk (real PostgreSQL, served as the app role so row-level security is on) with two PMs and a
 * scripted model on 127.0.0.1. The data folder was a workbench's whose admin had turned on "expose
 * the analyst's tools" for attached IDEs before it became a desk.
 */
describe.skipIf(skipWithoutPostgres())("on a desk a colleague's analyst work stays private", { timeout: 180_000 }, () => {
  let workspaces: PostgresWorkspaces;
  let admin: PostgresConnection;
  let mock: MockAnthropicServer;
  let core: Core;
  let dataDir: string;
  const events: EventMessage[] = [];
  const sessions: Record<string, string> = {};
  const call = <T>(who: string, name: string, input: unknown) => core.invokeUnknown(name, input, { session: sessions[who] }) as Promise<Result<T>>;

  beforeAll(async () => {
    workspaces = await startPostgresWorkspaces();
    const url = workspaces.freshUrl();
    const { serverUrl } = seedDesk(url, TWO_PMS, PASSWORD, APP_ROLE);
    admin = PostgresConnection.open(url);
    mock = await startMockAnthropicServer();
    mock.setResponder(() => ({ text: 'Noted.' }));
    dataDir = mkdtempSync(join(tmpdir(), 'forge-desk-privacy-'));
    // Saved on the workbench before this folder served a desk.
    writeFileSync(join(dataDir, MCP_FILES.settings), JSON.stringify({ exposeAnalystTools: true }));
    core = createCore({
      dataDir,
      mode: 'test',
      secrets: new EnvSecretStore({ ANTHROPIC_API_KEY: 'test-key' }),
      database: serverUrl,
    });
    core.context.settings.update({ anthropicBaseUrl: mock.url });
    core.context.events.subscribe((m) => events.push(m));
    await core.context.memory.ready;
    for (const who of ['pm01', 'pm02']) sessions[who] = ok(await core.invoke('desk/sign-in', { userId: who, password: PASSWORD })).session;
  }, 120_000);
  afterAll(async () => {
    await core?.close();
    await mock?.close();
    admin?.close();
    await workspaces?.stop();
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  });

  const say = async (who: string, message: string): Promise<string> => {
    const sent = ok(await call<{ runId: string; sessionId: string }>(who, 'agent/send', { message, newSession: true }));
    const end = await untilEvent(
      core,
      events,
      (e) => (e.event === 'agent/done' || e.event === 'agent/error') && (e.payload as { runId: string }).runId === sent.runId,
      90_000,
    );
    expect(end.event).toBe('agent/done');
    return sent.sessionId;
  };

  it("lists and opens only a PM's own conversations and the server's own, never a colleague's", async () => {
    // Before: sessions/list showed every PM's conversations (titled with their first question) and
    // sessions/open handed pm02 pm01's whole turn history.
    const mine = await say('pm01', 'Should we fade the gilt rally into the auction?');
    const theirs = await say('pm02', 'How crowded is the Bund ASW trade?');
    // A scheduled review runs as the server's own work: anyone following it up may read it.
    const now = new Date().toISOString();
    admin.run("INSERT INTO sessions (id, user_id, created_at, last_active) VALUES ('sess_scheduled_review', 'default', $1, $1)", [now]);

    const listed = async (who: string) => ok(await call<{ sessions: Summary[]; total: number }>(who, 'sessions/list', {}));
    const seen02 = await listed('pm02');
    expect(seen02.sessions.map((s) => s.id).sort()).toEqual(['sess_scheduled_review', theirs].sort());
    expect(seen02.total).toBe(2);
    expect(JSON.stringify(seen02)).not.toContain('gilt rally');
    const seen01 = await listed('pm01');
    expect(seen01.sessions.map((s) => s.id).sort()).toEqual(['sess_scheduled_review', mine].sort());
    expect(seen01.sessions.find((s) => s.id === mine)?.title).toContain('gilt rally');

    const refused = await call<unknown>('pm02', 'sessions/open', { id: mine });
    expect(code(refused)).toBe('not_found');
    expect(JSON.stringify(refused)).not.toContain('gilt rally');
    const opened = ok(await call<{ turnHistory: string }>('pm01', 'sessions/open', { id: mine }));
    expect(opened.turnHistory).toContain('gilt rally');
    expect(code(await call('pm02', 'sessions/open', { id: 'sess_scheduled_review' }))).toBe('ok');

    // The same transcript by its path (memory/read and list: the screens and the analyst's own read tool).
    const transcript = `/session/${mine}/turn_history.md`;
    expect(code(await call('pm02', 'memory/read', { path: transcript }))).toBe('not_found');
    expect(code(await call('pm02', 'memory/list', { path: `/session/${mine}/` }))).toBe('not_found');
    const folders = ok(await call<{ entries: { path: string }[] }>('pm02', 'memory/list', { path: '/session/' }));
    expect(folders.entries.map((e) => e.path)).not.toContain(`/session/${mine}/`);
    expect(folders.entries.map((e) => e.path)).toContain(`/session/${theirs}/`);
    expect(code(await call('pm02', 'memory/write', { path: `/session/${mine}/tasks.md`, content: 'mine now' }))).not.toBe('ok');
    expect(ok(await call<{ content: string }>('pm01', 'memory/read', { path: transcript })).content).toContain('gilt rally');
  });

  it("never offers attached IDEs the analyst's tools, which would read every PM's private notes as the server", async () => {
    // Before: the saved setting exposed read/search to any IDE holding the desk's one MCP token,
    // running as the server's own work, which row-level security lets read every private note.
    const status = ok(await call<{ exposeAnalystTools: boolean; analystToolsRefused?: string; tools: { name: string }[] }>('pm01', 'mcp/status', {}));
    expect(status.exposeAnalystTools).toBe(false);
    expect(status.analystToolsRefused).toMatch(/per person/);
    expect(status.tools.map((t) => t.name)).not.toContain('read');

    const server = createGovernanceServer(mcpStateFor(core.context).service, { transport: 'memory' });
    const [a, b] = InMemoryTransport.createLinkedPair();
    const ide = new Client({ name: 'ide', version: '1' });
    await Promise.all([server.connect(b), ide.connect(a)]);
    const names = (await ide.listTools()).tools.map((t) => t.name);
    await ide.close();
    expect(names).not.toContain('read');
    expect(names).not.toContain('search');

    const turnOn = await call<unknown>('pm01', 'mcp/set-options', { exposeAnalystTools: true });
    expect(code(turnOn)).toBe('forbidden');
    expect(turnOn.ok ? '' : turnOn.error.message).toMatch(/private notes/);
    expect(ok(await call<{ exposeAnalystTools: boolean }>('pm01', 'mcp/set-options', { exposeAnalystTools: false })).exposeAnalystTools).toBe(false);
  });

  it('names the person in the guardrail check log of a proposal, as the audit row of the same write does', async () => {
    // Before: the check log said `pm` for every PM, so it could not say whose proposal was checked.
    const v = ok(await call<{ path: string }>('pm01', 'memory/write', { path: '/memory/views/new.md', content: view }));
    const viewId = v.path.split('/').pop()!.replace(/\.md$/, '');
    // An empty book: the one trade is all of gross, so the concentration limit blocks it — and the
    // blocked check is kept too (check-log.ts), which is the row under test.
    const e = await call<{ path: string }>('pm01', 'memory/write', { path: '/memory/expressions/new.md', content: proposal(viewId) });
    expect(code(e)).toBe('guardrail_violation');
    const rows = admin.query<{ actor: string; outcome: string }>('SELECT actor, outcome FROM guardrail_checks ORDER BY seq');
    expect(rows).toEqual([{ actor: 'pm01', outcome: 'blocked' }]);
  });
});
