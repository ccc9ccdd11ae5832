import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, describe, expect, it } from 'vitest';
import { Store } from '../../store';
import { plainRecord, seededRandom } from '../../store/testing';
import { docsizeColumns, isScalarValue, probeCodePoints } from './fts5-probe';
import { FTS5_MAX_TOKEN_BYTES, fts5TokenBytes, fts5Tokens, INVALID_UTF8_MARK, queryTerms, unicodeClass } from './tokenizer';
import { PROBED_SQLITE_VERSION } from './unicode-tables';

/** memory_fts's tokenizer (src-main/store/migrations/001_memory.ts). */
const TOKENIZE = 'porter unicode61 remove_diacritics 2';
const ROOT = join(import.meta.dirname, '..', '..', '..');
const hex = (term: string) => Buffer.from(fts5TokenBytes(term)).toString('hex').toUpperCase();

interface Mismatch {
  doc: string;
  fts5: string[];
  ours: string[];
}

/**
 * Indexes each document as one row of a real FTS5 table with memory_fts's tokenizer, then reads
 * back every token (fts5vocab 'instance': term, doc, offset) and the column size (_docsize), and
 * returns the documents where fts5Tokens disagrees (tokens compared as UTF-8 bytes, in position order).
 */
function mismatches(docs: readonly string[]): Mismatch[] {
  const db = new Database(':memory:');
  try {
    db.exec(`CREATE VIRTUAL TABLE t USING fts5(x, tokenize = '${TOKENIZE}');
             CREATE VIRTUAL TABLE v USING fts5vocab(t, 'instance');`);
    const insert = db.prepare('INSERT INTO t (rowid, x) VALUES (?, ?)');
    db.transaction(() => {
      for (const [i, doc] of docs.entries()) insert.run(i + 1, doc);
    })();
    const fts5: string[][] = docs.map(() => []);
    for (const row of db.prepare('SELECT id, sz FROM t_docsize').iterate() as Iterable<{ id: number; sz: Buffer }>) {
      // Positions the vocabulary does not list (zero-length tokens, if any) stay ''.
      fts5[row.id - 1] = new Array(docsizeColumns(row.sz)[0]).fill('');
    }
    const rows = db.prepare('SELECT doc, offset, hex(term) AS h FROM v').iterate() as Iterable<{ doc: number; offset: number; h: string }>;
    for (const row of rows) fts5[row.doc - 1][row.offset] = row.h;
    const out: Mismatch[] = [];
    docs.forEach((doc, i) => {
      const ours = fts5Tokens(doc).map(hex);
      if (ours.join(' ') !== fts5[i].join(' ') || ours.length !== fts5[i].length) out.push({ doc, fts5: fts5[i], ours });
    });
    return out;
  } finally {
    db.close();
  }
}

const pick = <T>(rand: () => number, items: readonly T[]): T => items[Math.floor(rand() * items.length)];

