/**
 * `npm run bench -- desk [--notes=N] [--seconds=S] [--pms=P]`: a desk under load. P simulated PMs
 * (default 10; HTTP clients, each signed in as their own user) write Views, search the desk's notes
 * and approve their own Expressions for S seconds (default 120) against TWO `forge serve --db`
 * servers on one PostgreSQL holding N research notes (default 1,000,000), while a risk user reads
 * every book. Then the same workload on one SQLite workspace (`forge serve --data`) with the same
 * notes, in the same run: each p95 is reported as a ratio to it.
 *
 * Checked after the run, from the database: 0 lost writes (every acknowledged View is there, once),
 * 0 duplicated (no two with one title), 0 limit breaches (no PM book, and not the desk book, above
 * its gross limit, although the PMs together try to approve far more than the desk allows).
 * Last line: {"bench":"desk", write/search/approve/books p50/p95, ratios, lost, duplicated, breaches}.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { Agent, request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { addExpression } from '../src-main/desk/books/testing';
import { DeskPeople } from '../src-main/desk/people';
import { createDesk } from '../src-main/desk/setup';
import { Store } from '../src-main/store';
import { PostgresConnection } from '../src-main/store/postgres/connection';
import { startPostgresWorkspaces } from '../src-main/store/postgres/test-workspaces';
import { QUERIES, seedPostgresNotes, seedSqliteNotes } from './_desk-corpus';
import { median, percentile, report, round } from './_stats';

const arg = (name: string, fallback: number) => Number(process.argv.find((a) => a.startsWith(`--${name}=`))?.split('=')[1] ?? fallback);
const NOTES = arg('notes', 1_000_000);
const SECONDS = arg('seconds', 120);
const PMS = arg('pms', 10);
/**
 * A PM's pause between two calls, in ms (each pause drawn from ½× to 1½× of it). 500 ms makes each
 * simulated PM call twice a second for the whole run — the desk 20 calls a second, far beyond what
 * ten people at their desks do — and measures how long one call takes under that load. --think=0
 * measures saturation instead: every PM calls back to back, each server answers one call at a
 * time, and a p95 is then mostly the queue (five PMs per server waiting on each other).
 */
const THINK_MS = arg('think', 500);
const PROPOSALS_PER_PM = 12;
const NOTIONAL = 10;
const PM_GROSS = 100; // each PM may hold 10 of their 12 proposals
const DESK_GROSS = 30 * NOTIONAL; // the desk only 30 of the PMs' 120: racing approvals must not pass 300
const PASSWORD = 'bench password for the desk';
const root = join(import.meta.dirname, '..');

interface Server {
  child: ChildProcess;
  port: number;
  token: string;
  dataDir: string;
}

async function startServer(args: string[], dataDir = mkdtempSync(join(tmpdir(), 'forge-bench-desk-'))): Promise<Server> {
  const child = spawn(process.execPath, ['--import', 'tsx', join(root, 'src-main', 'host', 'cli.ts'), 'serve', '--port', '0', '--data', dataDir, ...args], {
    cwd: root,
    env: { ...process.env, ANTHROPIC_API_KEY: '', FORGE_HOME: '', FORGE_SCHEDULER: 'off' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  // Whatever the server says after it started is kept, so a server that dies mid-run is explained.
  child.once('exit', (code, signal) => {
    if (code !== 0 && signal !== 'SIGTERM') console.error(`  a server exited (${code ?? signal}):\n${out.slice(-3000)}`);
  });
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`forge serve did not start in 120 s:\n${out}`)), 120_000);
    const onData = (d: Buffer) => {
      out += d.toString();
      const m = /Open: (http:\/\/127\.0\.0\.1:\d+\/\?token=\S+)/.exec(out);
      if (m) {
        clearTimeout(timer);
        resolve(m[1]);
      }
    };
    child.stdout?.on('data', onData);
    child.stderr?.on('data', onData);
    child.once('exit', (code) => reject(new Error(`forge serve exited (${code}):\n${out}`)));
  });
  const u = new URL(url);
  return { child, port: Number(u.port), token: u.searchParams.get('token') as string, dataDir };
}

