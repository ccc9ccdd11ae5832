import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Store } from '../../store';
import { parseRecord, renderRecord } from '../codec';
import { ForgeFS } from '../forge-fs';
import { sha256 } from '../hash';
import { spawnWriter, writerCommand } from './child';

let dir: string;
let cmd: string[];

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'forge-durability-'));
  cmd = await writerCommand();
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const acks = (lines: string[]) =>
  lines
    .filter((l) => l.startsWith('ACK '))
    .map((l) => {
      const [, path, hash] = l.split(' ');
      return { path, hash };
    });

describe('two processes writing to one workspace', () => {
  it('never hands the same Observation id to both (ids are unique and gap-free across processes)', async () => {
    const db = join(dir, 'ids.db');
    Store.open(db).close(); // migrate once so both children start on a ready schema
    const n = 300;
    const a = spawnWriter(cmd, [db, join(dir, 'skills-ids'), 'ids', String(n), 'A']);
    const b = spawnWriter(cmd, [db, join(dir, 'skills-ids'), 'ids', String(n), 'B']);
    const t0 = Date.now();
    while (!(a.lines.includes('READY') && b.lines.includes('READY')) && Date.now() - t0 < 20_000) await new Promise((r) => setTimeout(r, 5));
    writeFileSync(`${db}.go`, '');
    expect(await a.done).toBe(0);
    expect(await b.done).toBe(0);
    const all = [...acks(a.lines), ...acks(b.lines)].map((x) => x.path);
    expect(all).toHaveLength(2 * n);
    expect(new Set(all).size).toBe(2 * n);
    const numbers = all.map((p) => Number(/O-(\d+)\.md$/.exec(p)![1])).sort((x, y) => x - y);
    expect(numbers[0]).toBe(1);
    expect(numbers[numbers.length - 1]).toBe(2 * n);
    // The two writers really did interleave: A's ids are not one contiguous block (a block spans n - 1).
    const aNumbers = acks(a.lines).map((x) => Number(/O-(\d+)\.md$/.exec(x.path)![1]));
    expect(Math.max(...aNumbers) - Math.min(...aNumbers)).toBeGreaterThan(n - 1);
    const store = Store.open(db);
    expect((store.db.prepare("SELECT count(*) AS n FROM memory_records WHERE category = 'observations'").get() as { n: number }).n).toBe(2 * n);
    expect((store.db.prepare("SELECT count(*) AS n FROM audit_log WHERE operation = 'create'").get() as { n: number }).n).toBe(2 * n);
    store.close();
  }, 60_000);
});

describe('a writer killed at random points (SIGKILL)', () => {
  it('leaves a database that opens, passes integrity_check, and holds every acknowledged write whole', async () => {
    const db = join(dir, 'crash.db');
    const runs = Number(process.env.FORGE_CRASH_RUNS ?? 50);
    let totalAcked = 0;
    const lastHash = new Map<string, string>();
    for (let run = 0; run < runs; run++) {
      const w = spawnWriter(cmd, [db, join(dir, 'skills-crash'), 'crash', '0', `r${run}`]);
      // Wait until the writer is inside its loop, then kill it after a random delay.
      const t0 = Date.now();
      while (!w.lines.includes('READY') && Date.now() - t0 < 10_000 && w.child.exitCode === null) await new Promise((r) => setTimeout(r, 5));
      await new Promise((r) => setTimeout(r, Math.floor(Math.random() * 120)));
      w.child.kill('SIGKILL');
      await w.done;
      const acked = acks(w.lines);
      totalAcked += acked.length;
      for (const a of acked) lastHash.set(a.path, a.hash);

      const store = Store.open(db);
      try {
        expect(store.db.pragma('integrity_check', { simple: true })).toBe('ok');
        expect(store.db.pragma('foreign_key_check')).toEqual([]);
        const fs = new ForgeFS({ store, skillsDir: join(dir, 'skills-crash') });
        for (const [path, hash] of lastHash) {
          // Every acknowledged write is present. V-001 is rewritten often: a later unacknowledged
          // revision may have committed just before the kill, so it must be that one or newer.
          expect(fs.exists(path)).toBe(true);
          const content = fs.readFile(path);
          if (!path.endsWith('/V-001.md')) expect(sha256(content)).toBe(hash);
        }
        // No half-written record: every row renders, re-parses identically and matches its hash.
        for (const row of store.db.prepare('SELECT id, title, header, body, content_hash FROM memory_records').all() as {
          id: string;
          title: string;
          header: string;
          body: string | null;
          content_hash: string;
        }[]) {
          const content = renderRecord({ id: row.id, title: row.title, header: JSON.parse(row.header), body: row.body });
          expect(sha256(content)).toBe(row.content_hash);
          expect(renderRecord(parseRecord(content))).toBe(content);
        }
        // An Expression written with its Outcome commits with it or not at all.
        const e = (store.db.prepare("SELECT count(*) AS n FROM memory_records WHERE category = 'expressions'").get() as { n: number }).n;
        const o = (store.db.prepare("SELECT count(*) AS n FROM memory_records WHERE category = 'outcomes'").get() as { n: number }).n;
        expect(o).toBe(e);
      } finally {
        store.close();
      }
    }
    // The kills must actually have landed mid-stream, with writes acknowledged before them.
    expect(totalAcked).toBeGreaterThan(runs);
    const store = Store.open(db);
    const records = (store.db.prepare('SELECT count(*) AS n FROM memory_records').get() as { n: number }).n;
    const audited = (
      store.db.prepare("SELECT count(DISTINCT path) AS n FROM audit_log WHERE path LIKE '/memory/%' AND path NOT LIKE '/memory/.archive/%'").get() as {
        n: number;
      }
    ).n;
    expect(audited).toBe(records);
    store.close();
  }, 120_000);
});
