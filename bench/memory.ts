/**
 * Memory store benchmark: a 100,000-record workspace built through the real write path, then
 *  - p50/p95 of a filtered listing (query compiled to SQL, indexes + FTS5),
 *  - the same listing done naively (load every View, filter in JS) in the same run,
 *  - sustained full writes per second (codec + id + archive + audit, one transaction each),
 *  - database bytes per 1,000 records.
 * Usage: npm run bench -- memory [records=100000]
 */
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ForgeFS } from '../src-main/fs';
import { Store } from '../src-main/store';
import { percentile, report, round, timeRuns } from './_stats';

const RECORDS = Number(process.argv[2] ?? 100_000);
const QUERY = 'status:active confidence>=0.6 since:2026-01-01 consumer';

// Deterministic pseudo-random numbers so every run builds the same workspace.
let seed = 42;
const rand = () => {
  // mulberry32
  seed = (seed + 0x6d2b79f5) | 0;
  let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
  t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
  return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
};
const pick = <T>(xs: readonly T[]) => xs[Math.floor(rand() * xs.length)];

const WORDS = [
  'inflation',
  'payrolls',
  'curve',
  'duration',
  'credit',
  'spread',
  'dollar',
  'yen',
  'euro',
  'growth',
  'housing',
  'energy',
  'copper',
  'china',
  'fiscal',
  'supply',
  'auction',
  'liquidity',
  'volatility',
  'earnings',
  'wages',
  'services',
  'tariffs',
  'exports',
  'policy',
  'guidance',
  'momentum',
  'positioning',
  'carry',
  'term',
];
const STATUSES = ['active', 'active', 'watching', 'invalidated', 'closed'];
const SCOPES = ['US rates', 'EUR rates', 'FX', 'equity', 'commodities', 'credit'];
const START = Date.UTC(2025, 0, 1);
const SPAN = Date.UTC(2026, 10, 1) - START;

function sentence(n: number): string {
  const w: string[] = [];
  for (let i = 0; i < n; i++) w.push(pick(WORDS));
  return w.join(' ');
}

/** About 5% of records mention "consumer" (somewhere in the summary). */
const consumer = () => (rand() < 0.05 ? ' consumer' : '');

function viewDoc(i: number): string {
  const conf = round(0.1 + rand() * 0.85, 2);
  return `# new — ${sentence(5)} ${i}
status: ${pick(STATUSES)}
confidence: ${conf}
scope: ${pick(SCOPES)}
category: ${pick(['macro_regime', 'relative_value'])}
horizon: 2027-0${1 + Math.floor(rand() * 9)}-15
expressions: [E-${String(1 + Math.floor(rand() * 999)).padStart(3, '0')}]
---
## SUMMARY
${sentence(25)}${consumer()}.

## SCENARIOS
- Base: ${sentence(12)}.
- Bear: ${sentence(12)}.

## INVALIDATION
- ${sentence(10)}.
`;
}

function otherDoc(category: string, i: number): string {
  if (category === 'expressions')
    return `# new — ${sentence(4)} ${i}\nstatus: ${pick(STATUSES)}\nview_id: V-${String(1 + Math.floor(rand() * 999)).padStart(3, '0')}\nnotional: ${round(rand() * 20, 1)}\n---\n## SUMMARY\n${sentence(20)}${consumer()}.\n`;
  if (category === 'pk')
    return `# new — ${sentence(5)}\nweight: ${round(rand(), 2)}\ncategory: sizing\nskill: ${pick(['view-validation', 'rv-analysis', 'expression-design'])}\n---\n## SUMMARY\n${sentence(20)}.\n`;
  return `# new — ${sentence(6)}\ndate: 2026-0${1 + Math.floor(rand() * 9)}-01\n---\n## SUMMARY\n${sentence(30)}${consumer()}.\n`;
}

