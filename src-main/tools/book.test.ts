import { spawn } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { parseRecord, renderRecord } from '../fs';
import { defaultGuardrailLimits as limits, readBook } from '../guardrails';
import { analystTools } from './analyst-tools';
import { approveExpression } from './approval';
import { runTool } from './define';
import { openTestWorkspace, type TestWorkspace } from './testing';
import { applyWrite } from './write-pipeline';

const here = dirname(fileURLToPath(import.meta.url));
let t: TestWorkspace;
beforeEach(async () => {
  t = await openTestWorkspace();
});
afterEach(() => t.close());

// A factor the seed book barely holds, so only the limit a test is about binds (unless `extra` names one).
const pmExpression = (title: string, notional: number, extra = '') =>
  `# new — ${title}\nstatus: proposed\nview_id: V-001\ninstrument: ${title}\nnotional: ${notional}\nmax_loss_pct: 1.5\nduration_impact: 0.5\n${extra.includes('factor:') ? '' : 'factor: commodities\n'}${extra}---\n## SUMMARY\n${title}.\n`;

async function pmWrites(title: string, notional: number, extra = ''): Promise<string> {
  const r = await applyWrite(t.ws.fs, '/memory/expressions/new.md', pmExpression(title, notional, extra), { actor: 'pm' }, { limits });
  expect(r.ok, r.message).toBe(true);
  return r.id!;
}

async function setStatus(id: string, status: string, actor: 'pm' | 'scheduler' = 'pm'): Promise<void> {
  const path = `/memory/expressions/${id}.md`;
  const doc = parseRecord(t.ws.fs.readFile(path));
  const r = await applyWrite(t.ws.fs, path, renderRecord({ ...doc, header: { ...doc.header, status } }), { actor }, { limits });
  expect(r.ok, r.message).toBe(true);
}

