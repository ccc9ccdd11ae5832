/**
 * Memory store benchmark: a 100,000-record workspace built through the real write path, then
 *  - p50/p95 of a filtered listing (query compiled to SQL, indexes + FTS5),
 *  - the same listing done naively (load every View, filter in JS) in the same run,
 *  - sustained full writes per second (codec + id + archive + audit, one transaction each),
 *  - database bytes per 1,000 records,
 * then, with the search index attached as the app attaches it (SearchIndex as the store's indexer,
 * the hashed embedder; embedding time is measured apart and left out of the write figures):
 *  - single-note write p50/p95 (record + full text + vector slot) at that size, and the same writes
 *    with the whole-block vector write of earlier versions, interleaved in the same run (write_ratio),
 *  - an import of 10,000 new notes through the batched write path (ForgeFS.transaction, as the
 *    sample workspace's seeding uses), in notes per second.
 * Usage: npm run bench -- memory [records=100000]
 */
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ForgeFS } from '../src-main/fs';
import { type Embedder, HashNgramEmbedder, SearchIndex } from '../src-main/search';
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

  const indexed = await indexedWrites(store, dir, () => fakeNow++);

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
    ...indexed,
  });
}

/** The hashed embedder, timing every call: what embedding costs is reported apart from the writes. */
class TimedEmbedder implements Embedder {
  private readonly inner = new HashNgramEmbedder();
  readonly id = this.inner.id;
  readonly dims = this.inner.dims;
  ms = 0;
  async embed(texts: string[]): Promise<Float32Array[]> {
    return texts.map((t) => this.embedOne(t));
  }
  embedOne(text: string): Float32Array {
    const t0 = performance.now();
    const v = this.inner.embedOne(text);
    this.ms += performance.now() - t0;
    return v;
  }
}

/**
 * Sections 5-7: index every record (a rebuild, batched), then time single writes through ForgeFS
 * with the index attached — slot patches (this version) against whole-block rewrites (before), in
 * alternating rounds so both see the same machine load — then an import of new notes.
 */
const round1 = (x: number) => round(x, 1);

async function indexedWrites(store: Store, dir: string, tick: () => number) {
  const embedder = new TimedEmbedder();
  const index = new SearchIndex(store.db, embedder);
  const t0 = performance.now();
  await index.reindex();
  const indexS = (performance.now() - t0) / 1000;
  console.log(`index: ${index.blocks.size()} notes embedded and written in ${indexS.toFixed(1)} s (embedding ${(embedder.ms / 1000).toFixed(1)} s)`);
  const old = new SearchIndex(store.db, embedder, { wholeBlockWrites: true });
  const fsFor = (indexer: SearchIndex) => new ForgeFS({ store, skillsDir: join(dir, 'skills'), indexer, now: () => new Date(tick()).toISOString() });
  const fsNew = fsFor(index);
  const fsOld = fsFor(old);
  const viewIds = store.db.prepare("SELECT id FROM memory_records WHERE category = 'views'").pluck().all() as string[];
  /** One write: a new View or a rewrite of a random one (a random block), alternately; returns ms without embedding. */
  const write = async (fs: ForgeFS, i: number): Promise<number> => {
    const e0 = embedder.ms;
    const w0 = performance.now();
    if (i % 2 === 0) await fs.writeFile('/memory/views/new.md', viewDoc(i), agent);
    else {
      const id = pick(viewIds);
      await fs.writeFile(`/memory/views/${id}.md`, viewDoc(i).replace('# new', `# ${id}`), { actor: 'pm' });
    }
    return performance.now() - w0 - (embedder.ms - e0);
  };
  const agent = { actor: 'agent' as const, sessionId: 'bench' };
  const perMode = Math.min(1000, Math.max(100, RECORDS / 10));
  const ROUND = 50;
  const patched: number[] = [];
  const whole: number[] = [];
  for (let i = 0; i < 20; i++) {
    await write(fsNew, i);
    await write(fsOld, i);
  }
  const e0 = embedder.ms;
  // Each round starts from an empty WAL, so neither way pays for the checkpoints the other's pages
  // cause, and the WAL's size after a round is what its writes wrote (a figure no machine load moves).
  const wal = join(dir, 'forge.db-wal');
  const walBytes = { patched: 0, whole: 0 };
  const timedRound = async (fs: ForgeFS, into: number[], r: number, key: keyof typeof walBytes) => {
    store.db.pragma('wal_checkpoint(TRUNCATE)');
    for (let k = 0; k < ROUND; k++) into.push(await write(fs, r * ROUND + k));
    walBytes[key] += statSync(wal).size;
  };
  for (let r = 0; patched.length < perMode; r++) {
    await timedRound(fsNew, patched, r, 'patched');
    await timedRound(fsOld, whole, r, 'whole');
  }
  store.db.pragma('wal_checkpoint(TRUNCATE)');
  const walKb = (key: keyof typeof walBytes) => round1(walBytes[key] / 1024 / patched.length);
  const embedPerWrite = (embedder.ms - e0) / (patched.length + whole.length);
  const [p50, p95, o50, o95] = [percentile(patched, 50), percentile(patched, 95), percentile(whole, 50), percentile(whole, 95)];
  console.log(
    `indexed writes at ${index.blocks.size()} notes: slot patch p50 ${p50.toFixed(3)} ms, p95 ${p95.toFixed(3)} ms; whole-block p50 ${o50.toFixed(3)} ms, p95 ${o95.toFixed(3)} ms (${patched.length} each, embedding ${embedPerWrite.toFixed(3)} ms a note, excluded)`,
  );
  console.log(`WAL written per write (record, full text, audit, index): slot patch ${walKb('patched')} KB, whole-block ${walKb('whole')} KB`);

  // 7. Import: new notes through the batched write path, as the seeding of a workspace writes them.
  const IMPORT = Math.min(10_000, RECORDS);
  const BATCH = 500;
  const i0 = embedder.ms;
  const t1 = performance.now();
  for (let done = 0; done < IMPORT; done += BATCH) {
    await fsNew.transaction((tx) => {
      for (let k = 0; k < Math.min(BATCH, IMPORT - done); k++) tx.writeFile('/memory/observations/new.md', otherDoc('observations', done + k), agent);
    });
  }
  const importEmbedMs = embedder.ms - i0;
  const importMs = performance.now() - t1 - importEmbedMs;
  const importPerS = Math.round(IMPORT / (importMs / 1000));
  console.log(
    `import: ${IMPORT} notes in batches of ${BATCH} at ${importPerS}/s without embedding (${(importMs / 1000).toFixed(2)} s; embedding ${(importEmbedMs / 1000).toFixed(2)} s apart)`,
  );
  return {
    index_notes: index.blocks.size(),
    write_p50_ms: round(p50),
    write_p95_ms: round(p95),
    write_old_p50_ms: round(o50),
    write_old_p95_ms: round(o95),
    write_ratio: round(o50 / p50, 2),
    wal_kb_per_write: walKb('patched'),
    wal_kb_per_write_old: walKb('whole'),
    embed_ms_per_note: round(embedPerWrite),
    import_notes: IMPORT,
    import_notes_per_s: importPerS,
  };
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
