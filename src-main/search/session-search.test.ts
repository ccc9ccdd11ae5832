import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ForgeFS } from '../fs';
import { Store } from '../store';
import { HashNgramEmbedder } from './hash-embedder';
import { parseScope } from './scope';
import { SearchIndex } from './search-index';
import { SESSION_FIELD_WEIGHTS, scoreSessionFiles, searchSessionFiles, sessionFileColumns } from './session-search';

/**
 * Search over the current session's files (DESIGN: search covers memory and the session). A real
 * SQLite file, ForgeFS and search index; session files written by the analyst's actor.
 */
let dir: string;
let store: Store;
let t: { ws: { fs: ForgeFS }; index: SearchIndex };
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'forge-session-search-'));
  store = Store.open(join(dir, 'forge.db'));
  const index = new SearchIndex(store.db, new HashNgramEmbedder());
  t = { ws: { fs: new ForgeFS({ store, skillsDir: join(dir, 'skills'), indexer: index }) }, index };
});
afterEach(() => {
  store.close();
  rmSync(dir, { recursive: true, force: true });
});

const agent = (sessionId: string) => ({ actor: 'agent' as const, sessionId });

const BRIEF = `# Integration brief
## SUMMARY
Kiwi dairy auction prices collapsed; the NZD short looks stronger than the rates team says.
`;

describe('search scope session', () => {
  it('finds what the analyst wrote to /session/<file> in this session', async () => {
    await t.ws.fs.forSession('sess_a').writeFile('/session/integration_brief.md', BRIEF, agent('sess_a'));
    const r = await t.index.search({ scope: 'session', query: 'dairy auction', sessionId: 'sess_a' });
    expect(r.scope).toBe('/session/');
    expect(r.results.map((h) => [h.path, h.category, h.title])).toEqual([['/session/integration_brief.md', 'session', 'Integration brief']]);
    expect(r.results[0].keyword).toBe(1);
    expect(r.results[0].header).toContain('Kiwi dairy auction prices collapsed');
  });

  it("does not show another session's files (a note from yesterday's chat is not in today's search)", async () => {
    await t.ws.fs.forSession('sess_other').writeFile('/session/notes.md', 'dairy auction notes from another chat', agent('sess_other'));
    const r = await t.index.search({ scope: 'session', query: 'dairy auction', sessionId: 'sess_a' });
    expect(r.results).toEqual([]);
  });

  it('a session folder narrows the search (/session/results/ sees sub-agent results only)', async () => {
    const fs = t.ws.fs.forSession('sess_a');
    await fs.writeFile('/session/integration_brief.md', BRIEF, agent('sess_a'));
    await fs.writeFile('/session/results/nzd.md', '## SUMMARY\nDairy auction fall hits NZ terms of trade.', agent('sess_a'));
    const r = await t.index.search({ scope: '/session/results/', query: 'dairy auction', sessionId: 'sess_a' });
    expect(r.results.map((h) => h.path)).toEqual(['/session/results/nzd.md']);
  });

  it('field filters select memory records only; since: applies to session files too', async () => {
    await t.ws.fs.forSession('sess_a').writeFile('/session/integration_brief.md', BRIEF, agent('sess_a'));
    expect((await t.index.search({ scope: 'session', query: 'dairy', filters: 'status:active', sessionId: 'sess_a' })).results).toEqual([]);
    expect((await t.index.search({ scope: 'session', query: 'dairy', filters: 'since:2099', sessionId: 'sess_a' })).results).toEqual([]);
    expect((await t.index.search({ scope: 'session', query: 'dairy', filters: 'since:2020-01', sessionId: 'sess_a' })).results).toHaveLength(1);
  });

  it('session scope without a session is refused with a message, not an empty list', async () => {
    const e = await t.index.search({ scope: 'session', query: 'dairy' }).catch((x) => x);
    expect(e.code).toBe('invalid_input');
    expect(e.message).toMatch(/only be searched from inside a session/);
  });
});

