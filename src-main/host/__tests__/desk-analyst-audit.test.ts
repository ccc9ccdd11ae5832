import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { EventMessage } from '../../api/events';
import { writerName } from '../../lineage';
import { readableAudit } from '../../desk/sharing/audit';
import { type MockAnthropicServer, type RecordedRequest, startMockAnthropicServer } from '../../llm/testing';
import { PostgresConnection } from '../../store/postgres/connection';
import { skipWithoutPostgres } from '../../store/postgres/test-server';
import { type PostgresWorkspaces, startPostgresWorkspaces } from '../../store/postgres/test-workspaces';
import type { Core } from '../core';
import { actorOnDesk } from '../desk-calls';
import { tempCore, untilEvent } from '../testing';
import { code, ok, type Result } from './answers';
import { seedDesk } from './desk-seed';

const PASSWORD = 'correct-horse-battery-staple';
const APP_ROLE = 'forge_analyst_audit_app';

/**
 * The rule every audit row written during a person's work on a desk follows. If it failed, the
 * trail could not say for whom the analyst acted (two PMs' analyst work would look the same), or
 * the scheduler's own overnight rows would be pinned on whoever was signed in.
 */
describe('the actor an audit row names on a desk', () => {
  it("names the person for whom a non-person writer acted, keeping the writer's kind first", () => {
    expect(actorOnDesk('pm', 'pm01')).toBe('pm01');
    expect(actorOnDesk('agent', 'pm01')).toBe('agent@pm01');
    expect(actorOnDesk('subagent:t7', 'pm01')).toBe('subagent:t7@pm01');
    expect(actorOnDesk('subagent:t7', 'pm01').split('@')[0]).toBe('subagent:t7');
    expect(actorOnDesk('scheduler', 'pm01')).toBe('scheduler@pm01');
    expect(actorOnDesk('mcp', 'pm01')).toBe('mcp@pm01');
  });
  it("keeps the actor of the server's own work, and never names a person twice", () => {
    for (const a of ['pm', 'agent', 'subagent:t7', 'scheduler', 'tracker', 'mcp']) expect(actorOnDesk(a, undefined)).toBe(a);
    expect(actorOnDesk('agent@pm02', 'pm01')).toBe('agent@pm02');
    expect(actorOnDesk('pm02', 'pm01')).toBe('pm02');
  });
  it("reads back in an Expression's lineage as the analyst or sub-agent, for the person", () => {
    // Else the lineage would say "proposed by agent@pm01" where it said "proposed by the analyst".
    expect(writerName('agent')).toBe('the analyst');
    expect(writerName('agent@pm01')).toBe('the analyst (for pm01)');
    expect(writerName('subagent:t7@pm01', 't7')).toBe('sub-agent t7 (for pm01)');
    expect(writerName('subagent:t7@pm01')).toBe('sub-agent t7 (for pm01)');
    expect(writerName('pm01')).toBe('pm01');
    expect(writerName('scheduler')).toBe('scheduler');
  });
});

const note = (title: string) => `# new — ${title}\n---\n## SUMMARY\n${title}, as the PM asked.\n`;
const systemText = (r: RecordedRequest): string => {
  const sys = r.body.system as string | { text: string }[] | undefined;
  return typeof sys === 'string' ? sys : (sys ?? []).map((b) => b.text).join('\n');
};
const firstUserText = (r: RecordedRequest): string => {
  const m = (r.body.messages as { content: string | { type: string; text?: string }[] }[])[0];
  return typeof m.content === 'string' ? m.content : m.content.map((b) => b.text ?? '').join('\n');
};

/**
 * Two PMs each ask the analyst (the real loop and write tool, the model a real HTTP server on
 * 127.0.0.1 speaking the Anthropic API) to write a note, both runs in flight at once, on a desk
 * served as the app role (row-level security on). If this failed, the analyst's rows would read
 * `agent` for everyone — the COO could not tell whose analyst wrote what — or the run would lose
 * its person: the note would belong to no one (the desk's) or to the other PM, and be readable by
 * the wrong people.
 */
