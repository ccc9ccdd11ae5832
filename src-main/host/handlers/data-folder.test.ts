import { copyFileSync, existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { tempCore } from '../testing';

const FIXTURES = join(import.meta.dirname, '..', '..', 'providers', 'fixtures');

let t: ReturnType<typeof tempCore> | undefined;
const extra: string[] = [];
afterEach(async () => {
  await t?.dispose();
  t = undefined;
  for (const d of extra.splice(0)) rmSync(d, { recursive: true, force: true });
});

async function core() {
  t = tempCore();
  await t.core.context.memory.ready;
  return t;
}

describe('providers/data-folder and providers/set-data-folder (Settings → Data → Your data folder)', () => {
  it('makes <data>/datasets on first start and serves a Stooq file dropped into it at once, beside the sample files', async () => {
    const { core: c, dataDir } = await core();
    const folder = join(dataDir, 'datasets');
    // H2's end-to-end run and the PM both drop files here before anything is configured.
    expect(existsSync(folder)).toBe(true);
    const before = await c.invoke('providers/data-folder', {});
    if (!before.ok) throw new Error(before.error.message);
    expect(before.value).toMatchObject({ folder, defaultFolder: folder, isDefault: true, exists: true });
    expect(before.value.files.map((f) => [f.file, f.origin])).toEqual([
      ['fx_spot.csv', 'sample'],
      ['us_labour.csv', 'sample'],
      ['ust_yields.csv', 'sample'],
    ]);

    copyFileSync(join(FIXTURES, 'spy.us.csv'), join(folder, 'spy.us.csv'));
    writeFileSync(join(folder, 'broken.csv'), 'Date,x\n2024-01-01,1\n2024-02-30,2\n');
    const after = await c.invoke('providers/data-folder', {});
    if (!after.ok) throw new Error(after.error.message);
    expect(after.value.files.filter((f) => f.origin === 'folder')).toEqual([
      {
        file: 'broken.csv',
        origin: 'folder',
        bytes: 33,
        modified: expect.any(String),
        datasets: [],
        dialect: null,
        problems: ['Row 3, column 1 "Date": "2024-02-30" is not a calendar date.'],
      },
      {
        file: 'spy.us.csv',
        origin: 'folder',
        bytes: expect.any(Number),
        modified: expect.any(String),
        datasets: [
          { name: 'spy.us', sheet: null, columns: ['Date', 'Open', 'High', 'Low', 'Close', 'Volume'], rows: 6, first: '2024-01-29', last: '2024-02-05' },
        ],
        dialect: ', delimited, decimal point, dates YYYY-MM-DD, header row, UTF-8, CRLF',
        problems: [],
      },
    ]);
    // The datasets card says where the PM's files come from (until a fetch reports its own health).
    const card = await c.invoke('providers/list', {});
    expect(card.ok && card.value.providers.find((p) => p.name === 'datasets')!.health).toEqual({
      state: 'ok',
      detail: `4 datasets (your folder: ${folder})`,
    });
    // The analyst's fetch and the Data screen's test fetch read it without a restart; the samples still answer.
    const spy = await c.invoke('providers/test-fetch', { name: 'datasets', params: { dataset: 'spy.us', columns: ['Close'] } });
    expect(spy.ok && spy.value).toMatchObject({ label: 'spy.us 2024-01-29..2024-02-05', source: 'csv datasets/spy.us.csv' });
    const ust = await c.invoke('providers/test-fetch', { name: 'datasets', params: { dataset: 'ust_yields', last: 1 } });
    expect(ust.ok && ust.value.source).toBe('csv data/ust_yields.csv');
  });

  it('points the provider at another folder, refusing one that is missing, a file or not a full path, and goes back to the default', async () => {
    const { core: c, dataDir } = await core();
    const exports = mkdtempSync(join(tmpdir(), 'forge-exports-'));
    extra.push(exports);
    writeFileSync(join(exports, 'eurusd.csv'), 'Date;Close\r\n31.01.2024;1,0812\r\n01.02.2024;1,0875\r\n');

    const missing = await c.invoke('providers/set-data-folder', { folder: join(exports, 'nope') });
    expect(missing.ok === false && missing.error).toMatchObject({ code: 'invalid_input', message: `There is no folder ${join(exports, 'nope')}.` });
    const file = await c.invoke('providers/set-data-folder', { folder: join(exports, 'eurusd.csv') });
    expect(file.ok === false && file.error).toMatchObject({ code: 'invalid_input', message: expect.stringContaining('is a file, not a folder') });
    const relative = await c.invoke('providers/set-data-folder', { folder: 'exports' });
    expect(relative.ok === false && relative.error).toMatchObject({ code: 'invalid_input', message: expect.stringContaining('is not a full path') });
    // A refused folder changes nothing.
    expect((await c.invoke('settings/get', {})).ok && c.context.settings.get().providers?.datasets?.folder).toBeFalsy();

    const set = await c.invoke('providers/set-data-folder', { folder: `${exports}/` });
    if (!set.ok) throw new Error(set.error.message);
    expect(set.value).toMatchObject({ folder: exports, isDefault: false, exists: true });
    expect(set.value.files.find((f) => f.origin === 'folder')).toMatchObject({
      file: 'eurusd.csv',
      dialect: '; delimited, decimal comma, dates DD.MM.YYYY (inferred: 31.01.2024 has day first), header row, UTF-8, CRLF',
    });
    expect(c.context.settings.get().providers?.datasets).toMatchObject({ folder: exports, enabled: true });
    const fx = await c.invoke('providers/test-fetch', { name: 'datasets', params: { dataset: 'eurusd' } });
    expect(fx.ok && fx.value.summary).toBe('eurusd: 2 rows 2024-01-31..2024-02-01. Close 1.0812→1.0875 (+0.0063; min 1.0812, max 1.0875).');

    rmSync(join(dataDir, 'datasets'), { recursive: true });
    const back = await c.invoke('providers/set-data-folder', { folder: '' });
    expect(back.ok && back.value).toMatchObject({ folder: join(dataDir, 'datasets'), isDefault: true, exists: true });
    const gone = await c.invoke('providers/test-fetch', { name: 'datasets', params: { dataset: 'eurusd' } });
    expect(gone.ok === false && gone.error.code).toBe('not_found');
  });

  it('tells the Data screen when a file lands in or leaves the watched folder (providers/data-folder-changed)', async () => {
    const { core: c, dataDir } = await core();
    let seen = 0;
    c.context.events.subscribe((m) => {
      if (m.event === 'providers/data-folder-changed') seen++;
    });
    const waitForEvent = async () => {
      const end = Date.now() + 30_000;
      while (!seen && Date.now() < end) await new Promise((r) => setTimeout(r, 50));
      expect(seen).toBeGreaterThan(0);
    };
    const file = join(dataDir, 'datasets', 'gold.csv');
    writeFileSync(file, 'date,close\n2024-01-31,2039.5\n');
    // Without the watcher the screen would learn of the file only on its next poll.
    await waitForEvent();
    const listed = await c.invoke('providers/data-folder', {});
    expect(listed.ok && listed.value.files.some((f) => f.file === 'gold.csv')).toBe(true);
    // Settled after the first event: the next one can only come from the deletion.
    await new Promise((r) => setTimeout(r, 500));
    seen = 0;
    rmSync(file);
    await waitForEvent();
  }, 90_000);

  it('stops watching when the core closes: a file written afterwards announces nothing', async () => {
    const { core: c, dataDir } = await core();
    let seen = 0;
    c.context.events.subscribe((m) => {
      if (m.event === 'providers/data-folder-changed') seen++;
    });
    await c.close();
    seen = 0;
    writeFileSync(join(dataDir, 'datasets', 'late.csv'), 'date,x\n2024-01-31,1\n');
    await new Promise((r) => setTimeout(r, 1500));
    expect(seen).toBe(0);
  });

  it('answers the folder view from a core whose default folder was removed, saying it does not exist', async () => {
    const { core: c, dataDir } = await core();
    rmSync(join(dataDir, 'datasets'), { recursive: true });
    mkdirSync(join(dataDir, 'elsewhere'));
    const r = await c.invoke('providers/data-folder', {});
    expect(r.ok && r.value).toMatchObject({ folder: join(dataDir, 'datasets'), exists: false });
  });
});
