import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ForgeFS } from '../fs';
import { Store } from '../store';
import { HashNgramEmbedder } from './hash-embedder';
import { parseScope } from './scope';
import { SearchIndex } from './search-index';

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