describe.skipIf(skipWithoutPostgres())('on a desk the analyst writes for the person who asked, and the audit says so', { timeout: 180_000 }, () => {
  let workspaces: PostgresWorkspaces;
  let admin: PostgresConnection;
  let mock: MockAnthropicServer;
  let server: ReturnType<typeof tempCore>;
  let core: Core;
  const events: EventMessage[] = [];
  const sessions: Record<string, string> = {};
  const call = <T>(who: string, name: string, input: unknown) => core.invokeUnknown(name, input, { session: sessions[who] }) as Promise<Result<T>>;

  beforeAll(async () => {
    workspaces = await startPostgresWorkspaces();
    const url = workspaces.freshUrl();
    const { serverUrl } = seedDesk(
      url,
      [
        { userId: 'pm01', displayName: 'Pat', role: 'pm' },
        { userId: 'pm02', displayName: 'Quinn', role: 'pm' },
        { userId: 'rita', displayName: 'Rita', role: 'risk' },
      ],
      PASSWORD,
      APP_ROLE,
    );
    admin = PostgresConnection.open(url);
    mock = await startMockAnthropicServer();
    mock.setResponder((r) => {
      const step = (r.body.messages as { role: string }[]).filter((m) => m.role === 'assistant').length;
      // A sub-agent on the context-retrieval skill answers at once.
      if (systemText(r).includes('# Context Retrieval')) return { text: '## SUMMARY\nGilt supply is heavy into year end.\n\n## EVIDENCE\n- The remit.' };
      const first = firstUserText(r);
      // A PM's run writes the note its first message names, then says it is done.
      const asked = /Write a note titled "([^"]+)"/.exec(first)?.[1];
      if (asked) {
        if (step === 0)
          return { text: 'Writing it.', toolCalls: [{ name: 'write', input: { path: '/memory/observations/new.md', content: note(asked) } }], delayMs: 50 };
        return { text: 'Done.' };
      }
      // Or it dispatches a sub-agent and collects it.
      const task = /Gather context as task (\w+)/.exec(first)?.[1];
      if (task) {
        if (step > 0) return { text: 'Collected.' };
        const objective = 'Collect what bears on gilt supply.';
        return {
          toolCalls: [
            { name: 'dispatch', input: { id: task, skill: 'context-retrieval', objective } },
            { name: 'collect', input: { target: task } },
          ],
        };
      }
      return { text: 'UNSCRIPTED request' };
    });
    server = tempCore({ ANTHROPIC_API_KEY: 'test-key' }, { database: serverUrl });
    core = server.core;
    core.context.settings.update({ anthropicBaseUrl: mock.url });
    core.context.events.subscribe((m) => events.push(m));
    await core.context.memory.ready;
    for (const who of ['pm01', 'pm02', 'rita']) sessions[who] = ok(await core.invoke('desk/sign-in', { userId: who, password: PASSWORD })).session;
  }, 120_000);
  afterAll(async () => {
    await server?.dispose();
    await mock?.close();
    admin?.close();
    await workspaces?.stop();
  });

  /** Sends `message` to the analyst as `who`, in a session of their own, and waits for the run's end. */
  const runAs = async (
    who: string,
    message: string,
    session: { newSession?: boolean; sessionId?: string } = { newSession: true },
  ): Promise<{ runId: string; sessionId: string }> => {
    const sent = ok(await call<{ runId: string; sessionId: string }>(who, 'agent/send', { message, ...session }));
    const end = await untilEvent(
      core,
      events,
      (e) => (e.event === 'agent/done' || e.event === 'agent/error') && (e.payload as { runId: string }).runId === sent.runId,
      90_000,
    );
    expect(end.event).toBe('agent/done');
    return sent;
  };

  /** Asks the analyst as `who` to write a note; the path its write tool wrote. */
  const ask = async (who: string, title: string): Promise<string> => {
    const sent = await runAs(who, `Write a note titled "${title}".`);
    const written = events.find(
      (e) => e.event === 'agent/tool-result' && (e.payload as { runId: string }).runId === sent.runId && (e.payload as { name: string }).name === 'write',
    );
    const content = (written?.payload as { content: string; isError: boolean } | undefined)?.content ?? '';
    const path = /\/memory\/observations\/O-\d+\.md/.exec(content)?.[0];
    if (!path) throw new Error(`${who}'s run wrote no note: ${content || 'no write tool result'}`);
    return path;
  };

  it("names pm01 in the analyst's audit row and makes the note pm01's own, private to them, while pm02's analyst works at the same time", async () => {
    const [mine, theirs] = await Promise.all([ask('pm01', 'Gilts steepen into supply'), ask('pm02', 'Bund ASW tightens')]);

    const rows = (who: string, path: string) => call<{ entries: { actor: string; operation: string }[] }>(who, 'memory/audit', { path, limit: 5 });
    expect(ok(await rows('rita', mine)).entries.map((e) => [e.actor, e.operation])).toEqual([['agent@pm01', 'create']]);
    expect(ok(await rows('rita', theirs)).entries.map((e) => [e.actor, e.operation])).toEqual([['agent@pm02', 'create']]);

    // Row-level security bound the run's statements to pm01: the note is theirs, private.
    const access = admin.query<{ owner_id: string | null; visibility: string }>(
      "SELECT a.owner_id, a.visibility FROM desk_record_access a JOIN memory_records m ON m.rid = a.rid WHERE m.category = 'observations' AND m.id = $1",
      [mine.split('/').pop()!.replace(/\.md$/, '')],
    );
    expect(access).toEqual([{ owner_id: 'pm01', visibility: 'private' }]);
    expect(code(await call('pm01', 'memory/read', { path: mine }))).toBe('ok');
    expect(code(await call('pm02', 'memory/read', { path: mine }))).toBe('not_found');
    expect(code(await call('pm02', 'memory/read', { path: theirs }))).toBe('ok');
  });

  it("names the person in a sub-agent's rows too: the executor runs the task inside the run of the person who asked", async () => {
    const { runId, sessionId } = await runAs('pm02', 'Gather context as task t7, please.');
    const results = events.filter((e) => e.event === 'agent/tool-result' && (e.payload as { runId: string }).runId === runId);
    expect(results.map((e) => `${(e.payload as { name: string }).name}:${(e.payload as { isError: boolean }).isError}`)).toEqual([
      'dispatch:false',
      'collect:false',
    ]);
    const rows = admin.query<{ actor: string }>("SELECT DISTINCT actor FROM audit_log WHERE session_id = $1 AND task_id = 't7'", [sessionId]);
    expect(rows).toEqual([{ actor: 'subagent:t7@pm02' }]);
  });

  it('continues each PM’s own conversation, never a colleague’s', async () => {
    // Before: one active session per server, so pm02's message went on in pm01's conversation
    // (its history in pm02's prompt), and pm02 starting afresh archived pm01's.
    const first = await runAs('pm01', 'Morning, pm01 here.', {});
    const theirs = await runAs('pm02', 'Morning, pm02 here.', {});
    expect(theirs.sessionId).not.toBe(first.sessionId);
    expect((await runAs('pm01', 'Still pm01.', {})).sessionId).toBe(first.sessionId);
    await runAs('pm02', 'pm02 starts afresh.', { newSession: true });
    expect((await runAs('pm01', 'pm01 again.', {})).sessionId).toBe(first.sessionId);
    expect(code(await call('pm02', 'agent/send', { message: 'Let me in.', sessionId: first.sessionId }))).toBe('not_found');
  });

  it("shows a person the analyst's rows done for them, even about a record they can no longer read, and not another PM's", () => {
    // A row about a record gone from the desk is kept only for whoever it was done by (audit.ts).
    const gone = '/memory/observations/O-9999.md';
    admin.run('INSERT INTO audit_log (at, actor, operation, path) VALUES ($1, $2, $3, $4)', [new Date().toISOString(), 'agent@pm01', 'delete', gone]);
    const seen = (me: string) => readableAudit(admin, me, { path: gone, limit: 5 }).map((r) => r.actor);
    expect(seen('pm01')).toEqual(['agent@pm01']);
    expect(seen('pm02')).toEqual([]);
  });
});