describe('session files ranked by BM25 (the ranker memory uses)', () => {
  const write = (path: string, content: string) => t.ws.fs.forSession('sess_a').writeFile(path, content, agent('sess_a'));
  const search = (query: string, filters?: string) => t.index.search({ scope: 'session', query, filters, sessionId: 'sess_a', maxResults: 10 });
  const sessionRows = () =>
    store.db.prepare("SELECT path, content FROM session_files WHERE session_id = 'sess_a' ORDER BY path").all() as { path: string; content: string }[];

  it('a file holding every query word ranks above one repeating a single word (else the brief the analyst wants is buried)', async () => {
    await write('/session/integration_brief.md', BRIEF);
    await write('/session/dairy_log.md', '# Dairy log\ndairy dairy dairy dairy dairy volumes, dairy exports, dairy again.');
    await write('/session/rates.md', '# Rates\nThe rates team expects two cuts.');
    await write('/session/fx.md', '# FX\nUSD strength into quarter end.');
    const r = await search('dairy auction');
    expect(r.results.map((h) => h.path)).toEqual(['/session/integration_brief.md', '/session/dairy_log.md']);
    expect(r.results[0].keyword).toBe(1);
    expect(r.results[1].keyword).toBeLessThan(1);
  });

  it('finds another form of the same word ("rallies" finds a note saying "rallied"), as memory search does', async () => {
    await write('/session/notes.md', '# Gilts\nGilts rallied after the auction.');
    await write('/session/other.md', '# Equities\nStocks drifted.');
    const r = await search('rallies');
    expect(r.results.map((h) => h.path)).toEqual(['/session/notes.md']);
  });

  it('matches whole words: "rate" does not find a note that only says "separate"', async () => {
    await write('/session/separate.md', '# Desk\nKeep the two books separate.');
    await write('/session/rate.md', '# Policy\nThe policy rate is on hold.');
    const r = await search('rate');
    expect(r.results.map((h) => h.path)).toEqual(['/session/rate.md']);
  });

  it('a filter keyword or phrase keeps only the files holding it (as in memory listings)', async () => {
    await write('/session/integration_brief.md', BRIEF);
    await write('/session/results/nzd.md', '## SUMMARY\nDairy auction fall hits NZ terms of trade.');
    await write('/session/fx.md', '# FX\nUSD strength into quarter end.');
    const all = await search('dairy auction');
    expect(all.results.map((h) => h.path).sort()).toEqual(['/session/integration_brief.md', '/session/results/nzd.md']);
    const filtered = await search('dairy auction', 'terms');
    expect(filtered.results.map((h) => h.path)).toEqual(['/session/results/nzd.md']);
    expect((await search('dairy auction', '"rates team"')).results.map((h) => h.path)).toEqual(['/session/integration_brief.md']);
  });

  it("scores are FTS5's own bm25() over the same files in an FTS5 table with the same tokenizer (within 1e-9)", async () => {
    await write('/session/integration_brief.md', BRIEF);
    await write('/session/results/nzd.md', '## SUMMARY\nDairy auction fall hits NZ terms of trade. Auctions: three, all weaker.');
    await write('/session/cafe_notes.md', 'Crème brûlée at the café; the dairy desk rallied, rallying again (no heading here).');
    await write('/session/long.md', `# Long notes on dairy\n${'Milk powder supply, shipping and weather. '.repeat(40)}Auction volumes fell.`);
    await write('/session/fx.md', '# FX\nUSD strength into quarter end; the NZD rallies.');
    const rows = sessionRows();
    const words = ['dairy', 'auction', 'rallies', 'creme', 'milk'];
    store.db.exec("CREATE VIRTUAL TABLE temp.session_fts USING fts5(title, header, body, tokenize = 'porter unicode61 remove_diacritics 2')");
    const insert = store.db.prepare('INSERT INTO temp.session_fts (rowid, title, header, body) VALUES (?, ?, ?, ?)');
    for (const [i, r] of rows.entries()) insert.run(i + 1, ...sessionFileColumns(r));
    const ftsScores = (w: readonly number[]) =>
      store.db
        .prepare('SELECT rowid, bm25(session_fts, ?, ?, ?) AS bm FROM temp.session_fts WHERE session_fts MATCH ?')
        .all(...w, words.map((x) => `"${x}"`).join(' OR ')) as { rowid: number; bm: number }[];
    // The app's weights, and fractional ones (FTS5 adds those one occurrence at a time).
    for (const w of [SESSION_FIELD_WEIGHTS, [1.3, 0.7, 0.9] as const]) {
      const ours = new Map(scoreSessionFiles(rows, words, w).map((h) => [rows[h.rid].path, h.score]));
      const fts = ftsScores(w);
      expect(fts.length).toBe(5);
      expect([...ours.keys()].sort()).toEqual(fts.map((r) => rows[r.rowid - 1].path).sort());
      for (const r of fts) expect(Math.abs(ours.get(rows[r.rowid - 1].path)! - -r.bm)).toBeLessThan(1e-9);
    }
    const fts = ftsScores(SESSION_FIELD_WEIGHTS);
    store.db.exec('DROP TABLE temp.session_fts');

    // The hits the analyst sees carry those scores, scaled by the best one.
    const best = Math.max(...fts.map((r) => -r.bm));
    const hits = searchSessionFiles(store.db, {
      sessionId: 'sess_a',
      prefix: '',
      words,
      ast: null,
      weights: { semantic: 1, recency: 0 },
      now: new Date(),
      limit: 10,
    });
    expect(hits.map((h) => [h.path, h.keyword]).sort()).toEqual(
      fts.map((r) => [`/session/${rows[r.rowid - 1].path}`, Math.round((-r.bm / best) * 10_000) / 10_000]).sort(),
    );
  });
});

