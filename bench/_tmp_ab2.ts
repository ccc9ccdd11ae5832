import { copyFileSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Store } from '../src-main/store';
import { ForgeFS } from '../src-main/fs';
const src = process.argv[2];
const body = Array.from({ length: 80 }, (_, i) => ['inflation', 'curve', 'yen', 'credit', 'growth', 'energy', 'wages'][(i * 5) % 7]).join(' ');
async function run(label: string, setup: (s: Store) => void) {
  const dir = mkdtempSync(join(tmpdir(), 'ab2-'));
  copyFileSync(src, join(dir, 'f.db'));
  const store = Store.open(join(dir, 'f.db'));
  setup(store);
  const fs = new ForgeFS({ store, skillsDir: join(dir, 's') });
  const n = 1500; let last = '';
  const c0 = process.cpuUsage();
  for (let i = 0; i < n; i++) {
    if (i % 2 === 0 || !last) last = (await fs.writeFile('/memory/views/new.md', `# new — v ${i}\nstatus: active\nconfidence: 0.5\n---\n## SUMMARY\n${body} ${i}\n`, { actor: 'agent' })).id!;
    else await fs.writeFile(`/memory/views/${last}.md`, `# ${last} — v ${i}\nstatus: active\nconfidence: 0.6\n---\n## SUMMARY\n${body} ${i}\n`, { actor: 'pm' });
  }
  const c = process.cpuUsage(c0);
  console.log(label, 'user', (c.user / n).toFixed(0), 'sys', (c.system / n).toFixed(0));
  store.close();
}
(async () => {
  for (let r = 0; r < 2; r++) {
    await run('base', () => {});
    await run('am8', (s) => s.db.exec("INSERT INTO memory_fts(memory_fts, rank) VALUES('automerge', 8)"));
    await run('cache128', (s) => s.db.pragma('cache_size = -128000'));
  }
})();
