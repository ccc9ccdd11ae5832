import { mkdirSync, mkdtempSync, rmSync, unlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { EventMessage } from '../api/events';
import { EnvSecretStore } from '../config/secrets';
import { openWorkspace, type Workspace } from '../fs';
import { startMockAnthropicServer, type MockAnthropicServer, type RecordedRequest } from '../llm/testing';
import { buildProviderRegistry, type ProviderRegistry } from '../providers';
import type { ResearchProvider } from '../providers/research';
import { makePdf } from '../providers/research/test-pdf';
import { type Embedder, EmbedderError, HashNgramEmbedder, type ReindexProgress, SearchIndex } from '../search';
import { createCore, type Core } from './core';
import { attachResearch, passageEmbedder, passageRanker } from './research';

/**
 * Broker notes in the analyst's `search`: notes (markdown and PDF) put in the research folder are
 * found by the search tool (scope all and research) with their citation, by meaning as well as by
 * keyword, never after a retrospective's as-of date, framed as outside data; their vectors follow
 * the notes (deleted, re-embedded) and wait when the embedder is down.
 */

/** Neutral filler, so a query only matches the sentences a test plants. */
const filler = (tag: string, sentences: number) =>
  Array.from({ length: sentences }, (_, i) => `Desk commentary ${tag} item ${i} covers positioning flows and liquidity across sessions.`).join(' ');

const pageLines = (text: string) => {
  const ws = text.split(' ');
  const lines: string[] = [];
  for (let i = 0; i < ws.length; i += 12) lines.push(ws.slice(i, i + 12).join(' '));
  return lines;
};

const FED_NOTE = [
  '---',
  'title: Fed inflation watch',
  'date: 2025-09-20',
  '---',
  '# Fed inflation watch',
  '',
  '## Inflation outlook',
  '',
  `Core inflation is cooling faster than the committee expects, so the first cut comes in December. ${filler('fed', 6)}`,
].join('\n');

const LATER_NOTE = [
  '---',
  'title: October update',
  'date: 2025-11-10',
  '---',
  '## Update',
  '',
  `Inflation rebounded in October and the December cut is off the table now. ${filler('later', 6)}`,
].join('\n');

const RATES_PDF = makePdf(
  [pageLines(`Rates strategy. ${filler('p1', 12)}`), pageLines(`We recommend receiving 5y swaps into the December meeting. ${filler('p2', 10)}`)],
  { title: 'Rates strategy', date: '2025-09-15' },
);

function putNotes(dir: string) {
  writeFileSync(join(dir, 'fed-inflation.md'), FED_NOTE);
  writeFileSync(join(dir, 'later.md'), LATER_NOTE);
  writeFileSync(join(dir, 'rates-strategy.pdf'), RATES_PDF);
}

describe('through the real core: the analyst, the API and Settings → Search index', () => {
  type Block = { type: string; content?: string | { type: string; text?: string }[] };
  let mock: MockAnthropicServer;
  let core: Core;
  let dataDir: string;
  let events: EventMessage[];

  beforeAll(async () => {
    mock = await startMockAnthropicServer();
  });
  afterAll(async () => {
    await mock.close();
  });
  beforeEach(() => {
    mock.reset();
    dataDir = mkdtempSync(join(tmpdir(), 'forge-research-search-'));
    core = createCore({ dataDir, mode: 'test', secrets: new EnvSecretStore({ ANTHROPIC_API_KEY: 'test-key' }) });
    core.context.settings.update({ anthropicBaseUrl: mock.url });
    events = [];
    core.context.events.subscribe((m) => events.push(m));
    putNotes(join(dataDir, 'research'));
  });
  afterEach(async () => {
    await core.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  async function run(message: string, asOf?: string): Promise<{ name: string; content: string; isError: boolean }[]> {
    const sent = await core.invoke('agent/send', { message, ...(asOf ? { asOf } : {}) });
    if (!sent.ok) throw new Error(sent.error.message);
    const { runId } = sent.value;
    await new Promise<void>((resolve) => {
      const done = () => events.some((e) => (e.event === 'agent/done' || e.event === 'agent/error') && (e.payload as { runId: string }).runId === runId);
      if (done()) return resolve();
      const off = core.context.events.subscribe(() => {
        if (done()) {
          off();
          resolve();
        }
      });
    });
    return events
      .filter((e) => e.event === 'agent/tool-result' && (e.payload as { runId: string }).runId === runId)
      .map((e) => e.payload as { name: string; content: string; isError: boolean });
  }

  /** The tool results the model was sent, as text (what it actually reads, framing included). */
  const toolResultsSent = (r: RecordedRequest) =>
    (r.body.messages as { role: string; content: string | Block[] }[])
      .flatMap((m) => (typeof m.content === 'string' ? [] : m.content))
      .filter((b) => b.type === 'tool_result')
      .map((b) => (typeof b.content === 'string' ? b.content : (b.content ?? []).map((c) => c.text ?? '').join('')));

  it("the analyst's search finds a broker note's passage with its citation in scope research and all, framed as outside data, never after the session's as-of date", async () => {
    const query = 'inflation outlook December cut';
    mock.enqueue(
      { toolCalls: [{ name: 'search', input: { query, scope: 'research' } }] },
      { toolCalls: [{ name: 'search', input: { query, max_results: 10 } }] },
      { text: 'Noted.' },
    );
    const [research, all] = await run('What do the brokers say about the December cut?', '2025-10-01');
    expect(research?.isError).toBe(false);
    expect(research?.content).toMatch(/^Search: 'inflation outlook December cut' in \/research\/ \(/);
    expect(research?.content).toContain('/research/fed-inflation.md');
    expect(research?.content).toContain('[fed-inflation.md § Inflation outlook] Fed inflation watch (2025-09-20)');
    expect(research?.content).toContain('Core inflation is cooling faster than the committee expects');
    expect(research?.content).toContain('more: fetch research with note "fed-inflation.md"');
    // A retrospective as of 2025-10-01 must not see the note written on 2025-11-10.
    expect(research?.content).not.toContain('later.md');
    expect(research?.content).not.toContain('rebounded');

    expect(all?.content).toMatch(/in \/memory\/ \+ \/session\/ \+ \/research\/ \(/);
    expect(all?.content).toContain('/research/fed-inflation.md');
    expect(all?.content).toContain('/memory/');
    expect(all?.content).not.toContain('later.md');

    // The model reads both results inside the untrusted-data frame.
    const sent = toolResultsSent(mock.messageRequests().at(-1)!);
    expect(sent).toHaveLength(2);
    for (const text of sent) expect(text.startsWith('<untrusted_data>')).toBe(true);
  });

  it('without an as-of date the newer note is found too, and a PDF passage is cited by page', async () => {
    mock.enqueue(
      { toolCalls: [{ name: 'search', input: { query: 'December cut inflation rebounded', scope: '/research/' } }] },
      { toolCalls: [{ name: 'search', input: { query: 'receiving 5y swaps', scope: 'research', max_results: 1 } }] },
      { text: 'Noted.' },
    );
    const [byDate, pdf] = await run('Any update on the December cut?');
    expect(byDate?.content).toContain('[later.md § Update] October update (2025-11-10)');
    expect(pdf?.content).toContain('[rates-strategy.pdf p.2] Rates strategy (2025-09-15)');
    expect(pdf?.content).toContain('We recommend receiving 5y swaps into the December meeting.');
  });

  it('memory/search with scope /research/ returns the passage text for the Memory screen, and Settings counts passages in the index and the rebuild', async () => {
    const r = await core.invoke('memory/search', { scope: '/research/', query: 'receiving 5y swaps', max_results: 3 });
    if (!r.ok) throw new Error(r.error.message);
    const top = r.value.results[0]!;
    expect(top.path).toBe('/research/rates-strategy.pdf');
    expect(top.category).toBe('research');
    expect(top.passage?.citation).toBe('[rates-strategy.pdf p.2]');
    expect(top.passage?.text).toContain('We recommend receiving 5y swaps into the December meeting.');

    const status = await core.invoke('search/status', {});
    if (!status.ok) throw new Error(status.error.message);
    expect(status.value.passages).toBeGreaterThanOrEqual(4);
    expect(status.value.passagesIndexed).toBe(status.value.passages);

    const rebuilt = await core.invoke('search/reindex', {});
    if (!rebuilt.ok) throw new Error(rebuilt.error.message);
    expect(rebuilt.value.passages).toBe(status.value.passages);
    expect(rebuilt.value.total).toBe(status.value.records + status.value.passages);
    expect(rebuilt.value.done).toBe(rebuilt.value.total);
  });
});

/** The hash embedder, switched off on demand: what a Voyage/OpenAI embedder looks like when the provider is down. */
class FlakyEmbedder implements Embedder {
  readonly inner: HashNgramEmbedder;
  readonly id: string;
  readonly dims: number;
  failing = false;
  constructor(dims = 384) {
    this.inner = new HashNgramEmbedder(dims);
    this.id = this.inner.id;
    this.dims = dims;
  }
  async embed(texts: string[]): Promise<Float32Array[]> {
    if (this.failing) throw new EmbedderError('embedding provider unavailable (HTTP 503)', { status: 503, retryable: true });
    return this.inner.embed(texts);
  }
}

describe('the wiring over a real workspace: vectors, as-of, deletes, failures and reindex', () => {
  let dir: string;
  let notes: string;
  let ws: Workspace;
  let index: SearchIndex;
  let providers: ProviderRegistry;
  let embedder: FlakyEmbedder;
  let clock: number;

  beforeEach(async () => {
    dir = mkdtempSync(join(tmpdir(), 'forge-research-wiring-'));
    embedder = new FlakyEmbedder();
    clock = Date.parse('2026-01-05T09:00:00Z');
    ws = openWorkspace({ dataDir: dir, bundledSkillsDir: null, seedDir: null, indexer: (store) => (index = new SearchIndex(store.db, embedder)) });
    await ws.ready;
    notes = join(dir, 'research');
    mkdirSync(notes);
    // As the host wires it (core.ts): the search index's embedder and ranking injected, the notes attached.
    providers = buildProviderRegistry({
      db: ws.fs.store.db,
      secret: () => undefined,
      settings: () => undefined,
      researchDir: notes,
      now: () => new Date(clock),
      research: {
        embedder: passageEmbedder(() => index),
        rank: passageRanker(
          () => index,
          () => undefined,
        ),
      },
    });
    attachResearch(index, providers);
    putNotes(notes);
  });
  afterEach(() => {
    ws.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const db = () => ws.fs.store.db;
  const count = (sql: string, ...params: unknown[]) =>
    (
      db()
        .prepare(sql)
        .get(...params) as { n: number }
    ).n;
  const research = () => providers.get('research') as ResearchProvider;

  it('finds "inflationary" in a passage that says "inflation" through the vectors, which bm25 alone misses (search and fetch research)', async () => {
    const hybrid = await index.search({ scope: 'research', query: 'inflationary', maxResults: 3 });
    expect(hybrid.results[0]?.path).toBe('/research/fed-inflation.md');
    expect(hybrid.results[0]?.vector).toBeGreaterThan(0);
    expect(hybrid.results[0]?.keyword).toBe(0);
    // The vector signal switched off: the same query finds nothing.
    const keywordOnly = await index.search({ scope: 'research', query: 'inflationary', maxResults: 3, mode: 'keyword' });
    expect(keywordOnly.results).toEqual([]);

    // fetch research ranks the same way; the research index's own bm25 has nothing for it.
    expect(research().index.search('inflationary', { limit: 3 })).toEqual([]);
    const fetched = await providers.fetch('research', { query: 'inflationary', limit: 1 });
    expect(fetched.formatFull()).toContain('[fed-inflation.md § Inflation outlook]');
  });

  it('asOf leaves out notes dated after it; a note prefix narrows the scope; attached IDEs (withResearch false) get no passages', async () => {
    const all = await index.search({ scope: 'research', query: 'December cut inflation', maxResults: 10 });
    expect(all.results.map((h) => h.path)).toContain('/research/later.md');
    const retro = await index.search({ scope: 'research', query: 'December cut inflation', maxResults: 10, asOf: '2025-10-01' });
    expect(retro.results.length).toBeGreaterThan(0);
    expect(retro.results.every((h) => h.passage!.noteDate <= '2025-10-01')).toBe(true);

    const fed = await index.search({ scope: '/research/FED', query: 'December cut inflation', maxResults: 10 });
    expect(new Set(fed.results.map((h) => h.path))).toEqual(new Set(['/research/fed-inflation.md']));

    // Filters apply to passages as to session files: since: by the note's date, keywords in the text; field filters match no passage.
    const since = await index.search({ scope: 'research', query: 'December cut inflation', maxResults: 10, filters: 'since:2025-11-01' });
    expect(new Set(since.results.map((h) => h.path))).toEqual(new Set(['/research/later.md']));
    const phrase = await index.search({ scope: 'research', query: 'December cut', maxResults: 10, filters: '"5y swaps"' });
    expect(new Set(phrase.results.map((h) => h.path))).toEqual(new Set(['/research/rates-strategy.pdf']));
    const fields = await index.search({ scope: 'research', query: 'December cut', maxResults: 10, filters: 'status:active' });
    expect(fields.results).toEqual([]);

    const mcp = await index.search({ scope: 'all', query: 'December cut inflation', maxResults: 10, withResearch: false });
    expect(mcp.results.some((h) => h.category === 'research')).toBe(false);
    await expect(index.search({ scope: 'research', query: 'December cut', withResearch: false })).rejects.toThrow(/not searched here/);
  });

  it('a deleted note leaves no passage and no vector; a changed note keeps only vectors of its new text', async () => {
    await index.search({ scope: 'research', query: 'inflation' });
    expect(count("SELECT count(*) AS n FROM research_passage_vectors WHERE note = 'later.md'")).toBeGreaterThan(0);
    unlinkSync(join(notes, 'later.md'));
    writeFileSync(join(notes, 'fed-inflation.md'), FED_NOTE.replace('first cut comes in December', 'first cut slips to March'));
    const after = await index.search({ scope: 'research', query: 'inflation rebounded', maxResults: 10 });

    expect(after.results.some((h) => h.path === '/research/later.md')).toBe(false);
    expect(count("SELECT count(*) AS n FROM research_passages WHERE note = 'later.md'")).toBe(0);
    expect(count("SELECT count(*) AS n FROM research_passage_vectors WHERE note = 'later.md'")).toBe(0);
    // Every vector belongs to a passage that exists, and every passage has exactly one.
    expect(count('SELECT count(*) AS n FROM research_passage_vectors WHERE passage NOT IN (SELECT rowid FROM research_passages)')).toBe(0);
    expect(count('SELECT count(*) AS n FROM research_passage_vectors')).toBe(count('SELECT count(*) AS n FROM research_passages'));
    // The changed note's vector is the embedding of its new text.
    const row = db()
      .prepare(
        "SELECT p.text AS text, p.section AS section, v.vector AS vector FROM research_passages p JOIN research_passage_vectors v ON v.passage = p.rowid WHERE p.note = 'fed-inflation.md'",
      )
      .get() as { text: string; section: string; vector: Buffer };
    expect(row.text).toContain('slips to March');
    const expected = embedder.inner.embedOne(`${row.section}\n${row.text}`);
    expect(Buffer.from(expected.buffer).equals(row.vector)).toBe(true);
  });

  it('an embedder that is down: notes are still indexed and found by keyword (search says so), and are embedded by a later search once it recovers', async () => {
    embedder.failing = true;
    const down = await index.search({ scope: 'research', query: 'receiving 5y swaps', maxResults: 3 });
    expect(down.results[0]?.passage?.citation).toBe('[rates-strategy.pdf p.2]');
    expect(down.degraded).toMatch(/keywords only/);
    expect(count('SELECT count(*) AS n FROM research_passages')).toBeGreaterThanOrEqual(4);
    expect(count('SELECT count(*) AS n FROM research_passage_vectors')).toBe(0);
    const waiting = index.status();
    expect(waiting.passagesIndexed).toBe(0);
    expect(waiting.stale).toBe(true);
    expect(research().health()).toMatchObject({ state: 'ok', detail: expect.stringMatching(/passages wait to be embedded \(embedding provider unavailable/) });

    embedder.failing = false;
    clock += 2 * 60_000; // past the pause after a failure
    const back = await index.search({ scope: 'research', query: 'inflationary', maxResults: 3 });
    expect(back.degraded).toBeNull();
    expect(back.results[0]?.path).toBe('/research/fed-inflation.md');
    expect(count('SELECT count(*) AS n FROM research_passage_vectors')).toBe(count('SELECT count(*) AS n FROM research_passages'));
    expect(index.status().passagesIndexed).toBe(index.status().passages);
  });

  it('reindex with a new embedder re-embeds the passages too, counted in its progress', async () => {
    await index.search({ scope: 'research', query: 'inflation' });
    const passages = count('SELECT count(*) AS n FROM research_passages');
    index.useEmbedder(new HashNgramEmbedder(256));
    expect(index.status()).toMatchObject({ stale: true, passages, passagesIndexed: 0 });

    const progress: ReindexProgress[] = [];
    const done = await index.reindex((p) => progress.push(p));
    expect(done).toMatchObject({ embedder: 'hash-ngram-256', passages, done: done.total });
    expect(progress.at(-1)).toMatchObject({ done: done.total, total: done.total, passages });
    expect(count("SELECT count(*) AS n FROM research_passage_vectors WHERE embedder = 'hash-ngram-256'")).toBe(passages);
    expect(index.status()).toMatchObject({ stale: false, passages, passagesIndexed: passages });
    const hit = await index.search({ scope: 'research', query: 'inflationary', maxResults: 1 });
    expect(hit.results[0]?.vector).toBeGreaterThan(0);
  });
});