describe('memory and session together', () => {
  it('scope all ranks a memory record and a session note in one list; /memory/ leaves the note out', async () => {
    await t.ws.fs.writeFile(
      '/memory/views/V-001.md',
      '# V-001 — Fed cuts before the ECB\nstatus: active\nconfidence: 0.6\n---\n## SUMMARY\nPayrolls soften.\n',
      { actor: 'pm' },
    );
    await t.ws.fs.forSession('sess_a').writeFile('/session/fed_notes.md', '# Fed notes\nFed cuts before the ECB: payrolls decide it.', agent('sess_a'));
    const all = await t.index.search({ scope: 'all', query: 'Fed cuts before the ECB', sessionId: 'sess_a', maxResults: 10 });
    expect(all.scope).toBe('/memory/ + /session/');
    expect(all.results.map((h) => h.path).sort()).toEqual(['/memory/views/V-001.md', '/session/fed_notes.md']);
    const memory = await t.index.search({ scope: '/memory/', query: 'Fed cuts before the ECB', sessionId: 'sess_a', maxResults: 10 });
    expect(memory.results.map((h) => h.path)).toEqual(['/memory/views/V-001.md']);
    // Outside a session (the Memory screen) the default scope is memory alone.
    const screen = await t.index.search({ scope: 'all', query: 'Fed cuts before the ECB', maxResults: 10 });
    expect(screen.scope).toBe('/memory/');
    expect(screen.results.map((h) => h.path)).toEqual(['/memory/views/V-001.md']);
  });
});

describe('parseScope', () => {
  it('reads all, session and memory scopes', () => {
    expect(parseScope('')).toMatchObject({ memory: true, sessionPrefix: '' });
    expect(parseScope('all')).toMatchObject({ memory: true, sessionPrefix: '' });
    expect(parseScope('session')).toMatchObject({ path: '/session/', memory: false, sessionPrefix: '' });
    expect(parseScope('/session/results/')).toMatchObject({ memory: false, sessionPrefix: 'results/' });
    expect(parseScope('/memory/pk/')).toMatchObject({ memory: true, category: 'pk', sessionPrefix: null });
    expect(() => parseScope('/portfolio/')).toThrow(/list or read it instead/);
    expect(() => parseScope('/session/a b/')).toThrow(/not a session folder/);
  });
});
