/**
 * Computed-book benchmark: the book every guardrail check reads inside its write transaction.
 * A workspace with years of trading (default 20,000 closed Expressions, most closed before the
 * snapshot, plus 60 live ones), then
 *  - p50/p95 of readBook (two indexed SQL reads: live Expressions, and those closed since the snapshot),
 *  - the same book computed naively in the same run (read and parse every Expression record),
 *  - p50 of a full PM approval (guardrails on the computed book + the status write, one transaction).
 * Usage: npm run bench -- book [closed=20000] [live=60]
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ForgeFS, parseRecord, renderRecord } from '../src-main/fs';
import { computeBook, defaultGuardrailLimits as limits, expressionPosition, parseSnapshot, readBook } from '../src-main/guardrails';
import { Store } from '../src-main/store';
import { approveExpression } from '../src-main/tools';
import { percentile, report, round, timeRuns } from './_stats';

const CLOSED = Number(process.argv[2] ?? 20_000);
const LIVE = Number(process.argv[3] ?? 60);
const FACTORS = ['us_rates', 'eur_rates', 'fx', 'equity', 'commodities', 'credit'];

const dir = mkdtempSync(join(tmpdir(), 'forge-bench-book-'));
const store = Store.open(join(dir, 'forge.db'));
// Records carry the time they were written: a trade closed in March was last written in March.
let clock = '2026-01-01T00:00:00.000Z';
const fs = new ForgeFS({ store, skillsDir: join(dir, 'skills'), now: () => clock });
const pm = { actor: 'pm' as const };

function expression(i: number, status: string, extra: Record<string, string>): string {
  return renderRecord({
    id: 'new',
    title: `Trade ${i}`,
    header: {
      status,
      view_id: 'V-001',
      instrument: `Instrument ${i}`,
      // Small slices: what closed since the snapshot never exceeds what the snapshot held.
      notional: Math.round(((i % 7) + 1) * (5 / Math.max(CLOSED, 1)) * 1e6) / 1e6,
      max_loss_pct: 0.5,
      duration_impact: 0.01,
      factor: FACTORS[i % FACTORS.length]!,
      ...extra,
    },
    body: `## SUMMARY\nTrade ${i} for the benchmark.\n\n## EXIT RULES\n- Target and stop.\n`,
  });
}

async function main(): Promise<void> {
  await fs.writeFile('/memory/views/new.md', '# new — Bench view\nstatus: active\nconfidence: 0.6\n---\n## SUMMARY\nx\n', pm);
  const snapshot =
    '# state — Bench snapshot\nas_of: 2026-06-01\nnav_musd: 1000\n---\n## POSITIONS\n| instrument | factor | exposure_pct_nav | duration |\n|---|---|---|---|\n| UST 10y | us_rates | 40 | 1.5 |\n| EUR/USD | fx | -20 | 0 |\n';
  await fs.writeFile('/portfolio/state.md', snapshot, pm);
  const t0 = performance.now();
  const ids: string[] = [];
  for (let i = 0; i < CLOSED; i++) {
    // Two in three closed before the snapshot (they stay out of the book); the rest since.
    const closedAt = i % 3 === 2 ? '2026-09-15T12:00:00Z' : '2026-03-15T12:00:00Z';
    const activatedAt = '2026-01-10T12:00:00Z';
    clock = closedAt;
    await fs.writeFile('/memory/expressions/new.md', expression(i, 'closed', { activated_at: activatedAt, closed_at: closedAt }), pm);
  }
  clock = '2026-11-20T12:00:00.000Z';
  for (let i = 0; i < LIVE; i++) {
    const r = await fs.writeFile(
      '/memory/expressions/new.md',
      expression(CLOSED + i, 'active', { activated_at: `2026-${i % 2 ? '10' : '04'}-01T12:00:00Z` }),
      pm,
    );
    ids.push(r.id!);
  }
  const buildS = (performance.now() - t0) / 1000;
  console.log(`built ${CLOSED} closed + ${LIVE} live Expressions in ${buildS.toFixed(1)} s`);

  const fast = await timeRuns(200, () => readBook(fs, limits));
  const naiveBook = () => {
    const all = [];
    for (let offset = 0; ; offset += 1000) {
      const page = fs.listDir('/memory/expressions/', undefined, { limit: 1000, offset });
      for (const e of page.entries) all.push(expressionPosition(e.id!, parseRecord(fs.readFile(e.path)).header));
      if (offset + page.entries.length >= page.total) break;
    }
    return computeBook(parseSnapshot(fs.readFile('/portfolio/state.md')), all, limits);
  };
  const naive = await timeRuns(5, naiveBook, 1);
  const a = readBook(fs, limits);
  const b = naiveBook();
  if (a.gross !== b.gross || a.open.length !== b.open.length) throw new Error(`the two books differ: ${a.gross} vs ${b.gross}`);

  // Approvals: proposals written up front, each approved in its own transaction (book read inside).
  const proposals: string[] = [];
  for (let i = 0; i < 60; i++) {
    const r = await fs.writeFile('/memory/expressions/new.md', expression(900_000 + i, 'proposed', { factor: `bench_${i}` }), pm);
    proposals.push(r.id!);
  }
  let k = 0;
  const approvals = await timeRuns(
    60,
    async () => {
      const r = await approveExpression(fs, proposals[k++]!, limits);
      if (!r.approved) throw new Error(r.message);
    },
    0,
  );

  const p50 = percentile(fast, 50);
  const naiveP50 = percentile(naive, 50);
  console.log(
    `readBook p50 ${p50.toFixed(3)} ms, p95 ${percentile(fast, 95).toFixed(3)} ms; naive p50 ${naiveP50.toFixed(1)} ms; approval p50 ${percentile(approvals, 50).toFixed(2)} ms`,
  );
  console.log(`book: gross ${a.gross}, ${a.open.length} open, ${a.closedSinceSnapshot.length} closed since the snapshot`);
  report({
    bench: 'book',
    closed: CLOSED,
    live: LIVE,
    book_p50_ms: round(p50),
    book_p95_ms: round(percentile(fast, 95)),
    naive_p50_ms: round(naiveP50, 1),
    approve_p50_ms: round(percentile(approvals, 50)),
    ratio: round(naiveP50 / p50, 1),
    gross: a.gross,
    naive_gross: b.gross,
    closed_since_snapshot: a.closedSinceSnapshot.length,
  });
}

main()
  .catch((e) => {
    console.error(e);
    process.exitCode = 1;
  })
  .finally(() => {
    store.close();
    rmSync(dir, { recursive: true, force: true });
  });
