import { afterEach, describe, expect, it } from 'vitest';
import { tempCore } from '../testing';

let t: ReturnType<typeof tempCore> | undefined;
afterEach(async () => {
  await t?.dispose();
  t = undefined;
});

async function ready() {
  t = tempCore();
  await t.core.context.memory.ready;
  return t.core;
}

const proposal = (notional: number) =>
  `# new — PM trade ${notional}\nstatus: proposed\nview_id: V-001\ninstrument: USD 5y swap\nnotional: ${notional}\nmax_loss_pct: 1.5\nduration_impact: 0.5\nfactor: usd_swap_spread\n---\n## SUMMARY\nPM idea.\n`;

describe('guardrails/limits', () => {
  it("serves the limits the write tool enforces: the PM's constraints.md where it sets them, defaults elsewhere, with usage on the computed book", async () => {
    const core = await ready();
    await core.context.memory.fs.writeFile(
      '/portfolio/constraints.md',
      '# constraints — tighter book\nmax_single_risk: 2.5\nmax_gross: 150\n---\nDesk limits after the drawdown.\n',
      { actor: 'pm' },
    );
    const r = await core.invoke('guardrails/limits', {});
    expect(r.ok && r.value).toMatchObject({
      limits: { maxSingleRisk: 2.5, maxGross: 150, maxDuration: 5, maxFactorConcentration: 30 },
      fromConstraints: { maxSingleRisk: true, maxGross: true, maxDuration: false, maxFactorConcentration: false },
    });
    expect(r.ok && r.value.usage[0]).toEqual({ rule: 'max_gross_exposure', value: 142.5, limit: 150 });
  });
});

describe('portfolio/book', () => {
  it('returns the computed book and follows an approval live (portfolio/changed)', async () => {
    const core = await ready();
    const before = await core.invoke('portfolio/book', {});
    expect(before.ok && before.value).toMatchObject({ asOf: '2026-11-20', navMusd: 500, gross: 142.5, net: 38, duration: 3.1 });
    expect(before.ok && before.value.open.map((o) => o.id)).toEqual(['E-001', 'E-002', 'E-003']);

    const fs = core.context.memory.fs;
    const { applyWrite } = await import('../../tools');
    const w = await applyWrite(
      fs,
      '/memory/expressions/new.md',
      proposal(30),
      { actor: 'pm' },
      { limits: { maxSingleRisk: 5, maxGross: 200, maxDuration: 5, maxFactorConcentration: 30 } },
    );
    let changes = 0;
    const off = core.context.events.subscribe((m) => m.event === 'portfolio/changed' && changes++);
    const approved = await core.invoke('expressions/approve', { id: w.id! });
    off();
    expect(approved.ok && approved.value.approved).toBe(true);
    expect(changes).toBeGreaterThan(0);
    const after = await core.invoke('portfolio/book', {});
    expect(after.ok && after.value.gross).toBe(172.5);
    expect(after.ok && after.value.open.find((o) => o.id === w.id)).toMatchObject({ notional: 30, inSnapshot: false });
  });
});

describe('portfolio/import', () => {
  const csv = 'instrument,factor,exposure_pct_nav,duration,expression\nUST 10y,us_rates,60,2,E-001\nEUR/USD,fx,-20,0,\n';

  it('replaces the snapshot with a valid file, keeping the previous one, and the book follows', async () => {
    const core = await ready();
    const r = await core.invoke('portfolio/import', { csv, asOf: '2026-11-23' });
    expect(r.ok, JSON.stringify(r)).toBe(true);
    if (!r.ok) return;
    expect(r.value).toMatchObject({ rows: 2, asOf: '2026-11-23' });
    expect(r.value.book).toMatchObject({ gross: 80, net: 40, duration: 2, navMusd: 500 });
    const fs = core.context.memory.fs;
    expect(fs.readFile(r.value.previousKeptAs!)).toContain('Demo positions snapshot');
    expect(fs.readFile('/portfolio/state.md')).toContain('| UST 10y | us_rates | 60 | 2 | E-001 |');
    const audit = core.context.memory.store.audit.list({ path: '/portfolio/state.md', limit: 1 });
    expect(audit[0]).toMatchObject({ actor: 'pm', operation: 'import' });
  });

  it('changes nothing when any row is bad, and says which row and column', async () => {
    const core = await ready();
    const fs = core.context.memory.fs;
    const state = fs.readFile('/portfolio/state.md');
    const r = await core.invoke('portfolio/import', { csv: `${csv}Gold,,5,0,\nOil,commodities,lots,0,\n` });
    expect(r.ok).toBe(false);
    if (r.ok) return;
    expect(r.error.code).toBe('invalid_input');
    expect(r.error.message).toContain('Row 4, column factor: is empty.');
    expect(r.error.message).toContain('Row 5, column exposure_pct_nav: "lots" is not a number.');
    expect(fs.readFile('/portfolio/state.md')).toBe(state);
    expect(
      fs
        .listDir('/portfolio/')
        .entries.map((e) => e.name)
        .sort(),
    ).toEqual(['constraints.md', 'state.md']);
  });
});
