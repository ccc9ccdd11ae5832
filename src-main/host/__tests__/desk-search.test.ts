import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Core } from '../core';
import { tempCore } from '../testing';
import { skipWithoutPostgres } from '../../store/postgres/test-server';
import { type PostgresWorkspaces, startPostgresWorkspaces } from '../../store/postgres/test-workspaces';

const view = (id: string, title: string, body: string) => `# ${id} — ${title}\nstatus: active\nconfidence: 0.6\nscope: US rates\n---\n## SUMMARY\n${body}\n`;

function ok<T>(r: { ok: true; value: T } | { ok: false; error: { code: string; message: string } }): T {
  if (!r.ok) throw new Error(`${r.error.code}: ${r.error.message}`);
  return r.value;
}

/**
 * memory/search through two Forge servers (two cores) on one desk database: a note one server
 * saves is found by the other's next search, by keyword and by meaning (its vector block), and a
 * rewrite or delete on one changes the other's results — each server's in-memory keyword index and
 * vector blocks follow the desk's change log.
 */
describe.skipIf(skipWithoutPostgres())('memory/search across two servers on one desk database', { timeout: 180_000 }, () => {
  let workspaces: PostgresWorkspaces;
  const servers: ReturnType<typeof tempCore>[] = [];
  let a: Core;
  let b: Core;
  // Hybrid search also lists notes near in meaning: the keyword hits are those with a keyword score.
  const search = async (core: Core, query: string, filters?: string) =>
    ok(await core.invoke('memory/search', { query, scope: '/memory/', ...(filters ? { filters } : {}) }))
      .results.filter((h) => h.keyword > 0)
      .map((h) => h.path);

  beforeAll(async () => {
    workspaces = await startPostgresWorkspaces();
    const url = workspaces.freshUrl();
    const open = () => {
      const t = tempCore({}, { database: url });
      servers.push(t);
      return t.core;
    };
    a = open();
    b = open();
    await Promise.all([a.context.memory.ready, b.context.memory.ready]);
  }, 120_000);
  afterAll(async () => {
    for (const s of servers) await s.dispose();
    await workspaces?.stop();
  });

  it("finds on one server what the other just wrote, rewrote and deleted (a PM would otherwise not find a colleague's View)", async () => {
    ok(await a.invoke('memory/write', { path: '/memory/views/new.md', content: view('new', 'Fed cuts twice', 'The Fed cuts twice before the ECB.') }));
    // Both servers have searched once: each has built its index before the next writes.
    expect(await search(a, 'Fed')).toEqual(['/memory/views/V-001.md']);
    expect(await search(b, 'Fed')).toEqual(['/memory/views/V-001.md']);

    ok(await b.invoke('memory/write', { path: '/memory/views/new.md', content: view('new', 'Long gilts', 'Gilts rally as the BoE cuts.') }));
    expect(await search(a, 'gilts BoE')).toEqual(['/memory/views/V-002.md']);
    expect(await search(a, 'Fed', 'status:active')).toEqual(['/memory/views/V-001.md']);
    // The vector of B's note reached A's blocks too: a search by meaning alone ranks it first.
    const byMeaning = ok(await a.invoke('memory/search', { query: 'gilts rally BoE', scope: '/memory/' })).results;
    expect(byMeaning[0]).toMatchObject({ path: '/memory/views/V-002.md' });
    expect(byMeaning[0].vector).toBeGreaterThan(byMeaning[1]?.vector ?? 0);

    ok(
      await a.invoke('memory/write', {
        path: '/memory/views/V-001.md',
        content: view('V-001', 'Curve steepener', 'Front-end yields fall; 2s10s steepens.'),
        expectedVersion: 1,
      }),
    );
    expect(await search(b, 'steepener')).toEqual(['/memory/views/V-001.md']);

    await a.context.memory.fs.deleteFile('/memory/views/V-002.md', { actor: 'pm' });
    expect(await search(b, 'gilts BoE')).not.toContain('/memory/views/V-002.md');
  });

  it("searches a session's files with memory on a desk (scope all, with a filter word), as on a PM's own file", async () => {
    const sessions = a.context.memory.store.sessions;
    sessions.ensure('s-desk', '2026-01-02T00:00:00.000Z');
    sessions.putFile('s-desk', 'results/gilts.md', '# Gilt supply\nGilts cheapen into the auction.', '2026-01-02T00:00:00.000Z', 'h1');
    sessions.putFile('s-desk', 'results/other.md', '# Gilt curve\nNothing on supply.', '2026-01-02T00:00:00.000Z', 'h2');
    const hits = ok(await b.invoke('memory/search', { query: 'gilt', scope: 'all', session_id: 's-desk', filters: 'auction' })).results;
    expect(hits.map((h) => h.path)).toEqual(['/session/results/gilts.md']);
  });

  it('says in Settings → Search that on a desk the in-memory index is the ranking', async () => {
    const status = ok(await b.invoke('search/status', {}));
    expect(status.keywordRanking).toMatch(/on a desk's PostgreSQL this index is the ranking/);
    expect(status.indexed).toBe(status.records);
  });
});