describe('the computed book under the guardrails', () => {
  it('three 30%-notional Expressions approved in turn: the first goes live, the second is refused naming gross 202.5 vs 200', async () => {
    expect(readBook(t.ws.fs, limits).gross).toBe(142.5);
    const [a, b, c] = [await pmWrites('Trade A', 30), await pmWrites('Trade B', 30), await pmWrites('Trade C', 30)];

    const first = await approveExpression(t.ws.fs, a, limits);
    expect(first).toMatchObject({ approved: true, status: 'active' });
    expect(readBook(t.ws.fs, limits).gross).toBe(172.5);

    const second = await approveExpression(t.ws.fs, b, limits);
    // Without the computed book this passed: the static gross line still said 142.5.
    expect(second.approved).toBe(false);
    expect(second.violations.map((v) => [v.rule, v.actual, v.limit])).toEqual([['max_gross_exposure', 202.5, 200]]);
    expect(second.message).toContain('max_gross_exposure 202.5 (limit 200)');
    expect(t.ws.fs.recordInfo(`/memory/expressions/${b}.md`)!.status).toBe('proposed');

    expect((await approveExpression(t.ws.fs, c, limits)).approved).toBe(false);
    const book = readBook(t.ws.fs, limits);
    expect(book.gross).toBe(172.5);
    expect(book.open.map((o) => [o.id, o.inSnapshot])).toEqual([
      ['E-001', true],
      ['E-002', true],
      ['E-003', true],
      [a, false],
    ]);
    expect(book.usage.find((u) => u.rule === 'max_gross_exposure')).toEqual({ rule: 'max_gross_exposure', value: 172.5, limit: 200 });
  });

  it('the write tool checks a proposal against the computed book, not the snapshot alone', async () => {
    await approveExpression(t.ws.fs, await pmWrites('Big one', 50), limits);
    const r = await runTool(
      analystTools({ providers: t.providers }),
      'write',
      { path: '/memory/expressions/new.md', content: pmExpression('Agent idea', 10) },
      t.context(),
    );
    // 142.5 + 50 + 10 = 202.5: the snapshot alone (152.5) would have let it through.
    expect(r.isError).toBe(true);
    expect(r.content).toContain('max_gross_exposure: actual 202.5, limit 200');
  });

  it('a trade closed after the snapshot comes out of the book; one opened and closed since never enters it', async () => {
    await setStatus('E-001', 'closed');
    const info = t.ws.fs.recordInfo('/memory/expressions/E-001.md')!;
    expect(typeof info.header.closed_at).toBe('string');
    let book = readBook(t.ws.fs, limits);
    expect([book.gross, book.net, book.duration, book.factors.us_rates]).toEqual([130.5, 26, 2, 28]);
    expect(book.closedSinceSnapshot).toEqual(['E-001']);

    const id = await pmWrites('Round trip', 20, 'factor: gold\n');
    await approveExpression(t.ws.fs, id, limits);
    expect(readBook(t.ws.fs, limits).factors.gold).toBe(20);
    await setStatus(id, 'closed');
    book = readBook(t.ws.fs, limits);
    expect(book.gross).toBe(130.5);
    expect(book.factors.gold).toBeUndefined();
  });

  it('a short Expression adds to gross and takes from net', async () => {
    await approveExpression(t.ws.fs, await pmWrites('Short bunds', 10, 'direction: short\nfactor: eur_rates\n'), limits);
    const book = readBook(t.ws.fs, limits);
    expect([book.gross, book.net, book.factors.eur_rates]).toEqual([152.5, 28, 41.5]);
  });

  it('factor concentration is measured on the computed book, at write and again at approval', async () => {
    // fx is 41 of 142.5 (28.8%). +10 fx → 51/152.5 = 33.4% > 30%: refused at write.
    const big = await applyWrite(t.ws.fs, '/memory/expressions/new.md', pmExpression('More FX', 10, 'factor: FX\n'), { actor: 'pm' }, { limits });
    expect(big.violations?.map((v) => [v.rule, v.actual])).toEqual([['max_factor_concentration', 33.442623]]);
    // Two small fx trades each fit alone (43/144.5 = 29.8%); the second no longer fits once the first is live (45/146.5 = 30.7%).
    const a = await pmWrites('FX a', 2, 'factor: fx\n');
    const b = await pmWrites('FX b', 2, 'factor: fx\n');
    expect((await approveExpression(t.ws.fs, a, limits)).approved).toBe(true);
    const r = await approveExpression(t.ws.fs, b, limits);
    expect(r.violations.map((v) => [v.rule, v.actual])).toEqual([['max_factor_concentration', 30.716724]]);
  });

  it('an agent cannot backdate a trade into the snapshot by writing activated_at', async () => {
    const r = await runTool(
      analystTools({ providers: t.providers }),
      'write',
      { path: '/memory/expressions/new.md', content: pmExpression('Backdated', 20, 'activated_at: 2020-01-01T00:00:00Z\n') },
      t.context(),
    );
    expect(r.isError).toBeFalsy();
    const id = /E-\d+/.exec(r.content)![0];
    expect(t.ws.fs.recordInfo(`/memory/expressions/${id}.md`)!.header.activated_at).toBeUndefined();
    await approveExpression(t.ws.fs, id, limits);
    expect(readBook(t.ws.fs, limits).gross).toBe(162.5);
  });

  it('a live Expression with no readable notional blocks every new trade (the book cannot be measured)', async () => {
    const pending = await pmWrites('Waiting', 1);
    const id = await pmWrites('Fine', 5);
    await approveExpression(t.ws.fs, id, limits);
    const path = `/memory/expressions/${id}.md`;
    await t.ws.fs.writeFile(path, t.ws.fs.readFile(path).replace('notional: 5', 'notional: lots'), { actor: 'pm' });
    expect(readBook(t.ws.fs, limits).unmeasured).toEqual([id]);
    const r = await approveExpression(t.ws.fs, pending, limits);
    expect(r.approved).toBe(false);
    expect(r.violations[0]).toMatchObject({ rule: 'missing_risk_field', actual: id });
    const w = await applyWrite(t.ws.fs, '/memory/expressions/new.md', pmExpression('Next', 1), { actor: 'pm' }, { limits });
    expect(w.ok).toBe(false);
  });

  it('the analyst (and an IDE over MCP) reads the computed book at /portfolio/book.md', async () => {
    await approveExpression(t.ws.fs, await pmWrites('Trade A', 30), limits);
    const tools = analystTools({ providers: t.providers });
    const r = await runTool(tools, 'read', { path: '/portfolio/book.md' }, t.context());
    expect(r.content).toContain('gross: 172.5');
    expect(r.content).toContain('- max_gross_exposure: 172.5 vs 200');
    const listing = await runTool(tools, 'read', { path: '/portfolio/' }, t.context());
    expect(listing.content).toContain('book.md');
  });

  it('two approvals racing in two processes cannot both pass', async () => {
    // 142.5 + 30 = 172.5 fits; 142.5 + 30 + 30 = 202.5 does not: exactly one may win.
    const a = await pmWrites('Race A', 30);
    const b = await pmWrites('Race B', 30);
    const db = join(t.dir, 'forge.db');
    const child = join(here, '__tests__', 'approve.child.ts');
    const run = (id: string) => {
      const p = spawn(process.execPath, ['--import', 'tsx', child, db, join(t.dir, 'skills'), id], { stdio: ['ignore', 'pipe', 'pipe'] });
      let out = '';
      let err = '';
      p.stdout.on('data', (d: Buffer) => (out += d.toString()));
      p.stderr.on('data', (d: Buffer) => (err += d.toString()));
      const ready = new Promise<void>((resolve) => p.stdout.on('data', () => out.includes('READY') && resolve()));
      const done = new Promise<{ approved: boolean; rules: string[] }>((resolve, reject) =>
        p.on('close', (code) => (code === 0 ? resolve(JSON.parse(out.split('\n').filter(Boolean).pop()!)) : reject(new Error(err)))),
      );
      return { ready, done };
    };
    const [x, y] = [run(a), run(b)];
    await Promise.all([x.ready, y.ready]);
    writeFileSync(`${db}.go`, '');
    const results = await Promise.all([x.done, y.done]);
    expect(results.filter((r) => r.approved)).toHaveLength(1);
    expect(results.find((r) => !r.approved)!.rules).toEqual(['max_gross_exposure']);
    expect(readBook(t.ws.fs, limits).gross).toBe(172.5);
  }, 60_000);
});
