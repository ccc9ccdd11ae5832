import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { Store } from '../store';
import { memoryAsOf } from './as-of';
import { ForgeFS } from './forge-fs';

let dir: string;
let store: Store;
let fs: ForgeFS;
let at: string;
const pm = { actor: 'pm' as const };
const view = (conf: number, thesis: string) => `# V-001 — Fed cuts\nstatus: active\nconfidence: ${conf}\nscope: US rates\n---\n## SUMMARY\n${thesis}\n`;

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'forge-as-of-'));
  store = Store.open(join(dir, 'forge.db'));
  fs = new ForgeFS({ store, skillsDir: join(dir, 'skills'), now: () => at });
});
afterEach(() => {
  store.close();
  rmSync(dir, { recursive: true, force: true });
});

const byPath = (cutoff: string) => new Map(memoryAsOf(store, cutoff).records.map((r) => [r.path, r]));

describe('memory as it stood at an instant', () => {
  it('gives each View the version current then — not the live latest — with the time that version was written', async () => {
    at = '2026-10-01T10:00:00.000Z';
    await fs.writeFile('/memory/views/V-001.md', view(0.6, 'First.'), pm);
    at = '2026-10-05T10:00:00.000Z';
    await fs.writeFile('/memory/views/V-001.md', view(0.5, 'Second.'), pm);
    at = '2026-10-20T10:00:00.000Z';
    await fs.writeFile('/memory/views/V-001.md', view(0.3, 'Third.'), pm);
    // A replay reading the live row here would judge that morning with hindsight.
    const oct10 = byPath('2026-10-10T00:00:00.000Z').get('/memory/views/V-001.md')!;
    expect(oct10.from).toBe('archived');
    expect(oct10.row).toMatchObject({ confidence: 0.5, updated_at: '2026-10-05T10:00:00.000Z', created_at: '2026-10-01T10:00:00.000Z' });
    expect(oct10.row.body).toContain('Second.');
    expect(byPath('2026-10-02T00:00:00.000Z').get('/memory/views/V-001.md')!.row.body).toContain('First.');
    const now = byPath('2026-11-01T00:00:00.000Z').get('/memory/views/V-001.md')!;
    expect(now.from).toBe('current');
    expect(now.row.body).toContain('Third.');
    expect(byPath('2026-09-30T00:00:00.000Z').has('/memory/views/V-001.md')).toBe(false);
  });

  it('leaves out a record of a category without versions that changed later, and names it', async () => {
    at = '2026-10-01T10:00:00.000Z';
    await fs.writeFile('/memory/observations/new.md', '# new — Payrolls\n---\n## SUMMARY\nFirst take.\n', pm);
    await fs.writeFile('/memory/observations/new.md', '# new — Claims\n---\n## SUMMARY\nUnchanged.\n', pm);
    at = '2026-10-20T10:00:00.000Z';
    await fs.writeFile('/memory/observations/O-001.md', '# O-001 — Payrolls\n---\n## SUMMARY\nRevised take.\n', pm);
    const r = memoryAsOf(store, '2026-10-10T00:00:00.000Z');
    expect(r.records.map((x) => x.path)).toEqual(['/memory/observations/O-002.md']);
    expect(r.leftOut).toEqual([{ path: '/memory/observations/O-001.md', why: expect.stringContaining('keep no earlier versions') }]);
  });
});
