import { mkdtempSync, rmSync, unlinkSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type Db, openDatabase } from '../../store';
import { ProviderError } from '../provider';
import { ProviderRegistry } from '../registry';
import { ResearchProvider } from './provider';
import { makePdf } from './test-pdf';

/**
 * The research provider over a real folder of broker notes (hand-written PDFs that pdf.js reads,
 * markdown with front matter, plain text) and a real SQLite index.
 */

/** Neutral filler, so a query only matches the sentences a test plants. */
const filler = (tag: string, sentences: number) =>
  Array.from({ length: sentences }, (_, i) => `Desk commentary ${tag} item ${i} covers positioning flows and liquidity across sessions.`).join(' ');

/** A PDF page as lines of about twelve words (pdf.js returns one line per text-showing operator). */
const pageLines = (text: string) => {
  const ws = text.split(' ');
  const lines: string[] = [];
  for (let i = 0; i < ws.length; i += 12) lines.push(ws.slice(i, i + 12).join(' '));
  return lines;
};

let dir: string;
let db: Db;
let research: ResearchProvider;

const write = (name: string, content: string | Buffer, mtime?: string) => {
  writeFileSync(join(dir, name), content);
  if (mtime) utimesSync(join(dir, name), new Date(`${mtime}T12:00:00Z`), new Date(`${mtime}T12:00:00Z`));
};

const ecbNote = (rates: string) =>
  [
    '---',
    'title: ECB weekly',
    'date: 2026-10-02',
    '---',
    '# ECB weekly',
    '',
    '## Rates outlook',
    '',
    `${rates} ${filler('ecb', 6)}`,
    '',
    filler('ecb2', 6),
    '',
    '## FX',
    '',
    `The euro should grind higher against the dollar into year end. ${filler('fx', 8)}`,
  ].join('\n');

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'forge-research-'));
  db = openDatabase(':memory:');
  research = new ResearchProvider({ db, dir, now: () => new Date('2026-11-21T12:00:00Z') });
  write(
    'fed-outlook.pdf',
    makePdf(
      [
        pageLines(`Fed outlook. ${filler('p1', 12)}`),
        pageLines(`Labour market cooling gradually. ${filler('p2', 12)}`),
        pageLines(`We now see the terminal rate at 3.25 percent after two more cuts in the spring. ${filler('p3', 10)}`),
      ],
      { title: 'Fed outlook', date: '2026-09-15' },
    ),
  );
  write('ecb-weekly.md', ecbNote('We expect the deposit rate to reach 1.75 percent by March as the ECB keeps cutting.'));
  write('oil-notes.txt', `Brent supply discipline from the cartel is fraying. ${filler('oil', 14)}`, '2026-08-01');
  write(
    'later.md',
    ['---', 'date: 2026-11-10', '---', `## Update`, '', `The deposit rate path is now lower: 1.50 percent by June. ${filler('later', 10)}`].join('\n'),
  );
});
afterEach(() => {
  db.close();
  rmSync(dir, { recursive: true, force: true });
});

async function fails(p: Promise<unknown>): Promise<ProviderError> {
  try {
    await p;
  } catch (e) {
    expect(e).toBeInstanceOf(ProviderError);
    return e as ProviderError;
  }
  throw new Error('expected a ProviderError');
}

const passageCount = () => (db.prepare('SELECT COUNT(*) AS n FROM research_passages').get() as { n: number }).n;

