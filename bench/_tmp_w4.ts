import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Store } from '../src-main/store';
import { ForgeFS } from '../src-main/fs';
const dir = mkdtempSync(join(tmpdir(), 'w4-'));
const store = Store.open(join(dir, 'f.db'));
const fs = new ForgeFS({ store, skillsDir: join(dir, 's') });
const body = Array.from({ length: 60 }, (_, i) => `word${i % 37} consumer text`).join(' ');
let tBody = 0, tAll = 0;
const n = 3000;
const c0 = process.cpuUsage();
for (let i = 0; i < n; i++) {
  const t0 = performance.now();
  let t1 = 0, t2 = 0;
  store.writeTransaction(() => {
    t1 = performance.now();
    fs['makeTx'](new Map()).writeFile('/memory/views/new.md', `# new — v ${i}\nstatus: active\nconfidence: 0.5\n---\n## SUMMARY\n${body} ${i}\n`, { actor: 'agent' });
    t2 = performance.now();
  });
  tBody += t2 - t1; tAll += performance.now() - t0;
}
const c = process.cpuUsage(c0);
console.log('body µs', (tBody / n * 1000).toFixed(0), 'total µs', (tAll / n * 1000).toFixed(0), 'cpu µs', ((c.user + c.system) / n).toFixed(0));
