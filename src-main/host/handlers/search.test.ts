import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { EnvSecretStore } from '../../config/secrets';
import { createCore, type Core } from '../core';

let dir: string;
let core: Core;
beforeEach(async () => {
  dir = mkdtempSync(join(tmpdir(), 'forge-searchapi-'));
  core = createCore({ dataDir: dir, mode: 'test', secrets: new EnvSecretStore({}) });
  await core.context.memory.ready;
});
afterEach(async () => {
  await core.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('memory/search API', () => {
  it('finds the demo View about Fed cuts, with scores and the tool-formatted text', async () => {
    const r = await core.invoke('memory/search', { scope: '/memory/views/', query: 'Fed cuts before the ECB', max_results: 3 });
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(r.value.results[0].path).toBe('/memory/views/V-001.md');
    expect(r.value.results[0].header.split('\n')[1]).toBe('status: active');
    expect(r.value.results.length).toBeLessThanOrEqual(3);
    expect(r.value.formatted.split('\n')[0]).toBe(`Search: 'Fed cuts before the ECB' in /memory/views/ (${r.value.results.length} results)`);
    for (const x of r.value.results) expect(x.score).toBeCloseTo(0.7 * x.semantic + 0.3 * x.recency, 3);
  });

  it('uses the search weights from Settings', async () => {
    await core.invoke('settings/set', { settings: { searchWeights: { semantic: 1, recency: 0 } } });
    const r = await core.invoke('memory/search', { scope: '/memory/', query: 'Fed cuts' });
    expect(r.ok && r.value.results.every((x) => Math.abs(x.score - x.semantic) < 1e-3)).toBe(true);
  });

  it('bad input comes back as invalid_input with a readable message, never a crash', async () => {
    const bad: [Record<string, unknown>, RegExp][] = [
      [{ scope: '/memory/', query: '' }, /empty/],
      [{ scope: '/memory/', query: 'x'.repeat(100_000) }, /characters long/],
      [{ scope: '/memory/unknown/', query: 'rates' }, /no memory folder/],
      [{ scope: '/memory/', query: 'rates', filters: 'since:2026-13-01' }, /not a date/],
    ];
    for (const [input, msg] of bad) {
      const r = await core.invoke('memory/search', input as never);
      expect(r.ok).toBe(false);
      if (r.ok) continue;
      expect(r.error.code).toBe('invalid_input');
      expect(r.error.message).toMatch(msg);
    }
    const odd = await core.invoke('memory/search', { scope: '/memory/', query: 'Fed \uDC00cuts' });
    expect(odd.ok).toBe(true);
  });
});

describe('search/status and search/reindex', () => {
  it('reports the offline embedder, nothing queued, every record indexed; reindex streams progress', async () => {
    const s = await core.invoke('search/status', {});
    expect(s.ok).toBe(true);
    if (!s.ok) return;
    expect(s.value).toMatchObject({ embedder: 'hash-ngram-384', dims: 384, stale: false, queued: 0 });
    // Settings → Search shows the same ranking on every machine (no compiler, no native part); a
    // fallback to SQLite's slower bm25() would show here with its reason.
    expect(s.value.keywordRanking).toMatch(/^exact BM25, in memory/);
    expect(s.value.indexed).toBe(s.value.records);
    expect(s.value.records).toBeGreaterThan(5);

    const seen: { done: number; total: number }[] = [];
    const off = core.context.events.subscribe((m) => {
      if (m.event === 'search/reindex-progress') seen.push(m.payload as { done: number; total: number });
    });
    const r = await core.invoke('search/reindex', {});
    off();
    expect(r.ok && r.value).toEqual({ done: s.value.records, total: s.value.records, embedder: 'hash-ngram-384' });
    expect(seen[0].done).toBe(0);
    expect(seen.at(-1)).toEqual({ done: s.value.records, total: s.value.records, embedder: 'hash-ngram-384' });
  });

  it('lists a note parked after repeated embedding failures, and search/retry-parked queues it again', async () => {
    // If this fails, Settings → Search cannot show which notes lack a meaning vector, or Retry does nothing.
    const db = core.context.memory.store.db;
    const note = db.prepare("SELECT rid, category, id FROM memory_records WHERE category = 'views' ORDER BY rid LIMIT 1").get() as {
      rid: number;
      category: string;
      id: string;
    };
    db.prepare(
      "INSERT INTO search_queue (rid, category, id, queued_at, attempts, last_error) VALUES (?, ?, ?, '2026-01-12T14:00:00Z', 3, 'the tokenizer failed')",
    ).run(note.rid, note.category, note.id);
    const before = await core.invoke('search/status', {});
    expect(before.ok && { parked: before.value.parked, notes: before.value.parkedNotes, queued: before.value.queued }).toEqual({
      parked: 1,
      notes: [{ category: 'views', id: note.id, attempts: 3, lastError: 'the tokenizer failed', queuedAt: '2026-01-12T14:00:00Z' }],
      queued: 0,
    });
    expect(before.ok && before.value.modelStall).toBe(null);
    expect(await core.invoke('search/retry-parked', {})).toEqual({ ok: true, value: { retried: 1 } });
    const after = await core.invoke('search/status', {});
    expect(after.ok && after.value.parked).toBe(0);
  });

  it('a rebuild the PM cancels stops between batches with `cancelled`, and the next rebuild finishes', async () => {
    const fs = core.context.memory.fs;
    for (let i = 0; i < 300; i++) {
      await fs.writeFile(
        '/memory/observations/new.md',
        `# new — Note ${i} on curve steepening\ncategory: macro_regime\n---\n## SUMMARY\nTerm premium ${i}.\n`,
        { actor: 'pm' },
      );
    }
    expect(await core.invoke('search/reindex-cancel', {})).toEqual({ ok: true, value: { cancelled: false } });
    let cancel: Promise<unknown> | undefined;
    const off = core.context.events.subscribe((m) => {
      // After the first batch: the stop lands while batches remain.
      if (m.event === 'search/reindex-progress' && (m.payload as { done: number }).done > 0) cancel ??= core.invoke('search/reindex-cancel', {});
    });
    const stopped = await core.invoke('search/reindex', {});
    off();
    expect(await cancel).toEqual({ ok: true, value: { cancelled: true } });
    // If this fails, Cancel on the Settings screen does nothing and the PM waits for the whole rebuild.
    expect(stopped.ok).toBe(false);
    if (!stopped.ok) expect(stopped.error).toMatchObject({ code: 'cancelled', message: 'Rebuild stopped; run it again to finish.' });
    const again = await core.invoke('search/reindex', {});
    expect(again.ok && again.value.done).toBe(again.ok && again.value.total);
  });
});