async function main(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'forge-bench-memory-'));
  const dbPath = join(dir, 'forge.db');
  const store = Store.open(dbPath);
  let fakeNow = START;
  const fs = new ForgeFS({ store, skillsDir: join(dir, 'skills'), now: () => new Date(fakeNow).toISOString() });
  const agent = { actor: 'agent' as const, sessionId: 'bench' };

  // 1. Build: 60% Views, 25% Expressions, 15% Observations/PK, through the real write path in batches.
  const t0 = performance.now();
  const BATCH = 2000;
  for (let done = 0; done < RECORDS; done += BATCH) {
    const n = Math.min(BATCH, RECORDS - done);
    await fs.transaction((tx) => {
      for (let k = 0; k < n; k++) {
        const i = done + k;
        fakeNow = START + Math.floor(rand() * SPAN);
        const r = rand();
        if (r < 0.6) tx.writeFile('/memory/views/new.md', viewDoc(i), agent);
        else if (r < 0.85) tx.writeFile('/memory/expressions/new.md', otherDoc('expressions', i), agent);
        else if (r < 0.95) tx.writeFile('/memory/observations/new.md', otherDoc('observations', i), agent);
        else tx.writeFile('/memory/pk/new.md', otherDoc('pk', i), agent);
      }
    });
  }
  const buildS = (performance.now() - t0) / 1000;
  store.db.pragma('wal_checkpoint(TRUNCATE)');
  store.db.exec('ANALYZE');
  const bytes = statSync(dbPath).size;
  const bytesPer1000 = Math.round(bytes / (RECORDS / 1000));
  const views = (store.db.prepare("SELECT count(*) AS n FROM memory_records WHERE category = 'views'").get() as { n: number }).n;
  console.log(`built ${RECORDS} records (${views} Views) in ${buildS.toFixed(1)} s; database ${(bytes / 1e6).toFixed(1)} MB`);

  // 2. Filtered listing through ForgeFS (parse + compile + SQL + listing metadata).
  const listing = fs.listDir('/memory/views/', QUERY);
  const listRuns = await timeRuns(300, () => fs.listDir('/memory/views/', QUERY));
  console.log(
    `listing: ${listing.total} matches, page of ${listing.entries.length}; p50 ${percentile(listRuns, 50).toFixed(3)} ms, p95 ${percentile(listRuns, 95).toFixed(3)} ms`,
  );

  // 3. Naive baseline: load every View and filter in JavaScript (the seed's _apply_query).
  const all = store.db.prepare("SELECT id, title, header, body, updated_at FROM memory_records WHERE category = 'views'");
  const naive = () => {
    const rows = all.all() as { id: string; title: string; header: string; body: string; updated_at: string }[];
    const out = rows.filter((r) => {
      const h = JSON.parse(r.header);
      return (
        String(h.status ?? '').toLowerCase() === 'active' &&
        Number(h.confidence ?? 0) >= 0.6 &&
        r.updated_at >= '2026-01-01' &&
        `${r.title} ${r.header} ${r.body}`.toLowerCase().includes('consumer')
      );
    });
    out.sort((a, b) => (a.updated_at < b.updated_at ? 1 : -1));
    return out;
  };
  const naiveCount = naive().length;
  const naiveRuns = await timeRuns(15, naive, 2);
  console.log(`naive: ${naiveCount} matches; p50 ${percentile(naiveRuns, 50).toFixed(1)} ms`);
  if (naiveCount !== listing.total) console.log(`note: naive substring match finds ${naiveCount}, FTS finds ${listing.total} (word forms differ)`);

  // 4. Sustained full writes: alternate new Views (id assignment) and rewrites of a View (archive).
  fakeNow = Date.UTC(2026, 10, 2);
  const writes = Math.min(6000, Math.max(100, RECORDS));
  let lastId = '';
  const cpu0 = process.cpuUsage();
  const tw = performance.now();
  for (let i = 0; i < writes; i++) {
    fakeNow += 1;
    if (i % 2 === 0 || !lastId) {
      lastId = (await fs.writeFile('/memory/views/new.md', viewDoc(i), agent)).id!;
    } else {
      const doc = viewDoc(i).replace('# new', `# ${lastId}`);
      const r = await fs.writeFile(`/memory/views/${lastId}.md`, doc, { actor: 'pm' });
      if (!r.archivedTo) throw new Error('expected the rewrite to archive the previous version');
    }
  }
  const writesPerS = Math.round(writes / ((performance.now() - tw) / 1000));
  const cpu = process.cpuUsage(cpu0);
  // On a shared machine wall-clock throughput depends on other load; CPU time per write does not.
  console.log(
    `writes: ${writes} full writes (half of them archiving a prior version) at ${writesPerS}/s wall; ${Math.round((cpu.user + cpu.system) / writes)} µs CPU per write (${Math.round(writes / ((cpu.user + cpu.system) / 1e6))}/s per CPU-second)`,
  );

  store.close();
  if (process.env.KEEP_BENCH_DB) console.log(`kept ${dbPath}`);
  else rmSync(dir, { recursive: true, force: true });
  const listP50 = percentile(listRuns, 50);
  const naiveP50 = percentile(naiveRuns, 50);
  report({
    bench: 'memory',
    list_p50_ms: round(listP50),
    list_p95_ms: round(percentile(listRuns, 95)),
    naive_p50_ms: round(naiveP50),
    ratio: round(naiveP50 / listP50, 1),
    writes_per_s: writesPerS,
    bytes_per_1000: bytesPer1000,
    // Both ways of answering the query must agree, or the speed-up compares different answers.
    list_matches: listing.total,
    naive_matches: naiveCount,
  });
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