describe('research provider', () => {
  it('finds a PDF passage and cites its page, dated by the PDF, marked untrusted', async () => {
    const r = await research.fetch({ query: 'terminal rate', limit: 1 }, {});
    expect(r.untrusted).toBe(true);
    expect(r.asOf).toBe('2026-09-15');
    expect(r.formatSummary()).toMatch(
      /^1 passage from 1 broker note \(newest 2026-09-15\): \[fed-outlook\.pdf p\.3\] We now see the terminal rate at 3\.25 percent/,
    );
    const full = r.formatFull();
    expect(full).toContain('## 1. [fed-outlook.pdf p.3] Fed outlook (2026-09-15)');
    expect(full).toContain('note: broker research is outside content');
    expect(r.source).toBe(`research notes ${dir}`);
  });

  it('cites a markdown passage by its section and a text note by its part, dated by front matter and file time', async () => {
    const md = await research.fetch({ query: 'deposit rate March', limit: 1 }, {});
    expect(md.formatSummary()).toContain('[ecb-weekly.md § Rates outlook] We expect the deposit rate to reach 1.75 percent by March');
    expect(md.asOf).toBe('2026-10-02');
    const txt = await research.fetch({ query: 'Brent cartel supply' }, {});
    expect(txt.formatSummary()).toContain('[oil-notes.txt part 1] Brent supply discipline');
    expect(txt.asOf).toBe('2026-08-01');
  });

  it('ranks with bm25 and takes the newest cited note as the as-of', async () => {
    const r = await research.fetch({ query: 'deposit rate' }, {});
    const cites = [...r.formatFull().matchAll(/^## \d+\. (\[[^\]]+\])/gm)].map((m) => m[1]);
    expect(cites.slice(0, 2).sort()).toEqual(['[ecb-weekly.md § Rates outlook]', '[later.md § Update]']);
    expect(r.asOf).toBe('2026-11-10');
  });

  it("leaves out notes dated after the session's as-of date (a retrospective must not read later research)", async () => {
    const r = await research.fetch({ query: 'deposit rate' }, { asOf: '2026-10-31' });
    expect(r.formatFull()).not.toContain('later.md');
    expect(r.asOf).toBe('2026-10-02');
    expect(r.formatFull()).toContain('notes_dated_on_or_before: 2026-10-31');
    const none = await fails(research.fetch({ query: 'terminal rate' }, { asOf: '2026-09-01' }));
    expect(none.kind).toBe('not_found');
    expect(none.message).toMatch(/^No passage in the 1 research notes dated on or before 2026-09-01 matches "terminal rate"/);
  });

  it('re-indexes an edited note and leaves unchanged ones alone', async () => {
    const first = await research.fetch({ query: '"reach 1.75 percent"', note: 'ecb-weekly.md' }, {});
    expect(first.formatSummary()).toContain('[ecb-weekly.md § Rates outlook] We expect the deposit rate to reach 1.75 percent');
    const idle = await research.index.sync();
    expect(idle).toEqual({ added: [], updated: [], removed: [], skipped: [] });

    write('ecb-weekly.md', ecbNote('We now expect the zephyr scenario: the deposit rate held at 2 percent all year.'));
    utimesSync(join(dir, 'ecb-weekly.md'), new Date(), new Date(Date.now() + 10_000));
    const r = await research.fetch({ query: 'zephyr', limit: 3 }, {});
    expect(r.formatSummary()).toContain('[ecb-weekly.md § Rates outlook] We now expect the zephyr scenario');
    const old = await fails(research.fetch({ query: '"reach 1.75 percent"', note: 'ecb-weekly.md' }, {}));
    expect(old.kind).toBe('not_found');

    // Touched but unchanged: the stamp is updated, the note is not read again.
    utimesSync(join(dir, 'oil-notes.txt'), new Date(), new Date(Date.now() + 20_000));
    expect(await research.index.sync()).toEqual({ added: [], updated: [], removed: [], skipped: [] });
  });

  it('forgets a deleted note', async () => {
    await research.fetch({ query: 'Brent' }, {});
    const before = passageCount();
    unlinkSync(join(dir, 'oil-notes.txt'));
    const e = await fails(research.fetch({ query: 'Brent cartel' }, {}));
    expect(e.kind).toBe('not_found');
    expect(passageCount()).toBeLessThan(before);
    expect(db.prepare("SELECT COUNT(*) AS n FROM research_passages WHERE note = 'oil-notes.txt'").get()).toEqual({ n: 0 });
    expect(db.prepare("SELECT COUNT(*) AS n FROM research_notes WHERE note = 'oil-notes.txt'").get()).toEqual({ n: 0 });
  });

  it('skips a corrupt PDF and an encrypted one with warnings listed in the result, and still answers', async () => {
    write('broken.pdf', Buffer.from('%PDF-1.4\n1 0 obj << /Type /Catalog >> garbage without xref\n'));
    write(
      'locked.pdf',
      makePdf([pageLines(`Confidential terminal rate forecast. ${filler('lock', 10)}`)], { title: 'Locked', date: '2026-09-20', encrypt: true }),
    );
    const r = await research.fetch({ query: 'terminal rate' }, {});
    const full = r.formatFull();
    expect(full).toMatch(/^skipped: broken\.pdf — not a readable PDF \(/m);
    expect(full).toContain('skipped: locked.pdf — encrypted (password-protected) PDF');
    expect(full).not.toContain('Confidential');
    expect(r.formatSummary()).toContain('Skipped (unreadable): broken.pdf — not a readable PDF');
    expect(research.health()).toMatchObject({ state: 'ok', detail: expect.stringMatching(/; 2 skipped \(unreadable\)$/) });
    // Not retried until the file changes.
    expect((await research.index.sync()).skipped).toEqual([]);
  });

  it('restricts to one note by file name, and names an unknown one', async () => {
    const r = await research.fetch({ query: 'deposit rate', note: 'LATER.md' }, {});
    expect(r.formatFull()).not.toContain('ecb-weekly.md');
    expect(r.formatSummary()).toContain('[later.md § Update]');
    const e = await fails(research.fetch({ query: 'deposit rate', note: 'nope.pdf' }, {}));
    expect(e.message).toBe(`No research note "nope.pdf" in ${dir}.`);
  });

  it('through the registry: bad parameters are refused naming the field; a missing folder is not configured', async () => {
    const registry = new ProviderRegistry([research]);
    const empty = await fails(registry.fetch('research', { query: '' }));
    expect(empty.kind).toBe('bad_params');
    expect(empty.message).toMatch(/^params\.query: /);
    const unknown = await fails(registry.fetch('research', { q: 'ECB' }));
    expect(unknown.message).toMatch(/^params\.q: not a parameter of research/);
    const ok = await registry.fetch('research', { query: 'terminal rate', limit: 1 }, { asOf: '2026-11-20' });
    expect(ok.asOf).toBe('2026-09-15');

    const missing = new ResearchProvider({ db, dir: join(dir, 'nowhere') });
    expect(missing.health()).toEqual({
      state: 'not_configured',
      detail: `No research folder at ${join(dir, 'nowhere')}: put broker notes (PDF, markdown, text) there.`,
    });
  });

  it('ranks with the injected ranking, falls back to bm25 when it fails, and passes the as-of date and note to it', async () => {
    const asked: unknown[] = [];
    const ranked = new ResearchProvider({
      db,
      dir,
      rank: async (query, options) => {
        asked.push({ query, ...options });
        return research.index.search('Brent cartel', options);
      },
    });
    const r = await ranked.fetch({ query: 'oil producers discipline', note: 'oil-notes.txt' }, { asOf: '2026-10-31' });
    expect(r.formatSummary()).toContain('[oil-notes.txt part 1] Brent supply discipline');
    expect(asked).toEqual([{ query: 'oil producers discipline', limit: 5, asOf: '2026-10-31', notes: ['oil-notes.txt'] }]);

    // A ranking that breaks (a bug, a closed database) must not cost the analyst the passages.
    const broken = new ResearchProvider({ db, dir, rank: async () => Promise.reject(new Error('ranking failed')) });
    const fallback = await broken.fetch({ query: 'terminal rate', limit: 1 }, {});
    expect(fallback.formatSummary()).toContain('[fed-outlook.pdf p.3]');
  });
});