describe('fts5Tokens matches the bundled FTS5 token for token', () => {
  it('the Unicode tables were probed from the SQLite that ships (else every non-ASCII note may score differently)', () => {
    const db = new Database(':memory:');
    const { v } = db.prepare('SELECT sqlite_version() AS v').get() as { v: string };
    db.close();
    expect(v).toBe(PROBED_SQLITE_VERSION);
  });

  it('the committed tables agree with a fresh probe of the real FTS5 (a note with accents or non-Latin script would get other terms)', () => {
    const rand = seededRandom(31);
    const cps = new Set<number>();
    for (let cp = 0; cp < 0x800; cp++) cps.add(cp); // ASCII, Latin-1, Latin Extended, IPA, combining marks, Greek, Cyrillic, …
    for (let cp = 0x1e00; cp < 0x2000; cp++) cps.add(cp); // Latin Extended Additional, Greek Extended
    while (cps.size < 12_000) {
      const cp = Math.floor(rand() * 0x110000);
      if (isScalarValue(cp)) cps.add(cp);
    }
    for (const cp of [0xfffd, 0xfffe, 0xffff, 0x10400, 0x1d400, 0xe000, 0xf0000, 0xfffff, 0x100000, 0x10ffff]) cps.add(cp);
    const db = new Database(':memory:');
    const probes = probeCodePoints(
      db,
      [...cps].sort((a, b) => a - b),
    );
    db.close();
    const wrong = probes.filter((p) => {
      const ours = unicodeClass(p.cp);
      return ours.starts !== p.starts || ours.continues !== p.continues || (p.continues && ours.fold !== p.fold);
    });
    expect(wrong.slice(0, 5)).toEqual([]);
    // The probe itself sees what matters: accents fold away, upper case folds, combining marks are dropped.
    expect(probes.find((p) => p.cp === 0xc9)).toMatchObject({ starts: true, fold: 0x65 });
    expect(probes.find((p) => p.cp === 0x301)).toMatchObject({ starts: false, continues: true, fold: 0 });
  });

  it('every code point class: alone, inside a word, doubled, after a combining mark (a note in any script gets the terms FTS5 gives it)', () => {
    const rand = seededRandom(7);
    const cps: number[] = [];
    for (let cp = 0x80; cp < 0x530; cp++) cps.push(cp); // Latin-1 .. Cyrillic, with all the combining marks
    for (let cp = 0x1e00; cp < 0x2000; cp++) cps.push(cp);
    while (cps.length < 6_000) {
      const cp = Math.floor(rand() * 0x110000);
      if (isScalarValue(cp)) cps.push(cp);
    }
    const docs = cps.map((cp) => {
      const x = String.fromCodePoint(cp);
      return `${x} a${x}a ${x}${x}b \u0301${x} ${x}\u0301z Ab${x}ing hop${x}${x}ed ${x}sses`;
    });
    expect(mismatches(docs).slice(0, 5)).toEqual([]);
  });
});

