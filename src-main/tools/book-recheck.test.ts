import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { findBundledDir, parseRecord, renderRecord } from '../fs';
import { defaultGuardrailLimits as limits, readBook } from '../guardrails';
import { approveExpression } from './approval';
import { openTestWorkspace, type TestWorkspace } from './testing';
import { applyWrite } from './write-pipeline';

/**
 * Issue #26 §3: the book counts every trade once. A re-checked Expression (re-approved from
 * review, edited by the PM while active) used to leave its rows in the positions snapshot and then
 * be added again, so a book at 190% with a 30% trade read 220/200 and a change that leaves the book
 * as it is was refused. And a trade with no `factor:` skipped the concentration limit.
 */

let t: TestWorkspace;
beforeEach(async () => {
  t = await openTestWorkspace();
});
afterEach(() => t.close());

const path = (id: string) => `/memory/expressions/${id}.md`;

/** A 30%-of-NAV trade, already live: it went on before the snapshot below was taken. */
const TRADE = (status: string) =>
  `# new — Long copper\nstatus: ${status}\nview_id: V-001\ninstrument: LME copper 3m\nnotional: 30\nmax_loss_pct: 1.5\nduration_impact: 0\nfactor: commodities\nactivated_at: 2026-11-10T12:00:00.000Z\nstop: 8200\n---\n## SUMMARY\nCopper on the cuts.\n`;

/** A snapshot at 190% gross with the copper trade's 30% in it, its row naming it or not. */
function snapshot(id: string, named: boolean): string {
  return [
    '# state — Positions snapshot',
    'as_of: 2026-11-20',
    'nav_musd: 500',
    '---',
    '## POSITIONS',
    '| instrument | factor | exposure_pct_nav | duration | expression |',
    '|---|---|---|---|---|',
    '| UST 10y futures | us_rates | 50 | 1 | |',
    '| Bund futures | eur_rates | 50 | 1 | |',
    '| USD/JPY short | fx | -30 | 0 | |',
    '| S&P futures | equity | 30 | 0 | |',
    `| LME copper 3m | commodities | 30 | 0 | ${named ? id : ''} |`,
    '',
  ].join('\n');
}

async function liveTradeInFullBook(status: 'active' | 'review_required', named: boolean): Promise<string> {
  // Written straight through ForgeFS: the state a book reaches over weeks, set up in one step.
  const w = await t.ws.fs.writeFile('/memory/expressions/new.md', TRADE(status), { actor: 'pm' });
  await t.ws.fs.writeFile('/portfolio/state.md', snapshot(w.id!, named), { actor: 'pm' });
  expect(readBook(t.ws.fs, limits).gross).toBe(190);
  return w.id!;
}

describe('a re-checked Expression is counted once', () => {
  for (const named of [true, false]) {
    const how = named ? 'the snapshot names it' : 'the snapshot holds it unnamed (it went live before as_of)';

    it(`re-approving a review_required 30% trade in a 190% book passes (${how})`, async () => {
      const id = await liveTradeInFullBook('review_required', named);
      const r = await approveExpression(t.ws.fs, id, limits);
      // Before: "max_gross_exposure 220 (limit 200)" — the trade counted in the snapshot and again on top.
      expect(r.violations).toEqual([]);
      expect(r).toMatchObject({ approved: true, status: 'active' });
      expect(readBook(t.ws.fs, limits).gross).toBe(190);
    });

    it(`the PM moving the stop of an active 30% trade in a 190% book is saved (${how}); raising it past the limit is not`, async () => {
      const id = await liveTradeInFullBook('active', named);
      const doc = parseRecord(t.ws.fs.readFile(path(id)));
      const moved = renderRecord({ ...doc, header: { ...doc.header, stop: 8100 } });
      const r = await applyWrite(t.ws.fs, path(id), moved, { actor: 'pm' }, { limits });
      expect(r.violations ?? []).toEqual([]);
      expect(r.ok).toBe(true);
      expect(parseRecord(t.ws.fs.readFile(path(id))).header.stop).toBe(8100);
      // The exclusion takes the trade out once, not the check off: 190 − 30 + 41 = 201 > 200.
      const bigger = renderRecord({ ...doc, header: { ...doc.header, notional: 41 } });
      const refused = await applyWrite(t.ws.fs, path(id), bigger, { actor: 'pm' }, { limits });
      expect(refused.violations?.map((v) => [v.rule, v.actual, v.limit])).toEqual([['max_gross_exposure', 201, 200]]);
    });
  }
});

