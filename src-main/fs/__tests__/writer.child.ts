/**
 * A separate writer process for the concurrency and crash tests. It writes through the real
 * Store + ForgeFS and prints `ACK <path> <sha256>` only after a write has committed.
 * Usage: writer.child <db> <skillsDir> <mode: ids|crash> <count> <tag>
 */
import { Store } from '../../store';
import { ForgeFS } from '../forge-fs';
import { trackerWriter } from '../write-authority';

const [dbPath, skillsDir, mode, countArg, tag] = process.argv.slice(2);
const store = Store.open(dbPath);
const fs = new ForgeFS({ store, skillsDir });
const out = (line: string) => process.stdout.write(line + '\n');

function view(title: string, i: number): string {
  const filler = Array.from({ length: 40 }, (_, k) => `Line ${k} of evidence for ${title} (${i}).`).join('\n');
  return `# new — ${title}\nstatus: active\nconfidence: 0.${(i % 9) + 1}\nscope: test\n---\n## SUMMARY\n${title}\n\n## EVIDENCE\n${filler}\n`;
}

async function main(): Promise<void> {
  const count = Number(countArg);
  if (mode === 'ids') {
    // Start line: both writers begin together, so their transactions really interleave.
    const { existsSync } = await import('node:fs');
    out('READY');
    while (!existsSync(`${dbPath}.go`)) await new Promise((r) => setTimeout(r, 2));
    for (let i = 0; i < count; i++) {
      const r = await fs.writeFile('/memory/observations/new.md', `# new — ${tag} ${i}\nsource: ${tag}\n`, { actor: 'agent' });
      out(`ACK ${r.path} ${r.contentHash}`);
      // A short pause between writes, so that on a loaded machine one writer cannot finish all
      // its writes inside one scheduler slice and the test really exercises interleaving.
      if (i % 10 === 9) await new Promise((r) => setTimeout(r, 1));
    }
  } else {
    out('READY');
    for (let i = 0; ; i++) {
      if (i % 4 === 3) {
        // Several writes in one transaction: all or nothing.
        const results = await fs.transaction((tx) => {
          const e = tx.writeFile('/memory/expressions/new.md', `# new — expr ${i}\nstatus: closed\nview_id: V-001\n`, { actor: 'agent' });
          const o = tx.writeFile('/memory/outcomes/new.md', `# new — outcome of ${e.id}\nexpression: ${e.id}\nstatus: closed\n`, trackerWriter());
          return [e, o];
        });
        for (const r of results) out(`ACK ${r.path} ${r.contentHash}`);
      } else if (i % 4 === 2 && fs.exists('/memory/views/V-001.md')) {
        const current = fs.readFile('/memory/views/V-001.md');
        const r = await fs.writeFile('/memory/views/V-001.md', current.replace(/^# V-001 — .*$/m, `# V-001 — revision ${i}`), { actor: 'pm' });
        out(`ACK ${r.path} ${r.contentHash}`);
      } else {
        const r = await fs.writeFile('/memory/views/new.md', view(`view ${tag} ${i}`, i), { actor: 'agent', sessionId: 'sess_crash' });
        out(`ACK ${r.path} ${r.contentHash}`);
      }
    }
  }
  store.close();
}

main().catch((e) => {
  process.stderr.write(String(e?.stack ?? e) + '\n');
  process.exit(1);
});
