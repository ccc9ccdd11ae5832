import { utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { fixture, type Fixture } from './__tests__/fixtures';
import { TtlCache } from './cache';
import { LocalSource } from './local';

let f: Fixture | undefined;
afterEach(() => f?.dispose());

describe('contract cache', () => {
  it('serves a read from the cache for 300 s, then reads the file again', async () => {
    f = fixture();
    let now = 1_000_000;
    const cache = new TtlCache({ ttlSeconds: 300, now: () => now });
    const src = new LocalSource({ dir: f.contractsDir, cache, watch: false });
    await src.loadContract('blueprint');
    await src.loadContract('blueprint');
    expect(cache.stats()).toMatchObject({ hits: 1, misses: 1, size: 1 });
    now += 299_000;
    await src.loadContract('blueprint');
    expect(cache.stats().hits).toBe(2);
    now += 2_000; // past 300 s
    await src.loadContract('blueprint');
    expect(cache.stats()).toMatchObject({ hits: 2, misses: 2 });
    src.close();
  });

  it('uses the spec keys and cache_clear() empties everything', async () => {
    f = fixture();
    const cache = new TtlCache({ ttlSeconds: 300 });
    const src = new LocalSource({ dir: f.contractsDir, cache, watch: false });
    await src.getSummary([]);
    await src.getGovernance();
    const keys = [...(cache as unknown as { entries: Map<string, unknown> }).entries.keys()].sort();
    expect(keys).toEqual(
      expect.arrayContaining(['contract:boundaries', 'contract:physics', 'contract:stack', 'governance', 'invariants', 'list_contracts', 'summary']),
    );
    expect(src.clearCache()).toBe(keys.length);
    expect(cache.stats().size).toBe(0);
    src.close();
  });

  it("sees an edited contract at once when the folder is watched (a builder must not read yesterday's rules)", async () => {
    f = fixture();
    const src = new LocalSource({ dir: f.contractsDir });
    expect((await src.loadContract('stack')).content).toContain('The stack contract');
    writeFileSync(join(f.contractsDir, 'stack.md'), '# stack v2\n');
    let content = '';
    for (let i = 0; i < 50 && !content.includes('v2'); i++) {
      await new Promise((r) => setTimeout(r, 20));
      content = String((await src.loadContract('stack')).content);
    }
    expect(content).toBe('# stack v2\n');
    src.close();
  });

  it('sees an edited contract without a watcher too, through the mtime check', async () => {
    f = fixture();
    let now = 1_000_000;
    const src = new LocalSource({ dir: f.contractsDir, watch: false, cache: new TtlCache({ ttlSeconds: 300, now: () => now }) });
    await src.loadContract('ui');
    const file = join(f.contractsDir, 'ui.md');
    writeFileSync(file, '# ui v2 — same length?');
    utimesSync(file, new Date(), new Date(Date.now() + 5_000));
    now += 300; // past the 250 ms re-check interval
    expect((await src.loadContract('ui')).content).toBe('# ui v2 — same length?');
    // Aggregates that depend on the file are dropped too.
    await src.getSummary([]);
    writeFileSync(join(f.contractsDir, 'boundaries.json'), JSON.stringify({ modules: { only: { path: 'x', mayImport: [] } } }));
    utimesSync(join(f.contractsDir, 'boundaries.json'), new Date(), new Date(Date.now() + 10_000));
    now += 300;
    expect((await src.getSummary([])).layers.map((l) => l.name)).toEqual(['only']);
    src.close();
  });

  it('evicts expired entries instead of letting them linger', () => {
    let now = 0;
    const cache = new TtlCache({ ttlSeconds: 10, now: () => now });
    for (let i = 0; i < 100; i++) cache.set(`api:/x/${i}`, i);
    now = 11_000;
    cache.set('fresh', 1);
    expect(cache.get('fresh')).toBe(1); // a read sweeps
    expect(cache.stats().size).toBe(1);
    expect(cache.stats().evictions).toBe(100);
  });
});
