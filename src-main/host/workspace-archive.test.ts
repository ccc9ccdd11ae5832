import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EnvSecretStore } from '../config/secrets';
import { createCore, type Core } from './core';
import { exportWorkspace, importWorkspace, verifyArchive } from './workspace-archive';

/**
 * A PM moves years of work to a new machine: one file out, one file in. Everything must arrive
 * (records with every version, the audit trail, skills with their versions, settings), no key may
 * travel, and a bad archive must be refused before anything is replaced.
 */
const root = mkdtempSync(join(tmpdir(), 'forge-archive-'));
const source = join(root, 'source');
const archive = join(root, 'out', 'workspace.forge');
let core: Core;

const snapshot = (c: Core) => {
  const db = c.context.memory.store.db;
  return {
    records: db.prepare('SELECT category, id, content_hash FROM memory_records ORDER BY category, id').all(),
    archive: db.prepare('SELECT category, name, content_hash FROM memory_archive ORDER BY category, name').all(),
    audit: db.prepare('SELECT seq, at, actor, operation, path, content_hash FROM audit_log ORDER BY seq').all(),
  };
};

beforeAll(async () => {
  core = createCore({ dataDir: source, mode: 'test', secrets: new EnvSecretStore({ ANTHROPIC_API_KEY: 'sk-ant-ARCHIVE-never-travels-1234' }) });
  await core.context.memory.ready;
  const fs = core.context.memory.fs;
  // A View edited twice (two archived versions), a PM setting, a skill edited by hand with a kept version.
  const v1 = fs.readFile('/memory/views/V-001.md');
  await fs.writeFile('/memory/views/V-001.md', v1.replace('confidence: 0.7', 'confidence: 0.6'), { actor: 'pm' });
  await fs.writeFile('/memory/views/V-001.md', v1.replace('confidence: 0.7', 'confidence: 0.5'), { actor: 'pm' });
  expect((await core.invoke('settings/set', { settings: { displayName: 'Macro desk' } })).ok).toBe(true);
  const skill = join(source, 'skills', 'context-retrieval', 'SKILL.md');
  writeFileSync(skill, `${readFileSync(skill, 'utf8')}\n<!-- the PM's own note -->\n`);
  mkdirSync(join(source, 'skills', 'context-retrieval', '.versions'), { recursive: true });
  writeFileSync(join(source, 'skills', 'context-retrieval', '.versions', '1.md'), 'the first version');
  writeFileSync(join(source, 'secrets.bin'), 'sk-ant-ARCHIVE-never-travels-1234');
});

afterAll(async () => {
  await core?.close();
  rmSync(root, { recursive: true, force: true });
});

describe('workspace export and import', () => {
  it('exports a running workspace to one file that carries everything but the keys', () => {
    const s = exportWorkspace(source, archive);
    expect(s.records).toBeGreaterThan(10);
    expect(s.files).toBeGreaterThan(10);
    expect(readdirSync(join(root, 'out'))).toEqual(['workspace.forge']);
    // No key anywhere in the archive's bytes, even though one was configured and one sat in secrets.bin.
    expect(readFileSync(archive).toString('latin1')).not.toContain('ARCHIVE-never-travels');
    expect(() => exportWorkspace(source, archive)).toThrow(/already exists/);
  });

  it('imports into a new folder: the same records, every version, the audit trail, skills with versions and settings', async () => {
    const target = join(root, 'new-machine');
    const r = importWorkspace(archive, target);
    expect(r.backup).toBeNull();
    const moved = createCore({ dataDir: target, mode: 'test', secrets: new EnvSecretStore({}) });
    try {
      await moved.context.memory.ready;
      // If this fails, the PM's history (archived versions, who changed what) did not survive the move.
      const after = snapshot(moved);
      const importEntry = after.audit.pop() as { operation: string; path: string };
      expect(after).toEqual(snapshot(core));
      // The import itself is the newest entry of the trail it brought.
      expect(importEntry).toMatchObject({ operation: 'import', path: '/workspace/workspace.forge' });
      expect(r.signature.kind).toBe('other-key');
      expect(r.unverifiedHistory).toEqual([]);
      const history = await moved.invoke('memory/history', { path: '/memory/views/V-001.md' });
      expect(history.ok && history.value.versions.length).toBeGreaterThanOrEqual(2);
      expect(readFileSync(join(target, 'skills', 'context-retrieval', 'SKILL.md'), 'utf8')).toContain("the PM's own note");
      expect(readFileSync(join(target, 'skills', 'context-retrieval', '.versions', '1.md'), 'utf8')).toBe('the first version');
      const settings = await moved.invoke('settings/get', {});
      expect(settings.ok && settings.value.settings.displayName).toBe('Macro desk');
      expect(existsSync(join(target, 'secrets.bin'))).toBe(false);
    } finally {
      await moved.close();
    }
  });

  it('never replaces a workspace without keeping the old one as a backup', () => {
    const target = join(root, 'existing');
    mkdirSync(target);
    writeFileSync(join(target, 'forge.db'), 'the old workspace');
    const r = importWorkspace(archive, target);
    expect(r.backup).toMatch(/existing\.before-import-/);
    expect(readFileSync(join(r.backup!, 'forge.db'), 'utf8')).toBe('the old workspace');
    expect(readFileSync(join(target, 'forge.db')).subarray(0, 15).toString()).toBe('SQLite format 3');
  });

  it('refuses a damaged or tampered archive before touching the workspace', () => {
    const target = join(root, 'kept');
    mkdirSync(target);
    writeFileSync(join(target, 'forge.db'), 'untouched');
    const variant = (name: string, change: (db: Database.Database) => void) => {
      const file = join(root, `${name}.forge`);
      copyFileSync(archive, file);
      const db = new Database(file);
      change(db);
      db.close();
      return file;
    };
    const cases: [string, RegExp][] = [
      [variant('tampered', (db) => db.prepare("UPDATE archive_files SET content = x'00' WHERE path = 'settings.json'").run()), /does not match its checksum/],
      [
        variant('escape', (db) => db.prepare("INSERT INTO archive_files (path, content, sha256) VALUES ('../outside.txt', x'00', 'x')").run()),
        /outside the workspace|lists \d+ files/,
      ],
      [variant('newer', (db) => db.pragma('user_version = 999')), /newer Forge/],
      [variant('foreign', (db) => db.exec('DROP TABLE archive_meta')), /no Forge archive manifest/],
    ];
    const truncated = join(root, 'truncated.forge');
    writeFileSync(truncated, readFileSync(archive).subarray(0, 4096));
    cases.push([truncated, /damaged|not a readable database|not a Forge archive|manifest/]);
    for (const [file, why] of cases) {
      expect(() => importWorkspace(file, target), file).toThrow(why);
      try {
        verifyArchive(file);
      } catch (e) {
        expect((e as { code?: string }).code, file).toBe('invalid_input');
      }
    }
    // Nothing was replaced and no half-built folder was left behind.
    expect(readFileSync(join(target, 'forge.db'), 'utf8')).toBe('untouched');
    expect(readdirSync(root).filter((n) => n.includes('.importing-'))).toEqual([]);
  });
});