async function stopServer(s: Server): Promise<void> {
  if (s.child.exitCode === null) {
    await new Promise<void>((resolve) => {
      s.child.once('exit', () => resolve());
      s.child.kill('SIGTERM');
      setTimeout(() => s.child.kill('SIGKILL'), 10_000).unref();
    });
  }
  rmSync(s.dataDir, { recursive: true, force: true });
}

const agent = new Agent({ keepAlive: true, maxSockets: 64 });

function call<T = Record<string, unknown>>(
  s: Server,
  name: string,
  input: unknown,
  // On a desk every general call is made by a signed-in person: their session, as the page sends it.
  session?: string,
): Promise<{ ok: boolean; value?: T; error?: { code: string; message: string } }> {
  const body = JSON.stringify(input);
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: '127.0.0.1',
        port: s.port,
        method: 'POST',
        path: `/api/${name}`,
        agent,
        headers: {
          'content-type': 'application/json',
          'content-length': Buffer.byteLength(body),
          authorization: `Bearer ${s.token}`,
          ...(session ? { 'x-forge-session': session } : {}),
        },
      },
      (res) => {
        let data = '';
        res.on('error', (e) => reject(Object.assign(e, { message: `${name}: ${e.message}` })));
        res.on('data', (c) => (data += c));
        res.on('end', () => {
          try {
            resolve(JSON.parse(data));
          } catch (e) {
            reject(e);
          }
        });
      },
    );
    req.on('error', (e) => reject(Object.assign(e, { message: `${name}: ${e.message}` })));
    // A call that never answers is an error of the run, not a hang of the bench.
    req.setTimeout(60_000, () => req.destroy(new Error(`${name}: no answer in 60 s`)));
    req.end(body);
  });
}

/**
 * Waits until a server's in-memory keyword index is built: at a million notes a starting server
 * reads them in steps for about a minute, between the calls it answers. The run measures a desk
 * in service, not a server's first minute.
 */
async function untilSearchReady(s: Server, session?: string): Promise<void> {
  const deadline = Date.now() + 15 * 60_000;
  while (Date.now() < deadline) {
    const r = await call<{ keywordRanking: string }>(s, 'search/status', {}, session);
    if (/\(\d[\d,]* notes\)/.test(r.value?.keywordRanking ?? '')) return;
    await new Promise((resolve) => setTimeout(resolve, 2000));
  }
  throw new Error('a server did not build its keyword index in 15 minutes');
}

type Op = 'write' | 'search' | 'approve' | 'books';
const timings = (): Record<Op, number[]> => ({ write: [], search: [], approve: [], books: [] });

/** Failed calls (a reset connection, no answer), by message: counted and shown, never a crash of the run. */
const failures = new Map<string, number>();
/** Calls the server refused (an error answer), by operation and reason. */
const refusals = new Map<string, number>();

async function timed<T extends { ok: boolean }>(bucket: number[], fn: () => Promise<T>): Promise<T> {
  const t0 = process.hrtime.bigint();
  try {
    const r = await fn();
    bucket.push(Number(process.hrtime.bigint() - t0) / 1e6);
    return r;
  } catch (e) {
    const key = (e as Error).message.slice(0, 120);
    failures.set(key, (failures.get(key) ?? 0) + 1);
    return { ok: false } as T;
  }
}

// A socket the server resets between calls surfaces outside any request: counted, not fatal.
process.on('uncaughtException', (e) => {
  const key = `outside a call: ${(e as Error).message.slice(0, 100)}`;
  failures.set(key, (failures.get(key) ?? 0) + 1);
});

const viewText = (title: string) => `# new — ${title}\nstatus: active\nconfidence: 0.6\nscope: US rates\n---\n## SUMMARY\n${title}: inflation and the curve.\n`;
const proposalText = (n: number) =>
  `# new — Bench trade ${n}\nstatus: proposed\nview_id: V-001\ninstrument: USD 5y swap\nnotional: 1\nmax_loss_pct: 0.5\nduration_impact: 0.1\nfactor: usd_swap_spread\n---\n## SUMMARY\nBench.\n`;

