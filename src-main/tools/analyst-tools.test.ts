import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { countTokens, ScriptedModel } from '../llm';
import { z } from 'zod';
import { ProviderRegistry } from '../providers';
import { analystTools } from './analyst-tools';
import { limitsFromConstraints } from './expressions';
import { runTool } from './define';
import { openTestWorkspace, type TestWorkspace } from './testing';

let t: TestWorkspace;
beforeEach(async () => {
  t = await openTestWorkspace();
});
afterEach(() => t.close());

const tools = () => analystTools({ providers: t.providers });
const call = (name: string, args: unknown, ctx = t.context()) => runTool(tools(), name, args, ctx);

const expression = (o: { id?: string; status?: string; notional?: number; loss?: number; view?: string; factor?: string } = {}) =>
  [
    `# ${o.id ?? 'new'} — Receive 5y SOFR on softer payrolls`,
    `status: ${o.status ?? 'active'}`,
    `view_id: ${o.view ?? 'V-001'}`,
    'instrument: USD 5y SOFR swap (receive fixed)',
    `notional: ${o.notional ?? 10}`,
    `max_loss_pct: ${o.loss ?? 1.0}`,
    'duration_impact: 0.8',
    // A factor the seed book barely holds, so only the limit a test is about binds.
    `factor: ${o.factor ?? 'usd_swap_spread'}`,
    '---',
    '## SUMMARY',
    'Receive 5y to add to the Fed-cuts View with a tight stop.',
    '',
  ].join('\n');

