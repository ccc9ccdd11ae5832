import { spawnSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { meets, targets } from './_targets';

/**
 * `npm run bench -- all [--only a,b]`: runs every benchmark one after another (never in parallel: they
 * would measure each other), then prints one table of each targeted figure, its target and whether
 * it is met, and as its last line the combined JSON of every bench's last line.
 */
const here = dirname(fileURLToPath(import.meta.url));
const root = join(here, '..');
const onlyArg = process.argv.indexOf('--only');
const only = onlyArg >= 0 ? new Set(process.argv[onlyArg + 1]?.split(',')) : undefined;
const benches = readdirSync(here)
  .filter((f) => f.endsWith('.ts') && !f.endsWith('.test.ts') && !f.startsWith('_') && f !== 'all.ts')
  .map((f) => f.slice(0, -3))
  .filter((b) => !only || only.has(b));

const results: Record<string, Record<string, unknown>> = {};
const failures: Record<string, string> = {};
for (const bench of benches) {
  console.log(`\n=== ${bench} ===`);
  const r = spawnSync(join(root, 'node_modules', '.bin', 'tsx'), [join(here, `${bench}.ts`)], {
    cwd: root,
    encoding: 'utf8',
    maxBuffer: 64 * 1024 * 1024,
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  process.stdout.write(r.stdout ?? '');
  const last = (r.stdout ?? '').trim().split('\n').at(-1) ?? '';
  try {
    results[bench] = JSON.parse(last);
  } catch {
    failures[bench] = r.status === 0 ? 'no JSON last line' : `exited ${r.status}`;
  }
}

const rows = targets
  .filter((t) => benches.includes(t.bench))
  .map((t) => {
    const value = results[t.bench]?.[t.figure];
    const n = typeof value === 'number' ? value : Number.NaN;
    const status = failures[t.bench]
      ? `bench failed (${failures[t.bench]})`
      : value === undefined
        ? 'not reported'
        : meets(n, t.op, t.value)
          ? 'met'
          : 'MISSED';
    return { bench: t.bench, figure: t.figure, value: value === undefined ? '—' : String(value), target: `${t.op} ${t.value}`, status };
  });
const widths = ['bench', 'figure', 'value', 'target', 'status'].map((k) => Math.max(k.length, ...rows.map((r) => String(r[k as keyof typeof r]).length)));
const line = (cells: string[]) => cells.map((c, i) => c.padEnd(widths[i])).join('  ');
console.log(`\n${line(['bench', 'figure', 'value', 'target', 'status'])}`);
for (const r of rows) console.log(line([r.bench, r.figure, r.value, r.target, r.status]));
const met = rows.filter((r) => r.status === 'met').length;
console.log(`\n${met} of ${rows.length} targeted figures met; ${Object.keys(failures).length} bench(es) failed.`);
console.log(
  JSON.stringify({ bench: 'all', met, targeted: rows.length, failed: failures, ratio: rows.length ? Number((met / rows.length).toFixed(3)) : 0, results }),
);