/** P PM loops (write, search, approve their own) and one risk loop, until the deadline. */
async function workload(opts: {
  servers: Server[];
  pm: (i: number) => { session?: string; proposals: string[] };
  approve: (s: Server, session: string | undefined, id: string) => Promise<{ ok: boolean }>;
  books?: (s: Server) => Promise<{ ok: boolean }>;
}): Promise<{ t: Record<Op, number[]>; acknowledged: string[]; errors: number }> {
  const t = timings();
  const acknowledged: string[] = [];
  let errors = 0;
  // A call the server answered with an error (not a failed call): counted, and its reason shown.
  const refuse = (op: Op, r: { ok: boolean; error?: { code: string; message: string } }) => {
    errors++;
    const key = `${op}: ${r.error ? `${r.error.code} ${r.error.message.slice(0, 100)}` : 'no answer'}`;
    refusals.set(key, (refusals.get(key) ?? 0) + 1);
  };
  const deadline = Date.now() + SECONDS * 1000;
  const pause = (ms: number) => (ms > 0 ? new Promise((r) => setTimeout(r, ms * (0.5 + Math.random()))) : Promise.resolve());
  const pmLoop = async (i: number) => {
    const s = opts.servers[i % opts.servers.length];
    const me = opts.pm(i);
    const proposals = [...me.proposals];
    // PMs do not start in lockstep.
    await pause(THINK_MS);
    for (let k = 0; Date.now() < deadline; k++) {
      if (k > 0) await pause(THINK_MS);
      const step = k % 5;
      if (step === 0 || step === 2) {
        const title = `bench pm${i} write ${k}`;
        const r = await timed(t.write, () => call<{ id: string }>(s, 'memory/write', { path: '/memory/views/new.md', content: viewText(title) }, me.session));
        if (r.ok && r.value) acknowledged.push(`${r.value.id}|${title}`);
        else refuse('write', r);
      } else if (step === 4 && proposals.length) {
        const id = proposals.shift() as string;
        const r = await timed(t.approve, () => opts.approve(s, me.session, id));
        if (!r.ok) refuse('approve', r);
      } else {
        const r = await timed(t.search, () =>
          call(s, 'memory/list', { path: '/memory/observations/', query: QUERIES[(i + k) % QUERIES.length], limit: 20 }, me.session),
        );
        if (!r.ok) refuse('search', r);
      }
    }
  };
  const riskLoop = async () => {
    if (!opts.books) return;
    for (let k = 0; Date.now() < deadline; k++) {
      await timed(t.books, () => opts.books?.(opts.servers[k % opts.servers.length]) as Promise<{ ok: boolean }>);
      await pause(Math.max(THINK_MS, 100));
    }
  };
  await Promise.all([...Array.from({ length: PMS }, (_, i) => pmLoop(i)), riskLoop()]);
  return { t, acknowledged, errors };
}

const summary = (xs: number[]) => ({ n: xs.length, p50: round(median(xs), 2), p95: round(percentile(xs, 95), 2) });

// ---- the desk: two servers on one PostgreSQL ----
console.log(
  `desk bench: ${PMS} PMs + risk, ${SECONDS} s, ${NOTES.toLocaleString('en-US')} notes, ${THINK_MS ? `a pause of ~${THINK_MS} ms between a PM's calls` : 'no pause between calls (saturation)'}`,
);
const workspaces = await startPostgresWorkspaces();
const url = workspaces.freshUrl();
const setup = PostgresConnection.open(url, { statementTimeoutMs: 3_600_000, answerTimeoutMs: 3_700_000 });
const pmIds = Array.from({ length: PMS }, (_, i) => `pm${String(i + 1).padStart(2, '0')}`);
let t0 = Date.now();
createDesk(setup);
const people = new DeskPeople(setup);
people.createFirstAdmin({ userId: 'admin', displayName: 'Desk admin', role: 'viewer', password: PASSWORD });
people.createUser('admin', { userId: 'rita', displayName: 'Rita (risk)', role: 'risk', password: PASSWORD });
for (const id of pmIds) people.createUser('admin', { userId: id, displayName: id, role: 'pm', password: PASSWORD });
setup.run(
  `INSERT INTO memory_records (category, id, title, status, meta, created_at, updated_at, header, body, content_hash)
   VALUES ('views', 'V-001', 'Bench view', 'active', '', '2026-11-01', '2026-11-01', '{"status":"active"}', 'Why.', 'x')`,
);
setup.run("INSERT INTO id_sequences (prefix, last) VALUES ('V', 1) ON CONFLICT (prefix) DO NOTHING");
const deskProposals = new Map<string, string[]>();
let e = 0;
for (const pm of pmIds) {
  const ids: string[] = [];
  for (let k = 0; k < PROPOSALS_PER_PM; k++) {
    const id = `E-${String(++e).padStart(3, '0')}`;
    addExpression(setup, { id, owner: pm, notional: NOTIONAL, factor: 'usd_swap_spread', maxLossPct: 0.5, durationImpact: 0.1 });
    ids.push(id);
  }
  deskProposals.set(pm, ids);
}
setup.run("INSERT INTO id_sequences (prefix, last) VALUES ('E', $1) ON CONFLICT (prefix) DO UPDATE SET last = excluded.last", [e]);
seedPostgresNotes(setup, NOTES, 'admin');
console.log(`  seeded PostgreSQL in ${((Date.now() - t0) / 1000).toFixed(1)} s`);

