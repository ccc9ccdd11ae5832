import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PostgresConnection } from '../../store/postgres/connection';
import { racingServer } from '../../store/postgres/racing-server';
import { skipWithoutPostgres } from '../../store/postgres/test-server';
import { type PostgresWorkspaces, startPostgresWorkspaces } from '../../store/postgres/test-workspaces';
import type { Core } from '../core';
import { tempCore } from '../testing';
import { packageRoot } from '../version';

const here = dirname(fileURLToPath(import.meta.url));
const seed = () => readFileSync(join(packageRoot(), 'resources', 'seed', 'memory', 'expressions', 'E-001.md'), 'utf8');

/** Outcomes recorded for an Expression, and the tracker's closes of it in the audit trail. */
function closesOf(url: string, id: string): { outcomes: number; closes: number } {
  const raw = PostgresConnection.open(url);
  try {
    const outcomes = raw.query("SELECT 1 FROM memory_records WHERE category = 'outcomes' AND json_extract(header, '$.expression') = $1", [id]).length;
    const closes = raw.query("SELECT 1 FROM audit_log WHERE path = $1 AND actor = 'scheduler'", [`/memory/expressions/${id}.md`]).length;
    return { outcomes, closes };
  } finally {
    raw.close();
  }
}

function ok<T>(r: { ok: true; value: T } | { ok: false; error: { code: string; message: string } }): T {
  if (!r.ok) throw new Error(`${r.error.code}: ${r.error.message}`);
  return r.value;
}

/**
 * Two Forge servers on one desk database both run the hourly tracker at the same moment. The
 * sample 2y SOFR receiver (E-001, target moved to 3.40%, hit by 2026-11-20 in the bundled data)
 * must be closed once, with one Outcome: a second close would put a second Outcome (and a second
 * P&L) into the PM's calibration and the desk's realised P&L.
 */
describe.skipIf(skipWithoutPostgres())("two servers' trackers on one desk close an Expression once", { timeout: 180_000 }, () => {
  let workspaces: PostgresWorkspaces;
  let url: string;
  const servers: ReturnType<typeof tempCore>[] = [];
  let a: Core;
  let b: Core;

  beforeAll(async () => {
    workspaces = await startPostgresWorkspaces();
    url = workspaces.freshUrl();
    for (let i = 0; i < 2; i++) servers.push(tempCore({}, { database: url }));
    [a, b] = servers.map((s) => s.core) as [Core, Core];
    await Promise.all([a.context.memory.ready, b.context.memory.ready]);
  }, 120_000);
  afterAll(async () => {
    for (const s of servers) await s.dispose();
    await workspaces?.stop();
  });

  it('racing tracking runs in two servers close E-001 once and write one Outcome; the other reports nothing closed', async () => {
    await a.context.memory.fs.writeFile('/memory/expressions/E-001.md', seed().replace('Target: 3.17%', 'Target: 3.40%'), { actor: 'pm' });
    expect(b.context.memory.fs.recordInfo('/memory/expressions/E-001.md')?.status).toBe('active');

    const [one, two] = await Promise.all([a.invoke('tracking/run', {}), b.invoke('tracking/run', {})]).then((rs) => rs.map(ok));
    const closedBy = [...one.closed, ...two.closed].filter((c) => c.id === 'E-001');
    expect(closedBy, 'exactly one server reports the close').toHaveLength(1);
    expect(closedBy[0]?.reason).toMatch(/target/);
    expect(closesOf(url, 'E-001'), 'one close in the audit trail, one Outcome').toEqual({ outcomes: 1, closes: 1 });
    expect(a.context.memory.fs.recordInfo('/memory/expressions/E-001.md')?.status).toBe('closed');
  });

  it('two server processes running their trackers at the same instant over 6 trades past their targets close each once, with one Outcome each', async () => {
    const ids = ['E-011', 'E-012', 'E-013', 'E-014', 'E-015', 'E-016'];
    for (const id of ids) {
      const text = seed().replace('# E-001', `# ${id}`).replace('Target: 3.17%', 'Target: 3.40%');
      await a.context.memory.fs.writeFile(`/memory/expressions/${id}.md`, text, { actor: 'pm' });
    }
    const one = racingServer<string[]>(join(here, 'tracker.child.ts'), [url], 'server one');
    const two = racingServer<string[]>(join(here, 'tracker.child.ts'), [url], 'server two');
    await Promise.all([one.ready, two.ready]);
    one.go();
    two.go();
    const [byOne, byTwo] = await Promise.all([one.done, two.done]);
    // Every trade is closed by exactly one of the two servers…
    expect([...byOne, ...byTwo].filter((id) => ids.includes(id)).sort()).toEqual(ids);
    // …and the desk's record shows one close and one Outcome per trade (no doubled P&L in calibration).
    for (const id of ids) expect(closesOf(url, id), id).toEqual({ outcomes: 1, closes: 1 });
  });
});
