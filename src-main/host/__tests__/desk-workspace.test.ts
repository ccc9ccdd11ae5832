import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PostgresConnection } from '../../store/postgres/connection';
import { skipWithoutPostgres } from '../../store/postgres/test-server';
import { type PostgresWorkspaces, startPostgresWorkspaces } from '../../store/postgres/test-workspaces';
import { applyWrite } from '../../tools';
import type { Core } from '../core';
import { tempCore } from '../testing';
import { packageRoot } from '../version';

const view = (id: string, conf: number) =>
  `# ${id} — Fed cuts twice before the ECB\nstatus: active\nconfidence: ${conf}\nscope: US rates\n---\n## SUMMARY\nGrowth slows into the spring.\n`;
const proposal = `# new — Receive 2y\nstatus: proposed\nview_id: V-001\ninstrument: USD 2y swap\nnotional: 20\nmax_loss_pct: 1.5\nduration_impact: 0.5\nfactor: usd_swap_spread\n---\n## SUMMARY\nThe View's trade.\n`;

function ok<T>(r: { ok: true; value: T } | { ok: false; error: { code: string; message: string } }): T {
  if (!r.ok) throw new Error(`${r.error.code}: ${r.error.message}`);
  return r.value;
}

/**
 * Two Forge servers (two cores, each with its own folder) on one desk database: what one writes,
 * the other reads at once, with the same versions, audit trail and guardrail checks as on a PM's
 * own SQLite file — `forge serve --db` is the whole app, not a subset.
 */
describe.skipIf(skipWithoutPostgres())('two servers on one desk database', { timeout: 180_000 }, () => {
  let workspaces: PostgresWorkspaces;
  let url: string;
  const servers: ReturnType<typeof tempCore>[] = [];
  let a: Core;
  let b: Core;

  beforeAll(async () => {
    workspaces = await startPostgresWorkspaces();
    url = workspaces.freshUrl();
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

  it('starts a desk empty (no sample Views written into the shared database)', async () => {
    expect(ok(await a.invoke('memory/list', { path: '/memory/views/' })).entries).toEqual([]);
  });

  it("shows one server's write on the other at once, and keeps one version history and audit trail for both", async () => {
    const written = ok(await a.invoke('memory/write', { path: '/memory/views/new.md', content: view('new', 0.6) }));
    expect(written).toMatchObject({ path: '/memory/views/V-001.md', version: 1 });
    const read = ok(await b.invoke('memory/read', { path: '/memory/views/V-001.md', depth: 'full' }));
    expect(read.content).toContain('confidence: 0.6');

    // The edit on server B starts from version 1 and lands as version 2; a stale edit on A is refused.
    expect(ok(await b.invoke('memory/write', { path: '/memory/views/V-001.md', content: view('V-001', 0.7), expectedVersion: 1 }))).toMatchObject({
      version: 2,
    });
    const stale = await a.invoke('memory/write', { path: '/memory/views/V-001.md', content: view('V-001', 0.9), expectedVersion: 1 });
    expect(stale.ok ? 'written' : stale.error.code).toBe('conflict');

    const history = ok(await a.invoke('memory/history', { path: '/memory/views/V-001.md' }));
    expect(history.versions).toHaveLength(1);
    const audit = ok(await a.invoke('memory/audit', { path: '/memory/views/V-001.md' }));
    expect(audit.entries.map((e) => e.operation)).toEqual(['update', 'create']);
    expect(audit.entries.map((e) => e.actor)).toEqual(['pm', 'pm']);
  });

  it("approves on one server what the other proposed, with the guardrail check recorded once, and the list filters on the desk's full text", async () => {
    // The desk's book: the sample's positions snapshot, written once on server A, read by both.
    await a.context.memory.fs.writeFile('/portfolio/state.md', readFileSync(join(packageRoot(), 'resources', 'seed', 'portfolio', 'state.md'), 'utf8'), {
      actor: 'pm',
    });
    const w = await applyWrite(
      a.context.memory.fs,
      '/memory/expressions/new.md',
      proposal,
      { actor: 'pm' },
      {
        limits: { maxSingleRisk: 5, maxGross: 200, maxDuration: 5, maxFactorConcentration: 30 },
      },
    );
    expect(w.id, JSON.stringify(w.violations)).toBe('E-001');
    const approved = ok(await b.invoke('expressions/approve', { id: 'E-001' }));
    expect(approved.approved).toBe(true);
    const read = ok(await a.invoke('memory/read', { path: '/memory/expressions/E-001.md', depth: 'full' }));
    expect(read.content).toContain('status: active');
    const raw = PostgresConnection.open(url);
    try {
      const recorded = raw.query<{ stage: string; outcome: string }>(
        "SELECT stage, outcome FROM guardrail_checks WHERE path = '/memory/expressions/E-001.md' ORDER BY seq",
      );
      expect(recorded).toEqual([
        { stage: 'write', outcome: 'written' },
        { stage: 'approve', outcome: 'approved' },
      ]);
    } finally {
      raw.close();
    }
    const listed = ok(await b.invoke('memory/list', { path: '/memory/expressions/', query: 'swap status:active' }));
    expect(listed.entries.map((e) => e.id)).toEqual(['E-001']);
  });

  it('keeps the audit trail append-only in the database itself, whatever connects to it', () => {
    const raw = PostgresConnection.open(url);
    try {
      expect(() => raw.run('DELETE FROM audit_log')).toThrow(/append-only/);
      expect(() => raw.run("UPDATE audit_log SET actor = 'someone else'")).toThrow(/append-only/);
    } finally {
      raw.close();
    }
  });
});
