/**
 * Calibration benchmark: a workspace with 50,000 resolved Outcomes (plus completed Counterfactuals
 * and unrelated records), built through the real write path with a seeded RNG; then
 *  - p50 of computing calibration as the screen, the prompt and the reviewer get it
 *    (computeCalibration: one grouped SQL query answered from the partial index of migration 010,
 *    then per category and overall the Murphy decomposition, 1,000 seeded bootstrap resamples —
 *    multinomial over the (band, outcome) cells, so their cost does not grow with N — the
 *    calibration slope by IRLS and the words),
 *  - the first call after a write, reported apart: it also reads the record rows for the
 *    holding-period rows (the entry date is not in the index); those are cached per store until
 *    the database changes (SQLite total_changes() + PRAGMA data_version), so later calls reuse them,
 *  - as the baseline in the same run, the same figures from re-reading every record's markdown
 *    (ForgeFS.readFile + parseRecord + aggregate in JavaScript).
 * Both must agree on the count and the Brier score, or the bench fails.
 * Usage: npm run bench -- calibration [outcomes=50000]
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ForgeFS, parseRecord, trackerWriter } from '../src-main/fs';
import { Store } from '../src-main/store';
import { bandOf, CALIBRATION_CATEGORIES, computeCalibration } from '../src-main/tracking';
import { percentile, report, round, timeRuns } from './_stats';

const OUTCOMES = Number(process.argv[2] ?? 50_000);
const COUNTERFACTUALS = Math.round(OUTCOMES / 20);
const OTHER = Math.round(OUTCOMES / 10);

// mulberry32: every run builds the same workspace.
let seed = 13;
const rand = () => {
  seed = (seed + 0x6d2b79f5) | 0;
  let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
  t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
  return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
};
const pick = <T>(xs: readonly T[]) => xs[Math.floor(rand() * xs.length)]!;
const day = (i: number) => new Date(Date.UTC(2024, 0, 1) + (i % 900) * 86_400_000).toISOString().slice(0, 10);

/** A forecast whose true hit rate is its confidence minus a category's bias (thematic overconfident). */
function forecast(): { category: string; confidence: number; hit: boolean; pnlBp: number } {
  const category = pick(CALIBRATION_CATEGORIES);
  const confidence = round(0.35 + rand() * 0.6, 2);
  const bias = category === 'thematic' ? 0.18 : category === 'macro_regime' ? 0.05 : 0;
  const hit = rand() < confidence - bias;
  const pnlBp = round((hit ? 1 : -1) * (5 + rand() * 60), 2);
  return { category, confidence, hit, pnlBp };
}

function outcomeDoc(i: number): string {
  const f = forecast();
  return `# new — Outcome of E-${i + 1}: synthetic trade ${i}
expression: E-${String(i + 1).padStart(3, '0')}
view_id: V-${String(1 + (i % 700)).padStart(3, '0')}
status: resolved
category: ${f.category}
confidence: ${f.confidence}
quote: price
gains_when: ${rand() < 0.5 ? 'up' : 'down'}
entry_price: 100
entry_date: ${day(i)}
exit_price: ${round(100 + f.pnlBp / 10, 4)}
exit_date: ${day(i + 20)}
exit_reason: ${f.hit ? 'target' : 'stop'}
notional: 10
pnl_pct: ${round(f.pnlBp / 10, 4)}
pnl_bp: ${f.pnlBp}
hit: ${f.hit}
resolved_at: ${day(i + 20)}T21:00:00.000Z
---
## SUMMARY
Synthetic trade ${i} ${f.hit ? 'hit its target' : 'was stopped out'}: ${f.pnlBp}bp of NAV.

## P&L
P&L = ${f.pnlBp}bp of NAV.
`;
}

function counterfactualDoc(i: number): string {
  const f = forecast();
  const type = pick(['rejected_expression', 'rejected_expression', 'alternative', 'size_not_taken']);
  return `# new — Declined: synthetic idea ${i}
decision_type: ${type}
expression: E-${String(OUTCOMES + i + 1).padStart(3, '0')}
reason: synthetic
reference_date: ${day(i)}
status: ${rand() < 0.8 ? 'completed' : 'expired'}
category: ${f.category}
confidence: ${f.confidence}
exit_date: ${day(i + 30)}
pnl_bp: ${f.pnlBp}
hit: ${f.hit}
---
## SUMMARY
Synthetic declined idea ${i}.
`;
}

const viewDoc = (i: number) =>
  `# new — Synthetic view ${i}\nstatus: active\nconfidence: ${round(rand(), 2)}\ncategory: ${pick(CALIBRATION_CATEGORIES)}\n---\n## SUMMARY\nA view.\n`;

