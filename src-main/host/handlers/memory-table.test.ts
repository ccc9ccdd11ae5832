import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { expressionSortKey, viewSortKey } from '../../api/memory-table';
import { tableSortKeys } from '../../store';
import type { Core } from '../core';
import { tempCore } from '../testing';

let core: Core;
let dispose: () => Promise<void>;
beforeEach(async () => {
  ({ core, dispose } = tempCore());
  // The demo workspace (V-001..V-006, E-001..E-003) is seeded in the background on first start.
  await core.context.memory.ready;
});
afterEach(() => dispose());

const view = (id: string, title: string, confidence: number, status = 'active') =>
  `# ${id} — ${title}\nstatus: ${status}\nconfidence: ${confidence}\nscope: FX\ncategory: macro_regime\nhorizon: 2027-05-31\n---\n## SUMMARY\n${title}.\n`;

async function table(input: Record<string, unknown>) {
  const r = await core.invoke('memory/table', { category: 'views', sort: 'id', dir: 'asc', offset: 0, limit: 100, ...input });
  if (!r.ok) throw new Error(`${r.error.code}: ${r.error.message}`);
  return r.value;
}
const ids = (v: { rows: { id: string }[] }) => v.rows.map((r) => r.id);

describe('memory/table: the Views and Expressions tables', () => {
  it('sorts Views by confidence, highest first, with ties in id order (V-999 before V-1000, not after)', async () => {
    const fs = core.context.memory.fs;
    // Three more Views at 0.6, the same confidence as the demo's V-002; ids that a text sort misorders.
    await fs.writeFile('/memory/views/V-1000.md', view('V-1000', 'Tie one thousand', 0.6), { actor: 'pm' });
    await fs.writeFile('/memory/views/V-999.md', view('V-999', 'Tie nine nine nine', 0.6), { actor: 'pm' });
    const desc = await table({ sort: 'confidence', dir: 'desc' });
    expect(desc.rows.map((r) => [r.id, r.confidence])).toEqual([
      ['V-001', 0.7],
      ['V-004', 0.65],
      ['V-1000', 0.6],
      ['V-999', 0.6],
      ['V-002', 0.6],
      ['V-003', 0.55],
      ['V-005', 0.5],
      ['V-006', 0.3],
    ]);
    // A second click on the header reverses the list exactly, ties included.
    const asc = await table({ sort: 'confidence', dir: 'asc' });
    expect(ids(asc)).toEqual([...ids(desc)].reverse());
    const byId = await table({ sort: 'id', dir: 'asc' });
    expect(ids(byId)).toEqual(['V-001', 'V-002', 'V-003', 'V-004', 'V-005', 'V-006', 'V-999', 'V-1000']);
  });

  it('returns the typed View columns a PM reads: status, confidence, horizon, category, scope, the real updated time', async () => {
    const fs = core.context.memory.fs;
    const before = (await table({})).rows.find((r) => r.id === 'V-002')!;
    expect(before).toMatchObject({
      path: '/memory/views/V-002.md',
      status: 'active',
      confidence: 0.6,
      horizon: '2027-02-28',
      category: 'macro_regime',
      scope: 'EUR rates',
      instrument: null,
    });
    await new Promise((r) => setTimeout(r, 5));
    await fs.writeFile('/memory/views/V-002.md', fs.readFile('/memory/views/V-002.md').replace('confidence: 0.6', 'confidence: 0.4'), { actor: 'pm' });
    const byUpdated = await table({ sort: 'updated', dir: 'desc' });
    // The edited View is the most recent, dated by the store's write time of its live version.
    // …and it carries the confidence it had before the edit, so Home can say the confidence fell.
    expect(byUpdated.rows[0]).toMatchObject({ id: 'V-002', confidence: 0.4, previousConfidence: 0.6 });
    expect(byUpdated.rows.find((r) => r.id === 'V-001')?.previousConfidence).toBeNull();
    expect(byUpdated.rows[0].updatedAt > before.updatedAt).toBe(true);
    expect(byUpdated.rows[0].updatedAt).toBe(core.context.memory.fs.recordInfo('/memory/views/V-002.md')!.updatedAt);
  });

  it('applies the filter query in SQL (typed keys and words) and counts the matches', async () => {
    const active = await table({ query: 'status:active confidence>=0.6', sort: 'confidence', dir: 'desc' });
    expect(ids(active)).toEqual(['V-001', 'V-004', 'V-002']);
    expect(active.total).toBe(3);
    const words = await table({ query: 'copper' });
    expect(ids(words)).toEqual(['V-005']);
    const none = await table({ query: 'status:closed' });
    expect(none).toMatchObject({ rows: [], total: 0 });
  });

  it('pages through a sorted table: consecutive pages join into the whole order, with a steady total', async () => {
    const fs = core.context.memory.fs;
    await fs.transaction((tx) => {
      for (let i = 0; i < 40; i++) tx.writeFile('/memory/views/new.md', view('new', `Paged view ${i}`, [0.2, 0.4, 0.8][i % 3]), { actor: 'agent' });
    });
    const all = await table({ sort: 'confidence', dir: 'desc', limit: 1000 });
    expect(all.total).toBe(46);
    const pages: string[] = [];
    for (let offset = 0; offset < all.total; offset += 7) {
      const p = await table({ sort: 'confidence', dir: 'desc', offset, limit: 7 });
      expect(p.total).toBe(46);
      pages.push(...ids(p));
    }
    expect(pages).toEqual(ids(all));
    expect(new Set(pages).size).toBe(46);
    const past = await table({ offset: 500 });
    expect(past).toMatchObject({ rows: [], total: 46 });
  });

  it('shows Expressions with instrument, notional, max loss and their View, sortable by size', async () => {
    const r = await core.invoke('memory/table', { category: 'expressions', sort: 'notional', dir: 'desc', offset: 0, limit: 50 });
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(r.value.rows.map((x) => [x.id, x.notional, x.maxLossPct, x.viewId])).toEqual([
      ['E-001', 12, 1.2, 'V-001'],
      ['E-003', 10, 1, 'V-004'],
      ['E-002', 8, 0.8, 'V-002'],
    ]);
    expect(r.value.rows[0].instrument).toBe('USD 2y SOFR swap (receive fixed)');
    const byView = await core.invoke('memory/table', { category: 'expressions', sort: 'view', dir: 'asc', offset: 0, limit: 50 });
    expect(byView.ok && byView.value.rows.map((x) => x.viewId)).toEqual(['V-001', 'V-002', 'V-004']);
  });

  it('refuses an unknown sort column, a column of the other table and a bad query as invalid_input', async () => {
    const unknown = await core.invoke('memory/table', { category: 'views', sort: 'colour', dir: 'asc', offset: 0, limit: 10 });
    expect(!unknown.ok && unknown.error.code).toBe('invalid_input');
    const other = await core.invoke('memory/table', { category: 'views', sort: 'notional', dir: 'asc', offset: 0, limit: 10 });
    expect(!other.ok && other.error.code).toBe('invalid_input');
    const tooMany = await core.invoke('memory/table', { category: 'views', sort: 'id', dir: 'asc', offset: 0, limit: 1001 });
    expect(!tooMany.ok && tooMany.error.code).toBe('invalid_input');
    const badQuery = await core.invoke('memory/table', { category: 'views', sort: 'id', dir: 'asc', offset: 0, limit: 10, query: 'confidence>=' });
    expect(!badQuery.ok && badQuery.error.code).toBe('invalid_input');
    // Nothing was lost: the table still reads.
    expect((await table({})).total).toBe(6);
  });

  it('offers exactly the sort columns the store can sort by (the contract and the SQL agree)', () => {
    expect(tableSortKeys('views')).toEqual(viewSortKey.options);
    expect(tableSortKeys('expressions')).toEqual(expressionSortKey.options);
  });
});
