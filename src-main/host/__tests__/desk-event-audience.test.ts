import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import type { EventMessage, EventName, EventPayload } from '../../api/events';
import { asPerson } from '../../desk/people';
import { type MockAnthropicServer, type MockStep, type RecordedRequest, startMockAnthropicServer } from '../../llm/testing';
import { skipWithoutPostgres } from '../../store/postgres/test-server';
import { type PostgresWorkspaces, startPostgresWorkspaces } from '../../store/postgres/test-workspaces';
import { EnvSecretStore } from '../../config/secrets';
import { type Core, createCore } from '../core';
import { REPO_SKILLS } from './tasks-harness';
import { type HeadlessHost, startHeadlessHost } from '../http/server';
import { tempCore } from '../testing';
import { ok } from './answers';
import { seedDesk, TWO_PMS } from './desk-seed';

const PASSWORD = 'correct horse battery staple';
const TOKEN = 'desk-event-audience-token-0123456789';

/** A page's events socket: everything it heard, in order. */
interface Page {
  heard: EventMessage[];
  socket: WebSocket;
}

async function openPage(host: HeadlessHost, session?: string): Promise<Page> {
  const socket = new WebSocket(`ws://127.0.0.1:${host.port}/events`, { headers: { authorization: `Bearer ${host.token}` } });
  const heard: EventMessage[] = [];
  socket.on('message', (d) => heard.push(JSON.parse(String(d)) as EventMessage));
  await new Promise<void>((resolve, reject) => {
    socket.once('open', () => resolve());
    socket.once('error', reject);
  });
  if (session) socket.send(JSON.stringify({ session }));
  return { heard, socket };
}

const emit = <E extends EventName>(core: Core, event: E, payload: EventPayload<E>) => core.context.events.emit(event, payload);
const noticeOf = (m: EventMessage) => (m.event === 'app/notice' ? (m.payload as { message: string }).message : '');

/**
 * Emits a desk-wide marker (the server's own work) until every page has heard it. The bus and a
 * socket both keep order, so whatever a page was sent before the marker has arrived once the
 * marker has: "did not hear" is then a fact, not a wait that happened to be too short.
 */
async function settle(core: Core, pages: Page[], label: string): Promise<void> {
  for (let i = 0; i < 600; i++) {
    const marker = `${label} ${i}`;
    emit(core, 'app/notice', { level: 'info', message: marker });
    await new Promise((r) => setTimeout(r, 100));
    if (pages.every((p) => p.heard.some((m) => noticeOf(m).startsWith(`${label} `)))) return;
  }
  throw new Error(`not every page heard "${label}" in 60 s`);
}

const events = (p: Page) => p.heard.map((m) => m.event);
const texts = (p: Page) => p.heard.filter((m) => m.event === 'agent/text').map((m) => (m.payload as { text: string }).text);

const systemText = (r: RecordedRequest) => {
  const sys = r.body.system as string | { text: string }[] | undefined;
  return typeof sys === 'string' ? sys : (sys ?? []).map((b) => b.text).join('\n');
};
const firstText = (r: RecordedRequest) => {
  const m = (r.body.messages as { content: string | { type: string; text?: string }[] }[])[0];
  return typeof m?.content === 'string' ? m.content : (m?.content ?? []).map((b) => b.text ?? '').join('\n');
};

/** The analyst's model for pm01's runs: a plain answer, or one that dispatches a sub-agent and collects it. */
function scriptedModel(r: RecordedRequest): MockStep {
  const step = (r.body.messages as { role: string }[]).filter((m) => m.role === 'assistant').length;
  if (!systemText(r).startsWith('You are Forge')) return { text: '## SUMMARY\nThe curve bull-steepened on payrolls.\n\n## EVIDENCE\n- none needed.' };
  const first = firstText(r);
  if (first.includes('Is the 10y rich?')) return { text: 'pm01 only: the 10y looks rich.' };
  if (first.includes('Delegate the curve work.') && step === 0) {
    return {
      toolCalls: [
        {
          name: 'dispatch',
          input: { id: 'curve_ctx', skill: 'context-retrieval', objective: 'pm01 private: what moved the 2s10s curve this week.', context: [] },
        },
        { name: 'collect', input: { target: 'curve_ctx' } },
      ],
    };
  }
  return { text: 'Done.' };
}

