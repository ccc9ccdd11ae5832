import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openUntrusted, rebuildDatabase } from './import-copy';
import { migrations } from './migrations';
import { Store } from './store';
import { plainRecord } from './testing';

let store: Store;
beforeEach(() => {
  store = Store.open(':memory:');
});
afterEach(() => store.close());

const note = (s: Store, id: string, body: string) => s.records.upsert(plainRecord({ category: 'observations', id, title: `note ${id}`, body })).rid;
const matches = (s: Store, word: string) =>
  (s.db.prepare('SELECT rowid FROM memory_fts WHERE memory_fts MATCH ? ORDER BY rowid').pluck().all(word) as number[]).map(Number);
const leftovers = (s: Store) => ({
  log: (s.db.prepare('SELECT count(*) FROM memory_text_pending').pluck().get() as number) ?? 0,
  switch: (s.db.prepare('SELECT count(*) FROM memory_text_deferral').pluck().get() as number) ?? 0,
});
/** FTS5's row total (first varint of its averages record): what the keyword index checks against memory_changes. */
const ftsRows = (s: Store) => {
  const b = s.db.prepare('SELECT block FROM memory_fts_data WHERE id = 1').pluck().get() as Buffer;
  let v = 0;
  for (let i = 0; i < 9; i++) {
    v = v * 128 + (b[i] & 0x7f);
    if (!(b[i] & 0x80)) break;
  }
  return v;
};

describe('memory full text, written once per write transaction', () => {
  it('writes a batch of notes as one full-text segment, not one per note (an import of 10,000 notes took twice as long)', () => {
    const rids: number[] = [];
    store.writeTransaction(() => {
      for (let i = 1; i <= 30; i++) {
        // The statements of a real write between notes: an id taken, an audit entry.
        store.records.takeNextNumber('O');
        rids.push(note(store, `O-${i}`, `steepener number ${i}`));
        store.audit.append({
          at: '2026-05-01',
          actor: 'pm',
          operation: 'create',
          path: `/memory/observations/O-${i}.md`,
          session_id: null,
          task_id: null,
          content_hash: 'x',
        });
      }
    });
    // Rows flushed together share an origin; a flush per note gives each its own.
    const origins = store.db
      .prepare(`SELECT count(DISTINCT origin) FROM memory_fts_docsize WHERE id IN (${rids.join(',')})`)
      .pluck()
      .get();
    expect(origins).toBe(1);
    expect(matches(store, 'steepener')).toEqual(rids);
    expect(leftovers(store)).toEqual({ log: 0, switch: 0 });
  });

  it('leaves the full text exactly as the immediate triggers do, through inserts, rewrites and deletes in one transaction (else keyword search stops using its fast index)', () => {
    const other = Store.open(':memory:');
    try {
      const script = (s: Store) => {
        const a = note(s, 'O-1', 'curve steepener');
        const b = note(s, 'O-2', 'payrolls miss');
        s.records.upsert(plainRecord({ category: 'observations', id: 'O-1', title: 'note O-1', body: 'curve flattener now' }));
        s.records.delete(b);
        note(s, 'O-3', 'payrolls beat');
        s.records.upsert(plainRecord({ category: 'observations', id: 'O-3', title: 'note O-3', body: 'payrolls beat again' }));
        return a;
      };
      store.writeTransaction(() => script(store)); // deferred
      other.db.transaction(() => script(other)).immediate(); // a raw transaction: immediate triggers
      for (const w of ['steepener', 'flattener', 'payrolls', 'miss', 'again', 'curve'])
        expect({ w, rids: matches(store, w) }).toEqual({ w, rids: matches(other, w) });
      const sizes = (s: Store) => s.db.prepare('SELECT id, hex(sz) FROM memory_fts_docsize ORDER BY id').raw().all();
      expect(sizes(store)).toEqual(sizes(other));
      // One FTS5 row per logged insert or update, as the keyword index expects.
      const ops = store.db.prepare('SELECT count(*) FROM memory_changes WHERE op <> 3').pluck().get();
      expect(ftsRows(store)).toBe(ops);
      expect(ftsRows(store)).toBe(ftsRows(other));
    } finally {
      other.close();
    }
  });

  it("lets a query inside the transaction find the transaction's own writes", () => {
    store.writeTransaction(() => {
      note(store, 'O-1', 'tariffs widen the spread');
      const filter = { where: 'r.rid IN (SELECT rowid FROM memory_fts WHERE memory_fts MATCH ?)', params: ['tariffs'] };
      expect(store.records.list('observations', filter, 10, 0).rows.map((r) => r.id)).toEqual(['O-1']);
    });
  });

  it('takes nothing half-done from a rolled-back write, and other writers are indexed at once as before', () => {
    expect(() =>
      store.writeTransaction(() => {
        note(store, 'O-1', 'aluminium glut');
        throw new Error('the PM cancelled');
      }),
    ).toThrow('the PM cancelled');
    expect(matches(store, 'aluminium')).toEqual([]);
    expect(leftovers(store)).toEqual({ log: 0, switch: 0 });
    // A plain SQL writer (another process, the command line) outside Forge's write transactions.
    const rid = note(store, 'O-2', 'aluminium squeeze');
    expect(matches(store, 'aluminium')).toEqual([rid]);
  });

  it('keeps logging after a nested write fails and is caught, and indexes the outer writes at its commit', () => {
    let kept = 0;
    store.writeTransaction(() => {
      kept = note(store, 'O-1', 'copper rally');
      try {
        store.writeTransaction(() => {
          note(store, 'O-2', 'copper slump');
          throw new Error('refused');
        });
      } catch {
        // the caller carries on
      }
      note(store, 'O-3', 'copper again');
    });
    expect(matches(store, 'copper')).toEqual([kept, store.records.get('observations', 'O-3')!.rid]);
    expect(matches(store, 'slump')).toEqual([]);
    expect(leftovers(store)).toEqual({ log: 0, switch: 0 });
  });

  it('rebuilds an imported workspace with its full text written once, finding what the archive found', () => {
    const dir = mkdtempSync(join(tmpdir(), 'forge-fts-import-'));
    try {
      const archive = Store.open(join(dir, 'archive.db'));
      // Written by another process's raw SQL: one segment per note in the archive.
      for (let i = 1; i <= 25; i++) note(archive, `O-${i}`, `basis trade ${i}`);
      const want = matches(archive, 'basis');
      archive.close();
      const source = openUntrusted(join(dir, 'archive.db'));
      const { db } = rebuildDatabase(source, migrations.length, join(dir, 'new.db'));
      source.close();
      try {
        expect(db.prepare("SELECT rowid FROM memory_fts WHERE memory_fts MATCH 'basis' ORDER BY rowid").pluck().all()).toEqual(want);
        expect(db.prepare('SELECT count(DISTINCT origin) FROM memory_fts_docsize').pluck().get()).toBe(1);
        expect(db.prepare('SELECT count(*) FROM memory_text_deferral').pluck().get()).toBe(0);
      } finally {
        db.close();
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