function wordsOf(paths: string[]): string[] {
  const words = new Set<string>();
  const walk = (p: string) => {
    if (statSync(p).isDirectory()) for (const name of readdirSync(p)) walk(join(p, name));
    else if (p.endsWith('.md')) for (const w of readFileSync(p, 'utf8').split(/[\s"'`()[\]{}<>|*#,;:!?]+/u)) if (w !== '') words.add(w);
  };
  for (const p of paths) walk(join(ROOT, p));
  return [...words];
}

const SUFFIXES =
  's es ies sses ss eed ed ing y ational tional enci anci izer logi bli alli entli eli ousli ization ation ator alism iveness fulness ousness aliti iviti biliti icate ative alize iciti ical ful ness al ance ence er ic able ible ant ement ment ent sion tion ion ou ism ate iti ous ive ize e ll ated ating bled ized ying ement'.split(
    ' ',
  );
const STEMS =
  'rel cond gener hop hope fil tap sky y a ab abc tr agr feed bl iz at cr conflat troubl siz fall hiss fizz fail ion adopt irrit depend commun oscill effect caf\u00e9 na\u00efv b\u00e9b\u00e9 \u00dfe \u0436\u0436 a\u1000\u1000 \u00e9t\u00e9 \u0130st'.split(
    ' ',
  );

describe('porter on FTS5 bytes', () => {
  it('every word of the skills, docs, README and seed notes stems as FTS5 stems it (else a query word misses the notes that use it)', () => {
    const words = wordsOf(['skills', 'docs', 'README.md', 'resources/seed']);
    expect(words.length).toBeGreaterThan(3000);
    expect(mismatches(words).slice(0, 5)).toEqual([]);
  });

  it('generated suffix cases, double suffixes, and non-ASCII letters at suffix positions ("cafés", "naïveté")', () => {
    const docs: string[] = [];
    for (const stem of STEMS) {
      for (const s1 of ['', ...SUFFIXES]) {
        docs.push(stem + s1);
        for (const s2 of ['s', 'ed', 'ing', 'ness', 'ly']) docs.push(stem + s1 + s2);
      }
    }
    docs.push('cafés', 'naïveté', 'Naïvetés', 'ÉTÉS', 'façade', 'résumés', 'jalapeños', 'ångströms', 'coöperation', 'über', 'straße');
    expect(mismatches(docs).slice(0, 5)).toEqual([]);
  });

  it('every word of 1 to 4 letters over a suffix-heavy alphabet, including a 2-byte and a 3-byte letter (porter at its 3-byte floor)', () => {
    const letters = ['a', 'e', 'i', 'y', 's', 'l', 't', 'd', 'n', 'g', 'b', 'z', '\u00df', '\u1000'];
    let words = [''];
    const docs: string[] = [];
    for (let len = 1; len <= 4; len++) {
      words = words.flatMap((w) => letters.map((l) => w + l));
      docs.push(...words);
    }
    expect(mismatches(docs).slice(0, 5)).toEqual([]);
  });

  it('words of 60 to 70 bytes stem only up to 64 bytes, counted in UTF-8 (a long identifier keeps its exact term)', () => {
    const docs: string[] = [];
    for (let n = 55; n <= 72; n++) {
      for (const suffix of ['ational', 'ing', 'sses', 'ies', 'ed', 'ness']) {
        docs.push('r'.repeat(n - suffix.length) + suffix);
        docs.push(`\u0436${'r'.repeat(n - suffix.length - 2)}${suffix}`); // one 2-byte letter: same characters, one byte more
        docs.push(`\u00e9${'r'.repeat(n - suffix.length - 1)}${suffix}`); // é folds to e: one byte again
      }
    }
    expect(mismatches(docs).slice(0, 5)).toEqual([]);
  });
});

const PIECES = [
  'a',
  'B',
  'cat',
  'RUNNING',
  'nations',
  '0',
  '42',
  '3.14',
  '_',
  '__init__',
  '-',
  '--',
  '.',
  ',',
  '!',
  '?',
  "'",
  '"',
  '(',
  ')',
  '[',
  ']',
  '{',
  '}',
  '/',
  '\\',
  ':',
  ';',
  '#',
  '@',
  '$',
  '%',
  '&',
  '*',
  '+',
  '=',
  '<',
  '>',
  '~',
  '^',
  '`',
  '|',
  ' ',
  '  ',
  '\t',
  '\n',
  '\r\n',
  '\u00a0',
  '\u00ad',
  '\u200b',
  '\u200d',
  '\u2014',
  '\u2019',
  '\u201c',
  '\u2026',
  '\u20ac',
  '😀',
  '👍🏽',
  '👨‍👩‍👧',
  '🇬🇧',
  '日本',
  '語',
  '中文',
  '한국어',
  'ｶﾀｶﾅ',
  'Ａｂｃ',
  '\u0301',
  '\u0308',
  '\u0327',
  '\u20dd',
  '\u0345',
  'e\u0301',
  'क्षि',
  'العربية',
  'עברית',
  'ไทย',
  'Ελληνικά',
  'ΣΊΣΥΦΟΣ',
  'Кириллица',
  'İstanbul',
  'ı',
  'ß',
  'ẞ',
  'ǅ',
  'ﬁ',
  'Ⅳ',
  '①',
  '²',
  '½',
  '𐐀',
  '𐐨',
  '𝐀',
  '\ue000',
  '\u{f0000}',
  '\u{100000}',
  '\ud800',
  '\udc00',
  '\ufffe',
  '\uffff',
  '\ufffd',
  '\u0000',
  'Ø',
  'ø',
  'Æ',
  'œ',
  'Đ',
  'ħ',
  'ŀ',
  'ǈ',
  'ǲ',
  'µ',
  'ª',
  'º',
];

describe('random text', () => {
  it('punctuation, digits, underscores, emoji, CJK, lone surrogates and combining marks at token start and inside', () => {
    const rand = seededRandom(2026);
    const docs: string[] = [];
    for (let i = 0; i < 4_000; i++) {
      let doc = '';
      const n = 1 + Math.floor(rand() * 30);
      for (let k = 0; k < n; k++) doc += pick(rand, PIECES);
      docs.push(doc);
    }
    expect(mismatches(docs).slice(0, 5)).toEqual([]);
  });

  it('tokens longer than FTS5_MAX_TOKEN_SIZE are cut to 32768 bytes, even inside a character (a pasted blob still matches its prefix term)', () => {
    const docs = [
      'a'.repeat(FTS5_MAX_TOKEN_BYTES + 5),
      `x ${'B'.repeat(FTS5_MAX_TOKEN_BYTES)} y`,
      '\u0436'.repeat(20_000),
      `q${'\u65e5'.repeat(11_000)} tail`,
      `${'a'.repeat(FTS5_MAX_TOKEN_BYTES - 1)}\u00dfz`,
    ];
    expect(mismatches(docs)).toEqual([]);
    const cut = fts5Tokens(`q${'\u65e5'.repeat(11_000)}`)[0];
    expect(cut.startsWith(INVALID_UTF8_MARK)).toBe(true);
    expect(fts5TokenBytes(cut).length).toBe(FTS5_MAX_TOKEN_BYTES);
  });

  it('porter can cut a character in two: the term keeps its exact bytes and stays distinct', () => {
    // "a" + U+1000 (E1 80 80) + "ed": porter drops "ed", then one of the doubled 0x80 "consonants".
    const [term] = fts5Tokens('a\u1000ed');
    expect(hex(term)).toBe('61E180');
    expect(mismatches(['a\u1000ed', 'a\u1000ing', 'ba\u1000\u1000ing'])).toEqual([]);
    expect(fts5Tokens('a\u1000')).not.toEqual([term]);
  });
});

describe('memory notes', () => {
  const dir = mkdtempSync(join(tmpdir(), 'forge-tokenizer-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it("column sizes equal memory_fts's own _docsize for seed notes written through the store (else BM25's length normalisation is off for every note)", () => {
    const store = Store.open(join(dir, 'forge.db'));
    try {
      const seed = join(ROOT, 'resources', 'seed', 'memory');
      const notes: { id: string; title: string; header: string; body: string }[] = [];
      for (const category of readdirSync(seed)) {
        for (const file of readdirSync(join(seed, category))) {
          const text = readFileSync(join(seed, category, file), 'utf8');
          const [front, body = ''] = text.split('\n---\n');
          const [titleLine, ...fields] = front.split('\n');
          const header: Record<string, unknown> = { confidence: 0.7, tags: ['a', 'b'] };
          for (const f of fields) {
            const at = f.indexOf(':');
            if (at > 0) header[f.slice(0, at).trim()] = f.slice(at + 1).trim();
          }
          const id = file.replace(/\.md$/, '');
          const note = { id, title: titleLine.replace(/^#\s*/, ''), header: JSON.stringify(header), body };
          notes.push(note);
          store.records.upsert(plainRecord({ category, ...note, status: String(header.status ?? 'active') }));
        }
      }
      expect(notes.length).toBeGreaterThan(10);
      const headerText = store.db.prepare("SELECT group_concat(key || ' ' || value, ' ') AS t FROM json_each(?)");
      const sizes = store.db.prepare('SELECT d.sz FROM memory_fts_docsize d JOIN memory_records r ON r.rid = d.id WHERE r.id = ?');
      for (const note of notes) {
        const { t } = headerText.get(note.header) as { t: string };
        expect(t).toMatch(/^confidence 0\.\d+ tags \["a","b"\] /); // the JSON header as memory_fts sees it
        const ours = [fts5Tokens(`${note.id} ${note.title}`).length, fts5Tokens(t).length, fts5Tokens(note.body).length];
        const { sz } = sizes.get(note.id) as { sz: Buffer };
        expect({ id: note.id, sizes: ours }).toEqual({ id: note.id, sizes: docsizeColumns(sz) });
      }
    } finally {
      store.close();
    }
  });

  it('note-like header and body text tokenizes identically', () => {
    const docs = [
      'status active confidence 0.7 tags ["a","b"] scope US rates horizon 2027-04-30',
      'V-004 US 5s30s steepens on term premium — 25bp; 2s10s at -0.35%, EUR/USD 1.08',
      'expressions ["E-003"] source demo created_at 2026-05-01T00:00:00.000Z weight 1e-3',
      "Heavy coupon supply and a rebuilding term premium steepen 5s30s even as the front end prices cuts. Don't fade it.",
    ];
    expect(mismatches(docs)).toEqual([]);
  });
});

describe('queryTerms', () => {
  it('tokenizes each query word like a column, drops empty and repeated terms, keeps first-seen order (else a repeated word counts twice)', () => {
    expect(queryTerms(['Running', 'runs', 'CAFÉS', 'café', '--', '5s30s', 'naïveté'])).toEqual(['run', 'cafe', '5s30', 'naivet']);
    expect(queryTerms(['e-mail', 'mail'])).toEqual(['e', 'mail']);
    expect(queryTerms([])).toEqual([]);
  });
});