/**
 * On a desk, each page hears the desk's events and its own person's, never a colleague's private
 * work. If this failed, pm02's Chat would stream pm01's analyst answer as it was written, and
 * pm02's Tasks screen would list pm01's research tasks: private records leaking live, past the
 * row-level security that keeps them out of every read.
 */
describe.skipIf(skipWithoutPostgres())("a desk's live events reach only the people allowed to see them", { timeout: 180_000 }, () => {
  let workspaces: PostgresWorkspaces;
  let dataDir: string;
  let core: Core;
  let host: HeadlessHost;
  let mock: MockAnthropicServer;
  const sessions: Record<string, string> = {};
  const pages: Record<string, Page> = {};
  const person = (userId: string) => ({ userId, role: 'pm' as const, admin: userId === 'pm01', displayName: userId });

  beforeAll(async () => {
    workspaces = await startPostgresWorkspaces();
    const url = workspaces.freshUrl();
    seedDesk(url, TWO_PMS, PASSWORD);
    // The analyst's model: a real HTTP server on 127.0.0.1 speaking the Anthropic API.
    mock = await startMockAnthropicServer();
    mock.setResponder(scriptedModel);
    dataDir = mkdtempSync(join(tmpdir(), 'forge-event-audience-'));
    // The skills a sub-agent runs with (as a PM's workspace has them).
    cpSync(REPO_SKILLS, join(dataDir, 'skills'), { recursive: true });
    core = createCore({ dataDir, mode: 'test', secrets: new EnvSecretStore({ ANTHROPIC_API_KEY: 'test-key' }), database: url });
    core.context.settings.update({ anthropicBaseUrl: mock.url });
    await core.context.memory.ready;
    for (const u of ['pm01', 'pm02']) sessions[u] = ok(await core.invoke('desk/sign-in', { userId: u, password: PASSWORD })).session;
    host = await startHeadlessHost({ core, token: TOKEN });
    pages.pm01 = await openPage(host, sessions.pm01);
    pages.pm02 = await openPage(host, sessions.pm02);
    // Both sockets have checked their session once each hears the desk.
    await settle(core, [pages.pm01, pages.pm02], 'signed in');
  }, 150_000);
  afterAll(async () => {
    for (const p of Object.values(pages)) p.socket.close();
    await host?.close();
    await core?.close();
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
    await mock?.close();
    await workspaces?.stop();
  });

  it("sends pm01's analyst chat to pm01's page only (also after an await), and a desk-wide change to both", async () => {
    asPerson(person('pm01'), () => {
      emit(core, 'agent/text', { runId: 'run-pm01', sessionId: 'session-pm01', round: 1, text: 'pm01 private: pay 10y' });
      // An event no one classified yet is fail-closed: only its own person hears it.
      emit(core, 'test/unclassified' as EventName, {} as never);
      emit(core, 'portfolio/changed', {});
      emit(core, 'desk/changed', { kind: 'expression.approved', id: 'E-001' });
    });
    // Work the call started, after an await, is still pm01's.
    await asPerson(person('pm01'), async () => {
      await new Promise((r) => setTimeout(r, 10));
      emit(core, 'agent/text', { runId: 'run-pm01', sessionId: 'session-pm01', round: 1, text: 'pm01 private: after an await' });
    });
    asPerson(person('pm02'), () => emit(core, 'agent/text', { runId: 'run-pm02', sessionId: 'session-pm02', round: 1, text: 'pm02 private' }));
    await settle(core, [pages.pm01, pages.pm02], 'after chat');

    expect(texts(pages.pm01)).toEqual(['pm01 private: pay 10y', 'pm01 private: after an await']);
    expect(texts(pages.pm02)).toEqual(['pm02 private']);
    expect(events(pages.pm01)).toContain('test/unclassified');
    expect(events(pages.pm02)).not.toContain('test/unclassified');
    for (const p of [pages.pm01, pages.pm02]) {
      expect(events(p)).toContain('portfolio/changed');
      expect(events(p)).toContain('desk/changed');
    }
  });

  /** pm01 asks the analyst over HTTP, as the page does; resolves once pm01's page heard the run end. */
  const askAsPm01 = async (message: string): Promise<string> => {
    const answer = await fetch(`${host.url}/api/agent/send`, {
      method: 'POST',
      headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json', 'x-forge-session': sessions.pm01 },
      body: JSON.stringify({ message, newSession: true }),
    });
    const sent = (await answer.json()) as { ok: boolean; value?: { runId: string } };
    expect(sent.ok, JSON.stringify(sent)).toBe(true);
    const runId = sent.value?.runId ?? '';
    // The run ends on its own, after the call has answered: it is still pm01's work.
    const ended = () =>
      pages.pm01.heard.find((m) => (m.event === 'agent/done' || m.event === 'agent/error') && (m.payload as { runId: string }).runId === runId);
    for (let i = 0; i < 900 && !ended(); i++) await new Promise((r) => setTimeout(r, 100));
    expect(ended()?.event).toBe('agent/done');
    await settle(core, [pages.pm01, pages.pm02], `after ${runId}`);
    return runId;
  };
  const ofRun = (p: Page, runId: string) => p.heard.filter((m) => (m.payload as { runId?: string }).runId === runId).map((m) => m.event);

  it("streams pm01's analyst run, asked over HTTP, to pm01's page and not to pm02's", async () => {
    const runId = await askAsPm01('Is the 10y rich?');
    expect(texts(pages.pm01).join('')).toContain('pm01 only: the 10y looks rich.');
    expect(ofRun(pages.pm02, runId)).toEqual([]);
  });

  it("shows the sub-agent task pm01's analyst dispatched on pm01's Tasks screen only", async () => {
    const runId = await askAsPm01('Delegate the curve work.');
    const tasks = (p: Page) => p.heard.filter((m) => m.event === 'tasks/changed').map((m) => m.payload as { id: string; status: string; objective: string });
    expect(tasks(pages.pm01).map((t) => t.objective)).toContain('pm01 private: what moved the 2s10s curve this week.');
    expect(tasks(pages.pm01).at(-1)?.status).toBe('ok');
    expect(tasks(pages.pm02)).toEqual([]);
    expect(ofRun(pages.pm02, runId)).toEqual([]);
  });

  it('stops sending anything to a page whose person signed out, and sends the next person only their own', async () => {
    const page = await openPage(host, sessions.pm02);
    try {
      await settle(core, [page], 'page three');
      // The same page signs out (null) and pm01 signs in on it.
      page.socket.send(JSON.stringify({ session: null }));
      page.socket.send(JSON.stringify({ session: sessions.pm01 }));
      // The switch is checked asynchronously: probe with pm01's own events until the page hears one.
      for (let i = 0; i < 600 && !texts(page).includes(`pm01 probe ${i - 1}`); i++) {
        asPerson(person('pm01'), () => emit(core, 'agent/text', { runId: 'r', sessionId: 's', round: 1, text: `pm01 probe ${i}` }));
        await new Promise((r) => setTimeout(r, 100));
      }
      expect(texts(page).some((t) => t.startsWith('pm01 probe'))).toBe(true);
      page.heard.length = 0;
      asPerson(person('pm02'), () => emit(core, 'agent/text', { runId: 'r', sessionId: 's', round: 1, text: 'pm02 after the switch' }));
      asPerson(person('pm01'), () => emit(core, 'agent/text', { runId: 'r', sessionId: 's', round: 1, text: 'pm01 after the switch' }));
      await settle(core, [page], 'switched');
      expect(texts(page)).toEqual(['pm01 after the switch']);
    } finally {
      page.socket.close();
    }
  });
});

/**
 * The one PM's workbench (no desk) has one person: its page hears everything, personal or not,
 * whoever the async context names. If this failed, a PM's own Chat would stop streaming.
 */
describe("the one-PM workbench's page hears every event", { timeout: 60_000 }, () => {
  it('delivers personal, desk-wide and unclassified events alike', async () => {
    const server = tempCore();
    const host = await startHeadlessHost({ core: server.core, token: TOKEN });
    const page = await openPage(host);
    try {
      asPerson({ userId: 'someone', role: 'pm', admin: false, displayName: 'Someone' }, () => {
        emit(server.core, 'agent/text', { runId: 'r', sessionId: 's', round: 1, text: 'the PM chat' });
        emit(server.core, 'test/unclassified' as EventName, {} as never);
      });
      emit(server.core, 'agent/text', { runId: 'r', sessionId: 's', round: 2, text: 'outside any call' });
      await settle(server.core, [page], 'workbench');
      expect(texts(page)).toEqual(['the PM chat', 'outside any call']);
      expect(events(page)).toContain('test/unclassified');
    } finally {
      page.socket.close();
      await host.close();
      await server.dispose();
    }
  });
});
