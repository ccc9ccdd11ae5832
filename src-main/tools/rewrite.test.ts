import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { DATABASE_FILE, ForgeFS, parseRecord } from '../fs';
import { defaultGuardrailLimits as limits } from '../guardrails';
import { type IndexableRecord, type MemoryIndexer, Store } from '../store';
import { daily, trackingWorld, type TrackingWorld } from '../tracking/__tests__/harness';
import type { MarketPort } from '../tracking';
import { OutcomeTracker } from '../tracking';
import { rejectExpression } from './approval';
import { closeOnExit } from './close-on-exit';
import { openTestWorkspace, type TestWorkspace } from './testing';
import { applyWrite } from './write-pipeline';

/**
 * Issue #26 §3: a reject and the tracker's close built the new text from a read taken before the
 * write lock, so a PM edit landing in between (a moved stop) was silently overwritten. These
 * races are real: the PM's edit is written through a second SQLite connection to the same
 * workspace file, at the moment between the read and the write (the indexer's prepare step, which
 * runs after the text is built and before BEGIN IMMEDIATE; or the market fetch of the tracker).
 */

const PROPOSAL = `# new — Receive 2y SOFR on softer claims
status: proposed
view_id: V-001
instrument: USD 2y SOFR swap (receive fixed)
notional: 3
max_loss_pct: 0.4
duration_impact: 0.3
factor: us_rates
stop: 3.87%
target: 3.17%
---
## SUMMARY
Receive 2y on two more cuts.
`;

/** An indexer that lets `onPrepare` run once, the first time `id` is about to be written. */
function hookedIndexer(inner: MemoryIndexer | null, id: string, onPrepare: () => Promise<void>): MemoryIndexer & { fired: number } {
  const hook = {
    fired: 0,
    async prepare(record: IndexableRecord) {
      if (record.id === id && hook.fired++ === 0) await onPrepare();
      return inner ? inner.prepare(record) : null;
    },
    apply: (...a: Parameters<MemoryIndexer['apply']>) => inner?.apply(...a),
    remove: (...a: Parameters<MemoryIndexer['remove']>) => inner?.remove(...a),
  };
  return hook;
}

describe('reject while the PM edits the same proposal', () => {
  let t: TestWorkspace;
  let second: Store | null = null;
  afterEach(() => {
    second?.close();
    second = null;
    t?.close();
  });

  it("keeps the PM's moved stop: the rejection is written on top of it, not over it", async () => {
    t = await openTestWorkspace();
    const w = await applyWrite(t.ws.fs, '/memory/expressions/new.md', PROPOSAL, { actor: 'agent', sessionId: 'sess_a' }, { limits });
    expect(w.status).toBe('proposed');
    const id = w.id!;
    const path = `/memory/expressions/${id}.md`;

    // The PM's window: a second connection to the same database file.
    second = Store.open(join(t.dir, DATABASE_FILE));
    const pm = new ForgeFS({ store: second, skillsDir: join(t.dir, 'skills') });
    const moveStop = async () => {
      const r = await applyWrite(pm, path, pm.readFile(path).replace('stop: 3.87%', 'stop: 3.95%'), { actor: 'pm' }, { limits });
      expect(r.ok, r.message).toBe(true);
    };
    const fs = new ForgeFS({ store: t.ws.fs.store, skillsDir: join(t.dir, 'skills'), indexer: hookedIndexer(t.index, id, moveStop) });

    const r = await rejectExpression(fs, id, 'Too much US rates already', limits);

    expect(r.status).toBe('rejected');
    const doc = parseRecord(t.ws.fs.readFile(path));
    // Before: stop 3.87% — the version read before the PM's edit was written back.
    expect(doc.header).toMatchObject({ status: 'rejected', stop: '3.95%', rejection_reason: 'Too much US rates already' });
    // The PM's version is on record as the one the rejection replaced.
    const versions = t.ws.fs.history(path).versions.map((v) => parseRecord(t.ws.fs.readFile(v.archivePath)).header.stop);
    expect(versions).toContain('3.95%');
    expect(t.ws.fs.listDir('/memory/counterfactuals/', `expression:${id}`).entries).toHaveLength(1);
  });
});

/** E-001 of the demo seed: receive 2y at 3.62%, stop 3.87%. */
const E001 = `# E-001 — Receive 2y SOFR swaps
status: active
view_id: V-001
instrument: USD 2y SOFR swap (receive fixed)
notional: 12.0
max_loss_pct: 1.2
factor: us_rates
duration_impact: 1.1
price_series: ust_yields.sofr_2y_swap
---
## SUMMARY
Receive 2y fixed.

## ENTRY
Entered 2026-10-15 at 3.62%.

## EXIT RULES
- Target: 3.17%.
- Stop: 3.87%.
`;

