import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { openDatabase, type Db } from '../store';
import { ProjectStore } from './projects';

let dir: string;
let db: Db;
const open = () => {
  dir = mkdtempSync(join(tmpdir(), 'forge-proj-'));
  db = openDatabase(join(dir, 'forge.db'));
  return new ProjectStore(db);
};
afterEach(() => {
  db?.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('projects and pinned builds', () => {
  it('numbers contract versions and skips a save that changes nothing', async () => {
    const s = open();
    s.createProject({ name: 'Rates Monitor' });
    expect(s.saveContract('rates-monitor', 'stack', 'node 20')).toEqual({ version: 1, created: true });
    expect(s.saveContract('rates-monitor', 'stack', 'node 20')).toEqual({ version: 1, created: false });
    expect(s.saveContract('rates-monitor', 'stack', 'node 22')).toEqual({ version: 2, created: true });
    expect((await s.getProjectContract('rates-monitor', 'stack')).content).toBe('node 22');
    expect((await s.getProjectContract('rates-monitor', 'stack', 1)).content).toBe('node 20');
    expect(() => s.createProject({ name: 'Rates Monitor' })).toThrow(/already exists/);
    await expect(s.getProjectContract('rates-monitor', 'ui')).rejects.toThrow(/no ui contract/);
    await expect(s.getProjectContext('nope')).rejects.toThrow(/no project "nope"/);
  });

  it('keeps a pinned build snapshot unchanged when the project is edited later', async () => {
    const s = open();
    s.createProject({ id: 'ledger', name: 'Ledger' });
    s.saveContract('ledger', 'blueprint', 'blueprint v1');
    s.saveContract('ledger', 'phases', '## Phase 0 — a\nx\n## Phase 1 — b\ny');
    const pinned = s.pinBuild('ledger', 'build-1');
    expect(pinned.contracts.map((c) => [c.contract_type, c.version])).toEqual([
      ['blueprint', 1],
      ['phases', 1],
    ]);

    s.saveContract('ledger', 'blueprint', 'blueprint v2');
    s.saveContract('ledger', 'stack', 'new contract');
    const later = await s.getBuildContracts('build-1');
    expect(later).toEqual(pinned);
    expect(later.contracts.find((c) => c.contract_type === 'blueprint')?.content).toBe('blueprint v1');

    // Not even SQL can change it.
    expect(() => db.prepare("UPDATE build_contracts SET content = 'x'").run()).toThrow(/cannot be changed/);
    expect(() => db.prepare('DELETE FROM build_contracts').run()).toThrow(/cannot be deleted/);
    expect(() => db.prepare("UPDATE project_contracts SET content = 'x'").run()).toThrow(/cannot be changed/);
    expect(() => s.pinBuild('ledger', 'build-1')).toThrow(/cannot be replaced/);

    const next = s.pinBuild('ledger');
    expect(next.contracts.find((c) => c.contract_type === 'blueprint')?.version).toBe(2);
    const ctx = await s.getProjectContext('ledger');
    expect(ctx.builds.map((b) => b.contract_count).sort()).toEqual([2, 3]);
  });
});