const servers = [await startServer(['--db', url]), await startServer(['--db', url])];
console.log('  two servers up');
const sessionOf = async (s: Server, userId: string) => {
  const r = await call<{ session: string }>(s, 'desk/sign-in', { userId, password: PASSWORD });
  if (!r.ok || !r.value) throw new Error(`sign-in ${userId}: ${r.error?.message}`);
  return r.value.session;
};
const rita = await sessionOf(servers[1], 'rita');
t0 = Date.now();
await Promise.all(servers.map((s) => untilSearchReady(s, rita)));
console.log(
  `  both servers' keyword index built in ${((Date.now() - t0) / 1000).toFixed(1)} s (a server starting on this desk answers meanwhile, ranking from the database)`,
);
const wide = { maxSingleRisk: 5, maxDuration: 50, maxFactorConcentration: 100 };
await call(servers[1], 'desk/set-limits', { session: rita, bookId: 'desk', limits: { ...wide, maxGross: DESK_GROSS } });
for (const pm of pmIds) await call(servers[1], 'desk/set-limits', { session: rita, bookId: pm, limits: { ...wide, maxGross: PM_GROSS } });
const sessions = await Promise.all(pmIds.map((pm, i) => sessionOf(servers[i % 2], pm)));
console.log('  limits set, PMs signed in');
// Warm both servers (the first query of a word pays its index pages).
for (const s of servers) for (const q of QUERIES) await call(s, 'memory/list', { path: '/memory/observations/', query: q, limit: 20 }, rita);
console.log('  warmed; running');

const desk = await workload({
  servers,
  pm: (i) => ({ session: sessions[i], proposals: deskProposals.get(pmIds[i]) ?? [] }),
  approve: (s, session, id) => call(s, 'desk/approve', { session, id }),
  books: (s) => call(s, 'desk/books', { session: rita }),
});
for (const s of servers) await stopServer(s);

// ---- the checks, from the database ----
const check = PostgresConnection.open(url);
const titles = check.query<{ id: string; title: string }>("SELECT id, title FROM memory_records WHERE category = 'views' AND title LIKE 'bench pm%'");
const have = new Set(titles.map((r) => `${r.id}|${r.title}`));
const lost = desk.acknowledged.filter((a) => !have.has(a)).length;
const duplicated = titles.length - new Set(titles.map((r) => r.title)).size;
const grossBy = check.query<{ owner_id: string; gross: number }>(
  `SELECT a.owner_id, sum(abs((r.header::jsonb ->> 'notional')::double precision)) AS gross
   FROM memory_records r JOIN desk_record_access a ON a.rid = r.rid
   WHERE r.category = 'expressions' AND r.status = 'active' GROUP BY a.owner_id`,
);
const deskGross = grossBy.reduce((sum, r) => sum + Number(r.gross), 0);
const breaches = grossBy.filter((r) => Number(r.gross) > PM_GROSS).length + (deskGross > DESK_GROSS ? 1 : 0);
const approvedCount = check.one<{ n: number }>("SELECT count(*)::int AS n FROM memory_records WHERE category = 'expressions' AND status = 'active'")?.n ?? 0;
check.close();
await workspaces.stop();
console.log(
  `  desk: ${desk.acknowledged.length} writes acknowledged, lost ${lost}, duplicated ${duplicated}; ${approvedCount} approvals, desk gross ${deskGross} (limit ${DESK_GROSS}), breaches ${breaches}; ${desk.errors} refused calls`,
);

