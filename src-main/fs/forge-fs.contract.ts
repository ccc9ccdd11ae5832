import { mkdtempSync, rmSync, symlinkSync, writeFileSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { InvalidInputError, NotFoundError } from '../common/errors';
import type { IndexableRecord, MemoryIndexer, Store } from '../store';
import { ForgeFS } from './forge-fs';
import { sha256 } from './hash';
import { trackerWriter } from './write-authority';

/** Where a contract run keeps its workspace: a PM's SQLite file, or a desk's PostgreSQL database. */
export interface StoreEngine {
  name: 'sqlite' | 'postgres';
  /** A new, empty workspace Store (a folder is given for the engines that keep a file). */
  open(dir: string): Store;
}

/**
 * ForgeFS's behaviour, stated once and run against each engine (forge-fs.test.ts on SQLite,
 * forge-fs.postgres.test.ts on a real PostgreSQL): the same paths, ids, versions, audit rows,
 * transactions and query language, whichever database holds the workspace.
 */
export function forgeFsContract(engine: StoreEngine): void {
  let dir: string;
  let store: Store;
  let fs: ForgeFS;
  let clock: number;
  const now = () => new Date(Date.UTC(2026, 0, 10) + clock++ * 1000).toISOString();
  const pm = { actor: 'pm' as const };

  const view = (id: string, title: string, conf: number, status = 'active') =>
    `# ${id} — ${title}\nstatus: ${status}\nconfidence: ${conf}\nscope: US rates\nexpressions: [E-001]\n---\n## SUMMARY\n${title}.\n`;

  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'forge-fs-'));
    clock = 0;
    store = engine.open(dir);
    fs = new ForgeFS({ store, skillsDir: join(dir, 'skills'), now });
  });
  afterEach(() => {
    store.close();
    rmSync(dir, { recursive: true, force: true });
  });

  describe('ForgeFS paths', () => {
    it('refuses paths that step outside Forge, with a typed error the PM can act on', () => {
      for (const bad of [
        '/memory/../etc/passwd',
        'memory/views/',
        '/etc/passwd',
        '/memory/views/V-001.md\0',
        '/skills/..',
        '/memory/views\\V-001.md',
        '/memory/secrets/x.md',
        '/memory/views/foo.md',
        '/session/a b/tasks.md',
      ]) {
        expect(() => fs.readFile(bad), bad).toThrow(InvalidInputError);
      }
    });

    it('keeps skills reads inside the skills folder even through a symlink', () => {
      mkdirSync(join(dir, 'skills', 'view-validation'), { recursive: true });
      writeFileSync(join(dir, 'outside.txt'), 'secret');
      symlinkSync(join(dir, 'outside.txt'), join(dir, 'skills', 'view-validation', 'leak.md'));
      expect(() => fs.readFile('/skills/view-validation/leak.md')).toThrow(InvalidInputError);
    });

    it('normalises double slashes and tells folders from files', () => {
      expect(fs.isDir('/memory/views/')).toBe(true);
      expect(fs.isDir('/memory//views')).toBe(true);
      expect(fs.isDir('/memory/views/V-001.md')).toBe(false);
      expect(fs.normalize('//memory//views//')).toBe('/memory/views/');
    });
  });

  describe('memory records', () => {
    it('assigns the next id to new.md and never reuses an id after a delete', async () => {
      const a = await fs.writeFile('/memory/views/new.md', '# new — first\nstatus: active\n', pm);
      const b = await fs.writeFile('/memory/views/new.md', '# Second idea\nstatus: active\n', pm);
      expect([a.path, b.path]).toEqual(['/memory/views/V-001.md', '/memory/views/V-002.md']);
      expect(fs.readFile(b.path).split('\n')[0]).toBe('# V-002 — Second idea');
      await fs.deleteFile('/memory/views/V-002.md', pm);
      const c = await fs.writeFile('/memory/views/new.md', '# new — third\n', pm);
      expect(c.id).toBe('V-003');
      await fs.writeFile('/memory/views/V-010.md', '# V-010 — explicit\n', pm);
      expect(fs.nextId('views')).toBe('V-011');
    });

    it('gives a new record the next free id even when the id sequence lags behind a record copied in by other means', async () => {
      // If this failed, saving a new View would silently overwrite an existing one (archived as its "old version").
      store.db
        .prepare(
          `INSERT INTO memory_records (category, id, title, status, meta, created_at, updated_at, header, body, content_hash)
           VALUES ('views', 'V-001', 'Copied in', 'active', '', '2026-01-01', '2026-01-01', '{"status":"active"}', 'Kept.', 'x')`,
        )
        .run();
      const written = await fs.writeFile('/memory/views/new.md', view('new', 'Fresh idea', 0.5), pm);
      expect(written.path).toBe('/memory/views/V-002.md');
      expect(written.created).toBe(true);
      expect(fs.readFile('/memory/views/V-001.md')).toContain('Copied in');
      expect(fs.history('/memory/views/V-001.md').versions).toEqual([]);
    });

    it('refuses a record whose title line names a different id than its path', async () => {
      await expect(fs.writeFile('/memory/views/V-001.md', '# V-002 — wrong\n', pm)).rejects.toThrow(/Line 1.*V-002/);
      expect(fs.exists('/memory/views/V-001.md')).toBe(false);
    });

    it('archives the previous version of a View and lists its history in one call', async () => {
      await fs.writeFile('/memory/views/V-001.md', view('V-001', 'Fed cuts', 0.6), pm);
      await fs.writeFile('/memory/views/V-001.md', view('V-001', 'Fed cuts', 0.7), { actor: 'agent', sessionId: 's1' });
      const r = await fs.writeFile('/memory/views/V-001.md', view('V-001', 'Fed cuts', 0.8), pm);
      expect(r.archivedTo).toMatch(/^\/memory\/\.archive\/views\/V-001_20260110T\d{9}Z\.md$/);
      const h = fs.history('/memory/views/V-001.md');
      expect(h.current!.confidence).toBe(0.8);
      expect(h.versions.map((v) => v.confidence)).toEqual([0.7, 0.6]);
      expect(fs.readFile(h.versions[1].archivePath)).toBe(view('V-001', 'Fed cuts', 0.6));
      expect(sha256(fs.readFile(h.versions[0].archivePath))).toBe(h.versions[0].contentHash);
      const archive = fs.listDir('/memory/.archive/views/');
      expect(archive.total).toBe(2);
      expect(fs.listDir('/memory/.archive/').entries.map((e) => e.name)).toEqual(['views/']);
    });

    it('does not archive an identical rewrite, and does not archive Observations', async () => {
      await fs.writeFile('/memory/views/V-001.md', view('V-001', 'same', 0.6), pm);
      await fs.writeFile('/memory/views/V-001.md', view('V-001', 'same', 0.6), pm);
      await fs.writeFile('/memory/observations/O-001.md', '# O-001 — a\n', pm);
      await fs.writeFile('/memory/observations/O-001.md', '# O-001 — b\n', pm);
      expect(fs.history('/memory/views/V-001.md').versions).toHaveLength(0);
      expect(fs.history('/memory/observations/O-001.md').versions).toHaveLength(0);
    });

    it('shows the seed listing metadata for views, pk, expressions and counterfactuals', async () => {
      await fs.writeFile('/memory/views/V-001.md', view('V-001', 'Fed cuts', 0.7), pm);
      await fs.writeFile('/memory/pk/PK-001.md', '# PK-001 — size from stop\nweight: 0.8\ncategory: sizing\n', pm);
      await fs.writeFile('/memory/expressions/E-001.md', '# E-001 — receive 2y\nview_id: V-001\nstatus: active\n', pm);
      await fs.writeFile('/memory/counterfactuals/new.md', '# new\ndecision_type: rejected_expression\nstatus: tracking\n', pm);
      expect(fs.listDir('/memory/views/').entries[0]).toMatchObject({ name: 'V-001.md', meta: 'US rates | conf:0.7 | active', title: 'Fed cuts' });
      expect(fs.listDir('/memory/pk/').entries[0].meta).toBe('w:0.8 | sizing');
      expect(fs.listDir('/memory/expressions/').entries[0].meta).toBe('view:V-001 | active');
      expect(fs.listDir('/memory/counterfactuals/').entries[0]).toMatchObject({ name: 'CF-001.md', meta: 'rejected_expression | tracking' });
    });

    it('filters listings with the query language and reports how many match beyond the page', async () => {
      for (let i = 1; i <= 12; i++) await fs.writeFile('/memory/views/new.md', view('new', `idea ${i} consumer`, Math.min(i / 10, 1)), pm);
      const page = fs.listDir('/memory/views/', 'confidence>=0.5', { limit: 3 });
      expect(page.total).toBe(8);
      expect(page.entries.map((e) => e.id)).toEqual(['V-012', 'V-011', 'V-010']);
      // Words are counted only as far as the page: "more than 3", never a number nobody counted.
      const worded = fs.listDir('/memory/views/', 'confidence>=0.5 consumer', { limit: 3 });
      expect(worded).toMatchObject({ total: 3, totalCapped: true });
      expect(worded.entries.map((e) => e.id)).toEqual(['V-012', 'V-011', 'V-010']);
      const whole = fs.listDir('/memory/views/', 'confidence>=0.5 consumer', { limit: 20 });
      expect(whole.total).toBe(8);
      expect(whole.totalCapped).toBeUndefined();
      expect(fs.listDir('/memory/views/', 'confidence>=0.5 consumer', { limit: 3, offset: 30 })).toMatchObject({ entries: [], total: 8 });
      expect(() => fs.listDir('/memory/views/', 'confidence>=lots')).toThrow(/column 1/);
    });

    it('counts a folder up to 10,000 and then says "more", without giving up the exact count of a page near the end', () => {
      // 10,005 notes in one statement (as an import would leave them), newest = highest number (the
      // times only need to sort, on both engines).
      store.db
        .prepare(
          `WITH RECURSIVE n(g) AS (SELECT 1 UNION ALL SELECT g + 1 FROM n WHERE g < 10005)
           INSERT INTO memory_records (category, id, title, status, meta, created_at, updated_at, header, body, content_hash)
           SELECT 'observations', 'O-' || g, 'bulk note ' || g, NULL, '', '2026-01-01T00:00:00.000Z',
                  '2026-01-01T' || (100000 + g),
                  '{}', 'bulk', 'h' || g
           FROM n`,
        )
        .run();
      const first = fs.listDir('/memory/observations/', undefined, { limit: 20 });
      expect(first.entries[0].id).toBe('O-10005');
      // A PM (or the analyst) is told "more than 10,000", not a number the server did not count.
      expect(first).toMatchObject({ total: 10_000, totalCapped: true });
      const last = fs.listDir('/memory/observations/', undefined, { limit: 20, offset: 10_000 });
      expect(last.entries.map((e) => e.id)).toEqual(['O-5', 'O-4', 'O-3', 'O-2', 'O-1']);
      expect(last.total).toBe(10_005);
      expect(last.totalCapped).toBeUndefined();
      expect(fs.listDir('/memory/observations/', undefined, { limit: 20, offset: 20_000 })).toMatchObject({ entries: [], total: 10_000, totalCapped: true });
    });

    it('answers every form of the query language the same way: header keys, lists, numbers, dates, skills, phrases', async () => {
      const pk = (id: string, head: string, body: string) => fs.writeFile(`/memory/pk/${id}.md`, `# ${id} — note\n${head}\n---\n${body}\n`, pm);
      await pk('PK-001', 'weight: 0.8\ncategory: sizing\nskill: macro-sizing\nregion: [us, eu]\nhorizon: 2027-01-01', 'Size positions from the stop distance.');
      await pk(
        'PK-002',
        'weight: 0.3\ncategory: timing\nskills: [entry-timing, macro-sizing]\nregion: asia\nhorizon: 2026-06-01',
        'Enter after the stop is hit twice.',
      );
      await pk('PK-003', 'weight: 0.5\ncategory: Sizing\nhorizon: 1 year\nscore: 7', 'Positions sized by conviction.');
      const ids = (q: string) =>
        fs
          .listDir('/memory/pk/', q)
          .entries.map((e) => e.id)
          .sort();
      expect(ids('category:sizing')).toEqual(['PK-001', 'PK-003']);
      expect(ids('region:eu')).toEqual(['PK-001']);
      expect(ids('region:asia')).toEqual(['PK-002']);
      expect(ids('skill:macro-sizing')).toEqual(['PK-001', 'PK-002']);
      expect(ids('weight>=0.5')).toEqual(['PK-001', 'PK-003']);
      expect(ids('score>5')).toEqual(['PK-003']);
      expect(ids('horizon>=2026-12-01')).toEqual(['PK-001']);
      expect(ids('"stop distance"')).toEqual(['PK-001']);
      expect(ids('stop')).toEqual(['PK-001', 'PK-002']);
      expect(ids('positions sized')).toEqual(['PK-001', 'PK-003']);
    });

    it('imports a batch of notes with their full text written once, and a query inside the batch already finds them', async () => {
      const inside = await fs.transaction((tx) => {
        for (let i = 1; i <= 20; i++) tx.writeFile('/memory/observations/new.md', `# new — copper note ${i}\n---\nSmelter curtailment ${i}.\n`, pm);
        return fs.listDir('/memory/observations/', 'curtailment').total;
      });
      expect(inside).toBe(20);
      expect(fs.listDir('/memory/observations/', 'curtailment').total).toBe(20);
      // Rows written to FTS5 together share an origin: one per transaction, not one per note (a slow import).
      // (SQLite only: a desk's PostgreSQL keeps full text in a generated column, written with the row.)
      if (engine.name !== 'sqlite') return;
      const origins = store.db
        .prepare("SELECT count(DISTINCT d.origin) FROM memory_fts_docsize d JOIN memory_records r ON r.rid = d.id WHERE r.category = 'observations'")
        .pluck()
        .get();
      expect(origins).toBe(1);
    });
  });

  describe('portfolio, sessions and skills', () => {
    it('stores portfolio documents and session files, and lists a session folder', async () => {
      await fs.writeFile('/portfolio/state.md', '# state — book\ngross: 142.5\n', pm);
      expect(fs.readFile('/portfolio/state.md')).toContain('gross: 142.5');
      const s = fs.forSession('sess_1');
      await s.writeFile('/session/tasks.md', '- task 1', { actor: 'agent' });
      await s.writeFile('/session/results/sa_growth.md', '## SUMMARY\ngrowth ok', { actor: 'subagent:sa_growth', taskId: 'sa_growth' });
      expect(fs.readFile('/session/sess_1/tasks.md')).toBe('- task 1');
      expect(fs.listDir('/session/sess_1/').entries.map((e) => e.name)).toEqual(['results/', 'tasks.md']);
      expect(fs.listDir('/session/sess_1/results/').entries.map((e) => e.path)).toEqual(['/session/sess_1/results/sa_growth.md']);
      expect(() => fs.readFile('/session/sess_1/other/x.md')).toThrow(InvalidInputError);
      expect(() => fs.readFile('/session/sess_1/context/gaps.md')).toThrow(NotFoundError);
    });

    it('reads and writes skill files on disk', async () => {
      await fs.writeFile('/skills/view-validation/SKILL.md', '---\nname: view-validation\n---\n', { actor: 'builder' });
      expect(fs.listDir('/skills/').entries.map((e) => e.name)).toEqual(['view-validation/']);
      expect(fs.readFile('/skills/view-validation/SKILL.md')).toContain('name: view-validation');
    });
  });

  describe('audit trail', () => {
    it('records who wrote what, from which session and task, with the content hash', async () => {
      const r = await fs.writeFile('/memory/views/new.md', view('new', 'x', 0.5), { actor: 'subagent:t7', sessionId: 's9', taskId: 't7' });
      await fs.writeFile(r.path, view('V-001', 'x', 0.6), pm);
      const rows = store.audit.list({ path: '/memory/', limit: 10 });
      expect(rows.map((x) => [x.actor, x.operation])).toEqual([
        ['pm', 'update'],
        ['pm', 'archive'],
        ['subagent:t7', 'create'],
      ]);
      expect(rows[2]).toMatchObject({ path: '/memory/views/V-001.md', session_id: 's9', task_id: 't7', content_hash: r.contentHash });
      expect(() => store.db.prepare('DELETE FROM audit_log').run()).toThrow(/append-only/);
      expect(() => store.db.prepare("UPDATE audit_log SET actor = 'pm'").run()).toThrow(/append-only/);
    });

    it('refuses an unknown writer', async () => {
      await expect(fs.writeFile('/memory/views/new.md', '# new\n', { actor: 'intruder' as never })).rejects.toThrow(InvalidInputError);
    });
  });

  describe('transactions and the search indexer hook', () => {
    it('commits an Expression and its Outcome together, or neither when a step fails', async () => {
      await expect(
        fs.transaction((tx) => {
          tx.writeFile('/memory/expressions/new.md', '# new — e\nstatus: closed\n', pm);
          tx.writeFile('/memory/outcomes/new.md', 'no title line', trackerWriter());
        }),
      ).rejects.toThrow(/Line 1/);
      expect(fs.listDir('/memory/expressions/').total).toBe(0);
      expect(store.audit.list({ limit: 10 })).toHaveLength(0);
      const [e, o] = await fs.transaction((tx) => {
        const e = tx.writeFile('/memory/expressions/new.md', '# new — e\nstatus: closed\n', pm);
        const id = tx.takeId('outcomes');
        const o = tx.writeFile(`/memory/outcomes/${id}.md`, `# ${id}\nexpression: ${e.id}\n`, trackerWriter());
        return [e, o];
      });
      // The failed attempt consumed E-001 inside a rolled-back transaction, so it is free again.
      expect([e.id, o.id]).toEqual(['E-001', 'OUT-001']);
    });

    it('prepares the index entry before the transaction and applies it inside, with the assigned id', async () => {
      const calls: string[] = [];
      const indexer: MemoryIndexer = {
        async prepare(r: IndexableRecord) {
          calls.push(`prepare ${r.id ?? 'new'} ${r.title} inTx=${store.db.inTransaction}`);
          return `vec:${r.title}`;
        },
        apply(db, r, prepared) {
          calls.push(`apply ${r.id} ${r.path} ${String(prepared)} inTx=${db.inTransaction}`);
        },
        remove(db, ref) {
          calls.push(`remove ${ref.id} inTx=${db.inTransaction}`);
        },
      };
      const fs2 = new ForgeFS({ store, skillsDir: join(dir, 'skills'), indexer, now });
      await fs2.writeFile('/memory/views/new.md', '# new — Fed\n', pm);
      await fs2.deleteFile('/memory/views/V-001.md', pm);
      expect(calls).toEqual(['prepare new Fed inTx=false', 'apply V-001 /memory/views/V-001.md vec:Fed inTx=true', 'remove V-001 inTx=true']);
    });
  });
}
