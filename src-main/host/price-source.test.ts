import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { tempCore } from './testing';

/**
 * expressions/price-source through the real core (SQLite workspace, the providers the app
 * registers, the demo's sample files): the Expression page asks it where a trade's prices come
 * from, and it must answer what "Check exits now" (tracking/run) then does.
 */
let t: ReturnType<typeof tempCore>;
beforeEach(async () => {
  t = tempCore();
  await t.core.context.memory.ready;
});
afterEach(() => t.dispose());

describe('expressions/price-source on the demo workspace', () => {
  it('names the sample file the seed E-001 is followed on, and the tracker closes on that same series', async () => {
    const r = await t.core.invoke('expressions/price-source', { id: 'E-001' });
    if (!r.ok) throw new Error(r.error.message);
    // What the PM would see wrong: a page naming no source, or one the tracker does not read.
    expect(r.value.series).toEqual([
      expect.objectContaining({
        ref: 'ust_yields.sofr_2y_swap',
        used: true,
        provider: 'datasets',
        source: expect.stringMatching(/^csv \S+\/ust_yields\.csv$/),
      }),
    ]);
    const followed = r.value.series[0]!;
    expect(followed.lastClose?.date).toBe(followed.asOf);

    const fs = t.core.context.memory.fs;
    const path = '/memory/expressions/E-001.md';
    await fs.writeFile(path, fs.readFile(path).replace('Target: 3.17%', 'Target: 3.40%'), { actor: 'pm' });
    const run = await t.core.invoke('tracking/run', {});
    if (!run.ok) throw new Error(run.error.message);
    expect(run.value.closed.find((c) => c.id === 'E-001')?.reason).toContain(`read from ust_yields.sofr_2y_swap (${followed.source})`);

    const after = await t.core.invoke('expressions/price-source', { id: 'E-001' });
    if (!after.ok) throw new Error(after.error.message);
    expect(after.value.recorded).toEqual({
      series: 'ust_yields.sofr_2y_swap',
      source: `datasets: ${followed.source}`,
      asOf: expect.stringMatching(/^\d{4}-\d{2}-\d{2}$/),
    });
  });

  it('refuses an unknown Expression and a malformed id with typed errors', async () => {
    const missing = await t.core.invoke('expressions/price-source', { id: 'E-999' });
    expect(missing).toMatchObject({ ok: false, error: { code: 'not_found' } });
    const bad = await t.core.invoke('expressions/price-source', { id: '../V-001' } as never);
    expect(bad).toMatchObject({ ok: false, error: { code: 'invalid_input' } });
  });
});