/** The baseline: every record's markdown read back and aggregated in JavaScript. */
function fromMarkdown(fs: ForgeFS, store: Store): { n: number; brier: number } {
  const ids = store.db.prepare("SELECT category, id FROM memory_records WHERE category IN ('outcomes', 'counterfactuals')").all() as {
    category: string;
    id: string;
  }[];
  const groups = new Map<string, { n: number; p: number; o: number; sq: number }>();
  for (const { category, id } of ids) {
    const h = parseRecord(fs.readFile(`/memory/${category}/${id}.md`)).header;
    const counted =
      category === 'outcomes'
        ? h.status === 'resolved'
        : h.status === 'completed' && (h.decision_type === 'rejected_expression' || h.decision_type === 'alternative');
    const p = typeof h.confidence === 'number' ? h.confidence : Number.NaN;
    if (!counted || !(p >= 0 && p <= 1) || (h.hit !== 'true' && h.hit !== 'false')) continue;
    const o = h.hit === 'true' ? 1 : 0;
    const key = `${String(h.category ?? 'uncategorised')}|${bandOf(p)}`; // ten equal bands
    const g = groups.get(key) ?? { n: 0, p: 0, o: 0, sq: 0 };
    g.n++;
    g.p += p;
    g.o += o;
    g.sq += (p - o) ** 2;
    groups.set(key, g);
  }
  let n = 0;
  let sq = 0;
  for (const g of groups.values()) {
    n += g.n;
    sq += g.sq;
  }
  return { n, brier: n ? round(sq / n, 4) : Number.NaN };
}

async function main(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'forge-bench-calibration-'));
  const store = Store.open(join(dir, 'forge.db'));
  const fs = new ForgeFS({ store, skillsDir: join(dir, 'skills') });
  // Resolved Outcomes and Counterfactuals are the tracker's to write.
  const writer = trackerWriter();

  const t0 = performance.now();
  const total = OUTCOMES + COUNTERFACTUALS + OTHER;
  const BATCH = 2000;
  for (let done = 0; done < total; done += BATCH) {
    const n = Math.min(BATCH, total - done);
    await fs.transaction((tx) => {
      for (let k = 0; k < n; k++) {
        const i = done + k;
        if (i < OUTCOMES) tx.writeFile('/memory/outcomes/new.md', outcomeDoc(i), writer);
        else if (i < OUTCOMES + COUNTERFACTUALS) tx.writeFile('/memory/counterfactuals/new.md', counterfactualDoc(i - OUTCOMES), writer);
        else tx.writeFile('/memory/views/new.md', viewDoc(i), writer);
      }
    });
  }
  store.db.exec('ANALYZE');
  console.log(`built ${OUTCOMES} resolved Outcomes, ${COUNTERFACTUALS} Counterfactuals, ${OTHER} Views in ${((performance.now() - t0) / 1000).toFixed(1)} s`);

  const coldStart = performance.now();
  const computed = computeCalibration(store);
  const coldMs = performance.now() - coldStart;
  const baseline = fromMarkdown(fs, store);
  if (computed.n !== baseline.n || Math.abs((computed.brier ?? Number.NaN) - baseline.brier) > 2e-4) {
    throw new Error(`SQL and markdown disagree: n ${computed.n} vs ${baseline.n}, Brier ${computed.brier} vs ${baseline.brier}`);
  }
  const w = computed.worst;
  const d = computed.overall.decomposition;
  if (!d || computed.bootstrap.resamples !== 1000 || !computed.horizons.length)
    throw new Error('the decomposition, 1,000 resamples and the horizons must all be computed');
  console.log(`calibration: ${computed.n} forecasts, Brier ${computed.brier}; worst band ${w ? `${w.category} ${w.band} bias ${w.bias} (n=${w.n})` : 'none'}`);
  console.log(
    `decomposition: REL ${d.reliability} RES ${d.resolution} UNC ${d.uncertainty}; slope ${computed.overall.recalibration?.slope}; ${computed.horizons.length} horizons; says: ${computed.overall.verdict.text}`,
  );
  console.log(`first call after the workspace was written (with the holding-period scan): ${coldMs.toFixed(1)} ms`);

  const runs = await timeRuns(15, () => computeCalibration(store), 3);
  const baseRuns = await timeRuns(5, () => fromMarkdown(fs, store), 1);
  const p50 = percentile(runs, 50);
  const baseP50 = percentile(baseRuns, 50);
  console.log(`computed (SQL): p50 ${p50.toFixed(1)} ms, p95 ${percentile(runs, 95).toFixed(1)} ms; re-reading markdown: p50 ${baseP50.toFixed(1)} ms`);

  store.close();
  if (process.env.KEEP_BENCH_DB) console.log(`kept ${dir}`);
  else rmSync(dir, { recursive: true, force: true });
  report({ bench: 'calibration', p50_ms: round(p50, 1), cold_ms: round(coldMs, 1), baseline_p50_ms: round(baseP50, 1), ratio: round(baseP50 / p50, 1) });
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