describe('read', () => {
  it('opens a memory record at its header by default, so a browse does not flood the context', async () => {
    const r = await call('read', { path: '/memory/views/V-001.md' });
    expect(r.isError).toBeFalsy();
    const lines = r.content.split('\n');
    expect(lines[0]).toBe('# V-001 — Fed cuts twice more before the ECB moves again');
    expect(lines).toHaveLength(9);
    expect(lines[8]).toMatch(/^\[\d+ more lines — depth='full' to read\]$/);
  });

  it('returns the whole record when asked for depth full', async () => {
    const r = await call('read', { path: '/memory/views/V-001.md', depth: 'full' });
    expect(r.content).toContain('## INVALIDATION');
    expect(r.content).toContain('Two consecutive payroll prints above 200k.');
  });

  it('lists a folder with the seed listing metadata and filters it with a query', async () => {
    const all = await call('read', { path: '/memory/expressions/' });
    expect(all.content.split('\n')[0]).toBe('Directory: /memory/expressions/ (3 items)');
    expect(all.content).toContain('E-001.md  Receive 2y SOFR swaps  [view:V-001 | active]');
    const pk = await call('read', { path: '/memory/pk/', query: 'weight>=0.7' });
    const count = Number(/\((\d+) items/.exec(pk.content)![1]);
    expect(count).toBeGreaterThan(0);
    expect(count).toBeLessThan(4);
    for (const line of pk.content.split('\n').slice(1)) expect(Number(/w:([\d.]+)/.exec(line)![1])).toBeGreaterThanOrEqual(0.7);
  });

  it('opens fetched context at its summary and marks it as outside data', async () => {
    await call('fetch', { source: 'datasets', params: { dataset: 'ust_yields', last: 5 } });
    const r = await call('read', { path: '/session/context/ctx_001.md' });
    expect(r.untrusted).toBe(true);
    expect(r.content).toContain('## SUMMARY');
    expect(r.content).not.toContain('## DATA');
  });

  it('turns a path outside Forge into an error the model reads, not a crash', async () => {
    const r = await call('read', { path: '/memory/../etc/passwd' });
    expect(r.isError).toBe(true);
    expect(r.content).toMatch(/read failed \[invalid_input\]/);
  });

  it('returns zod issues for invalid arguments', async () => {
    const r = await call('read', { path: 42 });
    expect(r.isError).toBe(true);
    expect(r.content).toMatch(/^Invalid arguments for read: path: /);
  });
});

describe('search', () => {
  it('finds the View about Fed cuts by meaning and shows its header', async () => {
    // No word of the query is a word (or Porter stem) of V-001, so the keyword half cannot find it;
    // the default embedder's character n-grams (Fed/Federal, labour/labor, softening/softness,
    // inflation/disinflation) can. Were the vector half off, the PM would get nothing back.
    const query = 'Federal labor softness disinflation';
    const keywordOnly = await t.index.search({ scope: '/memory/views/', query, maxResults: 3, mode: 'keyword' });
    expect(keywordOnly.results.map((h) => h.id)).not.toContain('V-001');
    const r = await call('search', { scope: '/memory/views/', query, max_results: 3 });
    expect(r.isError).toBeFalsy();
    expect(r.content).toMatch(/^Search: 'Federal labor softness disinflation' in \/memory\/views\//);
    expect(/\n\n {2}\[\d\.\d\d\] (\S+)/.exec(r.content)?.[1]).toBe('/memory/views/V-001.md'); // ranked first
    expect(r.content).toContain('# V-001 — Fed cuts twice more before the ECB moves again');
  });
});

describe('write', () => {
  it('lands an agent-written Expression as proposed with a new id, whatever status it claims, audited as the agent', async () => {
    const r = await call('write', { path: '/memory/expressions/new.md', content: expression({ status: 'active' }) });
    expect(r.isError).toBeFalsy();
    expect(r.content).toMatch(/^Written: \/memory\/expressions\/E-004\.md \(status proposed/);
    expect(r.content).toContain('only the PM can activate capital');
    expect(t.ws.fs.recordInfo('/memory/expressions/E-004.md')!.status).toBe('proposed');
    const audit = t.ws.store.audit.list({ path: '/memory/expressions/E-004.md', limit: 5 });
    expect(audit.map((a) => [a.actor, a.operation, a.session_id])).toEqual([['agent', 'create', 'sess_test']]);
  });

  it('an unreadable limit in constraints.md refuses trades naming its line, but the analyst can still write notes', async () => {
    const broken = ['# constraints — Desk limits', 'max_gross: two hundred', '---', '## SUMMARY', 'Limits.', ''].join('\n');
    const ctx = { ...t.context(), limits: () => limitsFromConstraints(broken) };
    const note = ['# new — Claims at a cycle high', 'status: active', '---', '## SUMMARY', 'Continuing claims rose again.', ''].join('\n');
    const written = await call('write', { path: '/memory/observations/new.md', content: note }, ctx);
    expect(written.isError, written.content).toBeFalsy();
    const trade = await call('write', { path: '/memory/expressions/new.md', content: expression() }, ctx);
    expect(trade.isError).toBe(true);
    expect(trade.content).toMatch(/line 2 .*max_gross must be a number/);
  });

  it('strips an approval stamp the agent writes itself', async () => {
    const forged = expression({ status: 'active' }).replace('status: active', 'status: active\napproved_by: pm\napproved_at: 2026-11-21T00:00:00Z');
    await call('write', { path: '/memory/expressions/new.md', content: forged });
    const info = t.ws.fs.recordInfo('/memory/expressions/E-004.md')!;
    expect(info.status).toBe('proposed');
    expect(info.header.approved_by).toBeUndefined();
    expect(info.header.approved_at).toBeUndefined();
  });

  it('blocks an Expression over the gross limit, lists rule, actual and limit, and writes nothing', async () => {
    const before = t.ws.fs.listDir('/memory/expressions/').total;
    const r = await call('write', { path: '/memory/expressions/new.md', content: expression({ notional: 80 }) });
    expect(r.isError).toBe(true);
    expect(r.content).toContain('BLOCKED by guardrails');
    expect(r.content).toContain('- max_gross_exposure: actual 222.5, limit 200');
    expect(t.ws.fs.listDir('/memory/expressions/').total).toBe(before);
    // The blocked attempt did not burn an id either.
    expect(t.ws.fs.nextId('expressions')).toBe('E-004');
  });

  it('blocks an Expression whose View does not exist and one over the factor concentration limit', async () => {
    const noView = await call('write', { path: '/memory/expressions/new.md', content: expression({ view: 'V-999' }) });
    expect(noView.content).toContain('- expression_requires_view: actual V-999, limit an existing View');
    const conc = await call('write', { path: '/memory/expressions/new.md', content: expression({ notional: 20, factor: 'US rates' }) });
    // (40 + 20) / (142.5 + 20) = 36.9% of gross > 30% (us_rates in the computed book)
    expect(conc.content).toMatch(/- max_factor_concentration: actual 36\.923\d*, limit 30/);
  });

  it('archives the previous version when a View is updated', async () => {
    const old = t.ws.fs.readFile('/memory/views/V-002.md');
    const r = await call('write', { path: '/memory/views/V-002.md', content: old.replace(/confidence: [\d.]+/, 'confidence: 0.55') });
    expect(r.content).toMatch(/previous version archived to \/memory\/\.archive\/views\/V-002_/);
    const h = t.ws.fs.history('/memory/views/V-002.md');
    expect(h.versions).toHaveLength(1);
    expect(h.current!.confidence).toBe(0.55);
  });

  it('records an Outcome in the same write when the PM closes an Expression', async () => {
    const pm = t.context({ actor: 'pm' });
    const e = t.ws.fs.readFile('/memory/expressions/E-001.md').replace('status: active', 'status: closed\nexit_reason: target hit\npnl: 0.9');
    const r = await call('write', { path: '/memory/expressions/E-001.md', content: e }, pm);
    expect(r.content).toContain('Outcome OUT-001 recorded');
    const out = t.ws.fs.readFile('/memory/outcomes/OUT-001.md');
    expect(out).toContain('expression: E-001');
    expect(out).toContain('view_id: V-001');
    expect(out).toContain('pnl: 0.9');
    // Recorded by the tracker on the PM's close: only the tracker writes Outcomes.
    const actors = t.ws.store.audit.list({ path: '/memory/outcomes/OUT-001.md', limit: 5 }).map((a) => a.actor);
    expect(actors).toEqual(['tracker']);
  });

  it('records a Counterfactual when the agent declines its own proposal', async () => {
    await call('write', { path: '/memory/expressions/new.md', content: expression({}) });
    const e = t.ws.fs.readFile('/memory/expressions/E-004.md').replace('status: proposed', 'status: rejected\nrejection_reason: carry too thin');
    const r = await call('write', { path: '/memory/expressions/E-004.md', content: e });
    expect(r.content).toContain('Counterfactual CF-001 recorded');
    const cf = t.ws.fs.readFile('/memory/counterfactuals/CF-001.md');
    expect(cf).toContain('decision_type: rejected_expression');
    expect(cf).toContain('expression: E-004');
    expect(cf).toContain('reason: carry too thin');
    expect(cf).toContain('status: tracking');
  });

  it('flags the linked Expressions for review when a View is invalidated', async () => {
    const v = t.ws.fs.readFile('/memory/views/V-001.md').replace('status: active', 'status: invalidated');
    const r = await call('write', { path: '/memory/views/V-001.md', content: v });
    expect(r.content).toContain('E-001 flagged review_required');
    const info = t.ws.fs.recordInfo('/memory/expressions/E-001.md')!;
    expect(info.status).toBe('review_required');
    expect(info.header.review_reason).toMatch(/^View V-001 invalidated \d{4}-\d{2}-\d{2}$/);
    expect(t.ws.fs.history('/memory/expressions/E-001.md').versions).toHaveLength(1);
  });

  it('refuses an agent edit of a live trade and of the portfolio', async () => {
    const e = t.ws.fs.readFile('/memory/expressions/E-001.md').replace('notional: 12', 'notional: 40');
    const r = await call('write', { path: '/memory/expressions/E-001.md', content: e });
    expect(r.isError).toBe(true);
    expect(r.content).toContain('only the PM changes a live trade');
    expect(t.ws.fs.recordInfo('/memory/expressions/E-001.md')!.header.notional).toBe('12.0');
    const before = t.ws.fs.readFile('/portfolio/state.md');
    const p = await call('write', { path: '/portfolio/state.md', content: '# state — x\nas_of: 2026-11-22\n---\n' });
    expect(p.isError).toBe(true);
    expect(t.ws.fs.readFile('/portfolio/state.md')).toBe(before);
  });

  it("writes session notes under the run's session", async () => {
    const r = await call('write', { path: '/session/context/gaps.md', content: 'No CPI data yet.' });
    expect(r.content).toBe('Written: /session/sess_test/context/gaps.md');
    expect(t.ws.fs.readFile('/session/sess_test/context/gaps.md')).toBe('No CPI data yet.');
  });
});

describe('fetch', () => {
  it('stores the full result as ctx_NNN and returns the one-line header and a short summary', async () => {
    const r = await call('fetch', { source: 'datasets', params: { dataset: 'ust_yields', last: 10 } });
    expect(r.isError).toBeFalsy();
    expect(r.untrusted).toBe(true);
    const [head, ...rest] = r.content.split('\n');
    expect(head).toMatch(/^\[ctx_001 \| datasets \| ust_yields 2026-\d\d-\d\d\.\.2026-11-20 \| as of 2026-11-20 \| csv data\/ust_yields\.csv \| \d+ tok\]$/);
    const full = t.ws.fs.readFile('/session/sess_test/context/ctx_001.md');
    expect(Number(/\| (\d+) tok\]/.exec(head)![1])).toBe(countTokens(full));
    expect(countTokens(rest.join('\n'))).toBeLessThanOrEqual(120);
    expect(rest.join('\n')).toMatch(/us2y [\d.]+→[\d.]+/);
    expect(full.split('\n').filter((l) => /^\| 2026-/.test(l))).toHaveLength(10);
    const second = await call('fetch', { source: 'datasets', params: { dataset: 'fx_spot' } });
    expect(second.content).toMatch(/^\[ctx_002 \| datasets \| fx_spot /);
  });

  it('turns a provider failure into a FETCH FAILED result the model can act on', async () => {
    const r = await call('fetch', { source: 'datasets', params: { dataset: 'gold_futures' } });
    expect(r.isError).toBe(true);
    expect(r.content).toBe('[FETCH FAILED | datasets | not_found] There is no dataset "gold_futures". Available: fx_spot, us_labour, ust_yields.');
    expect(t.ws.fs.exists('/session/sess_test/context/ctx_001.md')).toBe(false);
  });

  it('names a bad parameter in one FETCH FAILED line, with its hint', async () => {
    const r = await call('fetch', { source: 'datasets', params: { dataset: 'ust_yields', start: 'last week' } });
    expect(r.content).toBe('[FETCH FAILED | datasets | bad_params] params.start: a date YYYY-MM-DD (first date to include)');
    const notObject = await call('fetch', { source: 'datasets', params: 'ust_yields' });
    // The error names every field, unlike the fetch tool's short line (which ends in `…`).
    expect(notObject.content).toBe('[FETCH FAILED | datasets | bad_params] params must be an object such as {dataset, columns?, start?, end?, last?}.');
  });

  it('rejects a source that is not registered with the list of sources, in one FETCH FAILED line', async () => {
    const r = await call('fetch', { source: 'bloomberg', params: {} });
    expect(r.isError).toBe(true);
    expect(r.content).toBe(
      '[FETCH FAILED | bloomberg | not_found] Unknown source "bloomberg". Available: market, economic, treasury, ecb, news, research, web, analytics, datasets.',
    );
  });

  it('in a session as of a past date, refuses a result dated after it with the reason', async () => {
    // A provider that ignores the as-of date it is given: the registry is the last line of defence.
    const careless = new ProviderRegistry([
      {
        name: 'market',
        description: 'careless quotes',
        params: z.object({}),
        health: () => ({ state: 'ok' }),
        fetch: async () => ({ label: 'quotes', asOf: '2026-11-20', source: 'test', formatFull: () => 'x', formatSummary: () => 'x' }),
      },
    ]);
    const r = await call('fetch', { source: 'market', params: {} }, { ...t.context({ asOf: '2026-10-15' }), providers: careless });
    expect(r.content).toBe(
      '[FETCH FAILED | market | as_of] market returned data as of 2026-11-20 (quotes): data after 2026-10-15 is not used in a session as of 2026-10-15. Ask for a range ending on or before 2026-10-15.',
    );
    // The CSV provider filters itself first: the same session gets the rows up to the date.
    const csv = await call('fetch', { source: 'datasets', params: { dataset: 'ust_yields' } }, t.context({ asOf: '2026-10-15' }));
    expect(csv.content.split('\n')[0]).toMatch(/ust_yields 2026-09-28\.\.2026-10-15 \| as of 2026-10-15 \|/);
  });

  it('describes each switched-on provider in one line with its parameter names', () => {
    const fetch = tools().find((x) => x.name === 'fetch')!;
    // Required fields first, at most four names then `…`: a bad or missing field is named with its hint on use.
    expect(fetch.description).toContain('\ndatasets: CSV files (3 datasets) {dataset, columns?, start?, end?, …}\n');
    expect(fetch.description).toContain('\nmarket: prices, yields, implied vols (sample; vendor with key) {kind, symbol, start?, end?, …}\n');
    // Without a key FRED still serves series by id (its graph CSV); the line says what waits for a key.
    expect(fetch.description).toContain('\neconomic: FRED series by id (no key: search and vintages need one) {series_id?, search?, start?, end?, …}\n');
    // A union of calculations names the values of its discriminator, not one branch's fields.
    expect(fetch.description).toMatch(/\nanalytics: local maths \{calc: option_price\|implied_vol\|[a-z_|]+, …\}\n/);
  });

  it("lists exactly one line per registered, switched-on provider of the app's full set, and drops one the PM switches off", async () => {
    const lines = (description: string) => description.split('\n').slice(1, -1);
    const fetch = tools().find((x) => x.name === 'fetch')!;
    const [header, ...rest] = fetch.description.split('\n');
    expect(header).toBe('Outside data. Sources {params}:');
    expect(rest.at(-1)).toBe('Shows a summary; the full result goes to /session/context/.');
    expect(t.providers.list().map((p) => p.name)).toEqual(['market', 'economic', 'treasury', 'ecb', 'news', 'research', 'web', 'analytics', 'datasets']);
    expect(lines(fetch.description).map((l) => l.split(':')[0])).toEqual([
      'market',
      'economic',
      'treasury',
      'ecb',
      'news',
      'research',
      'web',
      'analytics',
      'datasets',
    ]);
    expect(lines(fetch.description)).toEqual(t.providers.catalogue());

    const off = await openTestWorkspace({ seed: false, providerSettings: () => ({ news: { enabled: false }, web: { enabled: false } }) });
    try {
      const fewer = analystTools({ providers: off.providers }).find((x) => x.name === 'fetch')!;
      expect(lines(fewer.description).map((l) => l.split(':')[0])).toEqual(['market', 'economic', 'treasury', 'ecb', 'research', 'analytics', 'datasets']);
    } finally {
      off.close();
    }
  });
});

describe('compact', () => {
  it('asks the compact model and cuts an overrun to 150 words, saying so', async () => {
    const long = Array.from({ length: 200 }, (_, i) => `w${i}`).join(' ');
    const model = new ScriptedModel({ name: 'compact', turns: [{ expect: { role: 'compact', contains: 'FOCUS: rates decisions' }, reply: { text: long } }] });
    await call('write', { path: '/session/turn_history.md', content: '## Turn 1\nQuery: rates?\nResult: held V-001.\n' });
    const r = await call('compact', { target: 'session_history', focus: 'rates decisions' }, t.context({ model }));
    expect(r.isError).toBeFalsy();
    const body = r.content.split('\n')[1]!;
    expect(body.split(' … ')[0]!.split(' ')).toHaveLength(150);
    expect(r.content).toContain('[cut to 150 words: the compaction model wrote 200]');
    expect(model.finished).toBe(true);
  });

  it('says what it can compact when the target does not exist', async () => {
    const model = new ScriptedModel({ name: 'unused', turns: [{ reply: { text: 'x' } }] });
    const r = await call('compact', { target: 'sa_growth', focus: 'x' }, t.context({ model }));
    expect(r.isError).toBe(true);
    expect(r.content).toContain('use session_history, all_results');
    expect(model.turnsUsed).toBe(0);
  });
});
