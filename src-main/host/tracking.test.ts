import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { tempCore } from './testing';

/**
 * The learning loop's mechanical half through the real core: the demo's E-001 (receive 2y SOFR,
 * target 3.17%) against the sample market data closes through the real write path, its Outcome is
 * recorded once, the book follows, and calibration is computed from it.
 */
let t: ReturnType<typeof tempCore>;
beforeEach(async () => {
  t = tempCore();
  await t.core.context.memory.ready;
});
afterEach(() => t.dispose());

describe('tracking/run on the demo workspace', () => {
  it('closes a trade whose target was hit, records its Outcome once, and calibration counts it', async () => {
    const events: string[] = [];
    t.core.context.events.subscribe((m) => events.push(m.event));
    const fs = t.core.context.memory.fs;
    // The sample 2y SOFR swap falls to 3.36% by 2026-11-20: with the target at 3.40% it has been hit.
    const path = '/memory/expressions/E-001.md';
    await fs.writeFile(path, fs.readFile(path).replace('Target: 3.17%', 'Target: 3.40%'), { actor: 'pm' });
    const before = await t.core.invoke('portfolio/book', {});
    expect(before.ok && before.value.open.map((o) => o.id)).toContain('E-001');

    const run = await t.core.invoke('tracking/run', {});
    if (!run.ok) throw new Error(run.error.message);
    const closed = run.value.closed.find((c) => c.id === 'E-001');
    // What the PM would see wrong: a trade past its target still open in the book.
    expect(closed?.reason).toMatch(/target/);
    // And which series, from which file, the exit was read from.
    expect(closed?.reason).toMatch(/read from ust_yields\.sofr_2y_swap \(csv \S+\/ust_yields\.csv\)$/);

    expect(fs.recordInfo('/memory/expressions/E-001.md')?.status).toBe('closed');
    expect(fs.readFile('/memory/expressions/E-001.md')).toMatch(/closed_at:/);
    const outcomes = fs.store.records.withStatus('outcomes', ['resolved']).filter((r) => fs.readFile(`/memory/outcomes/${r.id}.md`).includes('E-001'));
    expect(outcomes).toHaveLength(1);
    expect(events).toContain('portfolio/changed');
    const after = await t.core.invoke('portfolio/book', {});
    expect(after.ok && after.value.open.map((o) => o.id)).not.toContain('E-001');

    // A second run changes nothing: no second Outcome, nothing closed again.
    const again = await t.core.invoke('tracking/run', {});
    expect(again.ok && again.value.closed).toEqual([]);
    expect(fs.store.records.withStatus('outcomes', ['resolved']).filter((r) => fs.readFile(`/memory/outcomes/${r.id}.md`).includes('E-001'))).toHaveLength(1);

    const cal = await t.core.invoke('calibration/get', {});
    if (!cal.ok) throw new Error(cal.error.message);
    expect(cal.value.n).toBeGreaterThanOrEqual(1);
    expect(cal.value.categories.map((c) => c.category)).toContain('macro_regime');
    expect(cal.value.history.some((h) => h.category === 'all')).toBe(true);
  });
});