// The swap rate rises to 3.90% on 10-18: through the 3.87% stop, short of a 3.95% one.
const SOFR = daily('2026-10-12', [3.64, 3.63, 3.62, 3.62, 3.7, 3.8, 3.9, 3.85, 3.8]);
const ustYields = `date,us2y,sofr_2y_swap\n${SOFR.map(([d, v]) => `${d},${v},${v}`).join('\n')}\n`;

describe("the tracker's close while the PM moves the stop", () => {
  let world: TrackingWorld;
  let second: Store | null = null;
  afterEach(() => {
    second?.close();
    second = null;
    world?.dispose();
  });

  async function setUp(): Promise<{ path: string; moveStop: () => Promise<void> }> {
    world = trackingWorld({ datasets: { ust_yields: ustYields } });
    world.setClock('2026-10-01T09:00:00.000Z');
    await world.fs.writeFile('/memory/views/V-001.md', '# V-001 — Fed cuts twice more\nstatus: active\nconfidence: 0.7\n---\n## SUMMARY\nA view.\n', {
      actor: 'pm',
    });
    world.setClock('2026-10-15T14:00:00.000Z');
    await world.fs.writeFile('/memory/expressions/E-001.md', E001, { actor: 'pm' });
    const path = '/memory/expressions/E-001.md';
    second = Store.open(join(world.dir, 'forge.db'));
    const pm = new ForgeFS({ store: second, skillsDir: join(world.dir, 'skills') });
    const moveStop = async () => {
      const r = await applyWrite(pm, path, pm.readFile(path).replace('- Stop: 3.87%.', '- Stop: 3.95%.'), { actor: 'pm' }, { limits });
      expect(r.ok, r.message).toBe(true);
    };
    return { path, moveStop };
  }

  const stopOf = (text: string) => /- Stop: (.+)\./.exec(text)?.[1];

  it('an edit between the close being built and the write lock is kept, and the trade is checked again on its new stop', async () => {
    const { path, moveStop } = await setUp();
    const fs = new ForgeFS({ store: world.store, skillsDir: join(world.dir, 'skills'), indexer: hookedIndexer(null, 'E-001', moveStop) });
    const tracker = new OutcomeTracker({ fs, market: world.market, closeExpression: closeOnExit(fs, () => limits) });

    const report = await tracker.runOnce({ now: new Date('2026-10-21T15:00:00Z') });

    const doc = parseRecord(world.fs.readFile(path));
    // Before: closed at the old 3.87% stop, with the PM's 3.95% stop overwritten by the old text.
    expect(stopOf(world.fs.readFile(path))).toBe('3.95%');
    expect(doc.header.status).toBe('active');
    expect(report.closed).toEqual([]);
    expect(report.open.map((o) => o.id)).toEqual(['E-001']);
    expect(world.fs.listDir('/memory/outcomes/').entries).toHaveLength(0);
  });

  it('an edit while the market data is being fetched stops a close decided on the old stop', async () => {
    const { path, moveStop } = await setUp();
    let moved = false;
    const market: MarketPort = {
      async prices(instrument, from, to, signal) {
        if (!moved) {
          moved = true;
          await moveStop();
        }
        return world.market.prices(instrument, from, to, signal);
      },
    };
    const tracker = new OutcomeTracker({ fs: world.fs, market, closeExpression: closeOnExit(world.fs, () => limits) });

    const report = await tracker.runOnce({ now: new Date('2026-10-21T15:00:00Z') });

    expect(stopOf(world.fs.readFile(path))).toBe('3.95%');
    // Before: closed on the 3.87% stop the PM had just moved away from.
    expect(parseRecord(world.fs.readFile(path)).header.status).toBe('active');
    expect(report.closed).toEqual([]);
    expect(report.open.map((o) => o.id)).toEqual(['E-001']);
  });

  it('with no edit, the stop closes the trade as before', async () => {
    const { path } = await setUp();
    const tracker = new OutcomeTracker({ fs: world.fs, market: world.market, closeExpression: closeOnExit(world.fs, () => limits) });
    const report = await tracker.runOnce({ now: new Date('2026-10-21T15:00:00Z') });
    expect(report.closed.map((c) => [c.id, c.reason, c.exitDate, c.exitPrice])).toEqual([['E-001', 'stop', '2026-10-18', 3.9]]);
    expect(parseRecord(world.fs.readFile(path)).header.status).toBe('closed');
  });
});