// ---- the baseline: the same workload on one SQLite workspace ----
t0 = Date.now();
const baseDir = mkdtempSync(join(tmpdir(), 'forge-bench-sqlite-'));
{
  // A PM's own workspace as a new user has it (the sample: Views, the book, limits), then the same notes.
  const first = await startServer([], baseDir);
  await call(first, 'memory/list', { path: '/memory/views/' });
  await stopServer({ ...first, dataDir: mkdtempSync(join(tmpdir(), 'forge-bench-unused-')) });
  const store = Store.open(join(baseDir, 'forge.db'));
  seedSqliteNotes(store.db, NOTES);
  store.close();
}
console.log(`  seeded SQLite in ${((Date.now() - t0) / 1000).toFixed(1)} s`);
const single = await startServer([], baseDir);
await untilSearchReady(single);
// Proposals the PM approves on their own machine (written through the app; the sample's book and limits).
const baseProposals: string[][] = pmIds.map(() => []);
for (let i = 0; i < PMS; i++) {
  for (let k = 0; k < PROPOSALS_PER_PM; k++) {
    const r = await call<{ id: string }>(single, 'memory/write', { path: '/memory/expressions/new.md', content: proposalText(k) });
    if (r.ok && r.value) baseProposals[i].push(r.value.id);
    else if (i === 0 && k === 0) console.log(`  (a baseline proposal was refused: ${JSON.stringify(r.error)})`);
  }
}
for (const q of QUERIES) await call(single, 'memory/list', { path: '/memory/observations/', query: q, limit: 20 });
const sqlite = await workload({
  servers: [single],
  pm: (i) => ({ proposals: baseProposals[i] }),
  approve: (s, _session, id) => call(s, 'expressions/approve', { id }),
  books: (s) => call(s, 'portfolio/book', {}),
});
await stopServer(single);
agent.destroy();

const figures: Record<string, number> = {};
console.log('');
console.log('operation   desk p50 / p95 (ms)     one SQLite p50 / p95 (ms)   p95 ratio');
for (const op of ['write', 'search', 'approve', 'books'] as Op[]) {
  const d = summary(desk.t[op]);
  const b = summary(sqlite.t[op]);
  const ratio = b.p95 > 0 ? round(d.p95 / b.p95, 2) : Number.NaN;
  console.log(
    `${op.padEnd(10)}  ${String(d.p50).padStart(7)} / ${String(d.p95).padEnd(8)} n=${String(d.n).padEnd(6)} ${String(b.p50).padStart(7)} / ${String(b.p95).padEnd(8)} n=${String(b.n).padEnd(6)} ${ratio}`,
  );
  figures[`${op}_p50_ms`] = d.p50;
  figures[`${op}_p95_ms`] = d.p95;
  figures[`sqlite_${op}_p95_ms`] = b.p95;
  figures[`${op}_p95_ratio`] = ratio;
}
if (failures.size) console.log(`failed calls: ${JSON.stringify(Object.fromEntries(failures))}`);
if (refusals.size) console.log(`refused calls: ${JSON.stringify(Object.fromEntries(refusals))}`);
console.log(
  `targets: write p95 ≤ 50 ms, search p95 ≤ 100 ms at ${NOTES.toLocaleString('en-US')} notes (memory/list with words, the desk's tsvector), approval p95 ≤ 100 ms`,
);
report({
  bench: 'desk',
  notes: NOTES,
  seconds: SECONDS,
  pms: PMS,
  think_ms: THINK_MS,
  desk_calls_per_s: round(Object.values(desk.t).reduce((a, xs) => a + xs.length, 0) / SECONDS, 1),
  sqlite_calls_per_s: round(Object.values(sqlite.t).reduce((a, xs) => a + xs.length, 0) / SECONDS, 1),
  ...figures,
  lost,
  duplicated,
  breaches,
  approvals: approvedCount,
  failed_calls: [...failures.values()].reduce((a, b) => a + b, 0),
  ratio: figures.write_p95_ratio,
});