/** The demo's proposals, as the scripted analyst writes them (resources/demo/scenario.json). */
function demoExpressions(): string[] {
  const scenario = JSON.parse(readFileSync(join(findBundledDir(join('resources', 'demo'))!, 'scenario.json'), 'utf8')) as {
    turns: { reply: { toolCalls?: { name: string; input: { path?: string; content?: string } }[] } }[];
  };
  return scenario.turns.flatMap((turn) =>
    (turn.reply.toolCalls ?? []).filter((c) => c.name === 'write' && c.input.path === '/memory/expressions/new.md').map((c) => c.input.content!),
  );
}

/** The demo's E-004 as it was proposed before this change: 8% of NAV, no `factor:` line. */
const OLD_E004 =
  '# new — Receive 5y SOFR, sized from the stop\nstatus: proposed\nview_id: V-001\ninstrument: USD 5y SOFR swap (receive fixed)\nnotional: 8\nmax_loss_pct: 0.9\nduration_impact: 0.7\nsource: demo\n---\n## SUMMARY\nA small 5y receiver.\n';

describe('factor concentration on the demo book', () => {
  it("the demo's old E-004 is refused naming factor; with factor: us_rates it is refused at 31.9% against 30%", async () => {
    const write = (content: string) => applyWrite(t.ws.fs, '/memory/expressions/new.md', content, { actor: 'pm' }, { limits });
    const bare = await write(OLD_E004);
    // Before: written, and concentration never measured.
    expect(bare.ok).toBe(false);
    expect(bare.violations?.map((v) => [v.rule, v.limit])).toEqual([['missing_risk_field', 'a factor name']]);
    expect(bare.message).toContain('factor must name the risk factor');

    const rates = await write(OLD_E004.replace('source: demo', 'factor: us_rates\nsource: demo'));
    // us_rates 40 of 142.5 in the seed book; (40 + 8) / 150.5 = 31.89%.
    expect(rates.violations?.map((v) => [v.rule, v.actual, v.limit])).toEqual([['max_factor_concentration', 31.893688, 30]]);
  });

  it("the demo's E-004 now names us_rates and is sized to fit: (40 + 3.5) / 146 = 29.8%, and Approve takes it", async () => {
    const e004 = demoExpressions().at(-1)!;
    expect(parseRecord(e004.replace('# new', '# E-000')).header.factor).toBe('us_rates');
    // Written as the analyst writes it (lands proposed), then approved by the PM.
    const r = await applyWrite(t.ws.fs, '/memory/expressions/new.md', e004, { actor: 'agent', sessionId: 'sess_demo' }, { limits });
    expect(r.violations ?? []).toEqual([]);
    expect([r.id, r.status]).toEqual(['E-004', 'proposed']);
    const approved = await approveExpression(t.ws.fs, 'E-004', limits);
    expect(approved).toMatchObject({ approved: true, status: 'active', violations: [] });
    const book = readBook(t.ws.fs, limits);
    expect(book.gross).toBe(146);
    expect(book.usage.find((u) => u.rule === 'max_factor_concentration')).toMatchObject({ value: 29.794521, detail: 'us_rates' });
  });

  it('every Expression the demo writes names a factor', () => {
    const all = demoExpressions();
    expect(all.length).toBeGreaterThanOrEqual(2);
    for (const e of all) expect(e).toMatch(/^factor: \S+/m);
  });
});
