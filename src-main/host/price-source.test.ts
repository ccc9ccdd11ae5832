import { copyFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
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
      source: `datasets: ${followed.source!.replace(/^csv /, '')}`,
      asOf: expect.stringMatching(/^\d{4}-\d{2}-\d{2}$/),
    });
  });

  it("follows a Yahoo export dropped into the PM's data folder: the page names the file, and the tracker closes on it", async () => {
    // Failing this, an Expression on the PM's own file would be skipped ("no market data"), or closed on another source.
    const folder = join(t.dataDir, 'datasets');
    mkdirSync(folder, { recursive: true });
    copyFileSync(join(__dirname, '..', 'providers', 'fixtures', 'yahoo-spy.csv'), join(folder, 'yahoo-spy.csv'));
    const fs = t.core.context.memory.fs;
    const written = await fs.writeFile(
      '/memory/expressions/new.md',
      '# new — Long SPY\nstatus: active\nview_id: V-001\ninstrument: SPY\ndirection: long\nquote: price\nnotional: 5\nmax_loss_pct: 0.5\nduration_impact: 0.1\nfactor: equities\nprice_series: ["yahoo-spy.Adj Close"]\nentry_date: 2024-03-25\ntarget: 517\nstop: 500\n---\n## SUMMARY\nLong SPY on the adjusted close.\n',
      { actor: 'pm' },
    );
    const id = written.id!;
    // A second trade on the same file whose levels are never reached: left open, and the run says what it read.
    const open = await fs.writeFile(
      '/memory/expressions/new.md',
      '# new — Long SPY, wide\nstatus: active\nview_id: V-001\ninstrument: SPY\ndirection: long\nquote: price\nnotional: 5\nmax_loss_pct: 0.5\nduration_impact: 0.1\nfactor: equities\nprice_series: yahoo-spy.Close\nentry_date: 2024-03-25\ntarget: 600\nstop: 400\n---\n## SUMMARY\nWide levels.\n',
      { actor: 'pm' },
    );
    const page = await t.core.invoke('expressions/price-source', { id });
    if (!page.ok) throw new Error(page.error.message);
    expect(page.value.series).toEqual([
      expect.objectContaining({
        ref: 'yahoo-spy.Adj Close',
        used: true,
        provider: 'datasets',
        source: 'csv datasets/yahoo-spy.csv',
        asOf: '2024-04-02',
        lastClose: { date: '2024-04-02', close: 513.29126 },
      }),
    ]);

    const run = await t.core.invoke('tracking/run', {});
    if (!run.ok) throw new Error(run.error.message);
    // Adjusted closes: 514.211243 on 03-25, first at or above 517 is 03-27's 517.57489.
    expect(run.value.closed.find((c) => c.id === id)?.reason).toMatch(
      /^target on 2024-03-27 at 517\.57489 \(\+3\.27 bp, OUT-\d+\), read from yahoo-spy\.Adj Close \(csv datasets\/yahoo-spy\.csv\)$/,
    );
    expect(run.value.open).toContainEqual({ id: open.id, series: 'yahoo-spy.Close (csv datasets/yahoo-spy.csv), as of 2024-04-02' });
  });

  it('refuses an unknown Expression and a malformed id with typed errors', async () => {
    const missing = await t.core.invoke('expressions/price-source', { id: 'E-999' });
    expect(missing).toMatchObject({ ok: false, error: { code: 'not_found' } });
    const bad = await t.core.invoke('expressions/price-source', { id: '../V-001' } as never);
    expect(bad).toMatchObject({ ok: false, error: { code: 'invalid_input' } });
  });
});
