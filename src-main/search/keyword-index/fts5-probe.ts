import type Database from 'better-sqlite3';

/**
 * Asks the real FTS5 how its `unicode61 remove_diacritics 2` tokenizer treats single code points,
 * so the TypeScript tables are read off SQLite itself rather than copied from its C source.
 * Used by scripts/fts5-unicode-tables.ts (to generate unicode-tables.ts) and by the tests (to check
 * the committed tables against the SQLite actually bundled).
 */
export interface CodePointProbe {
  cp: number;
  /** A token can begin at this code point (`X` alone is one token). */
  starts: boolean;
  /** The code point does not end a token it is inside of (`aXa` is one token). */
  continues: boolean;
  /** What the code point becomes inside a token: a code point, 0 when it is dropped, -1 when !continues. */
  fold: number;
}

/** Column sizes from an FTS5 `_docsize` blob (a varint per column; sizes up to 2^28, as FTS5 writes them). */
export function docsizeColumns(sz: Buffer): number[] {
  const out: number[] = [];
  let i = 0;
  while (i < sz.length) {
    // SQLite varints put the high 7-bit group first (145 is 0x81 0x11).
    let v = 0;
    for (;;) {
      const byte = sz[i++];
      v = v * 128 + (byte & 0x7f);
      if ((byte & 0x80) === 0 || i >= sz.length) break;
    }
    out.push(v);
  }
  return out;
}

/** True for the code points a JavaScript string can carry to SQLite as UTF-8 (no lone surrogates). */
export const isScalarValue = (cp: number): boolean => cp >= 0 && cp <= 0x10ffff && (cp < 0xd800 || cp > 0xdfff);

/** Probes each code point with one row: column x = `X`, column y = `aXa`. */
export function probeCodePoints(db: Database.Database, cps: readonly number[], chunk = 50_000): CodePointProbe[] {
  db.exec(`
    DROP TABLE IF EXISTS temp.cp_probe_vocab;
    DROP TABLE IF EXISTS temp.cp_probe;
    CREATE VIRTUAL TABLE temp.cp_probe USING fts5(x, y, content = '', tokenize = 'unicode61 remove_diacritics 2');
    CREATE VIRTUAL TABLE temp.cp_probe_vocab USING fts5vocab(temp, cp_probe, instance);
  `);
  const insert = db.prepare('INSERT INTO temp.cp_probe (rowid, x, y) VALUES (?, ?, ?)');
  for (let i = 0; i < cps.length; i += chunk) {
    db.transaction(() => {
      for (const cp of cps.slice(i, i + chunk)) {
        if (!isScalarValue(cp)) throw new RangeError(`not a Unicode scalar value: ${cp}`);
        const ch = String.fromCodePoint(cp);
        insert.run(cp, ch, `a${ch}a`);
      }
    })();
  }
  const sizes = new Map<number, number[]>();
  for (const row of db.prepare('SELECT id, sz FROM temp.cp_probe_docsize').iterate() as Iterable<{ id: number; sz: Buffer }>) {
    sizes.set(row.id, docsizeColumns(row.sz));
  }
  // The folded middle of every single-token `aXa`; `a` alone is the separator case and is skipped.
  const middles = new Map<number, string>();
  const xTerms = new Map<number, string>();
  const vocab = db.prepare(`SELECT term, doc, col FROM temp.cp_probe_vocab WHERE term != 'a'`);
  for (const row of vocab.iterate() as Iterable<{ term: string; doc: number; col: string }>) {
    if (row.col === 'y') middles.set(row.doc, row.term);
    else xTerms.set(row.doc, row.term);
  }
  db.exec('DROP TABLE temp.cp_probe_vocab; DROP TABLE temp.cp_probe;');

  return cps.map((cp) => {
    const [xSize = 0, ySize = 0] = sizes.get(cp) ?? [];
    const starts = xSize === 1;
    const continues = ySize === 1;
    let fold = -1;
    if (continues) {
      // `aaa` for cp = 'a' and for anything that folds to 'a' never reaches `middles`.
      const term = middles.get(cp) ?? 'aaa';
      const mid = term.slice(1, -1);
      const folded = [...mid];
      if (!term.startsWith('a') || !term.endsWith('a') || folded.length > 1) {
        throw new Error(`probe of U+${cp.toString(16)} gave an unexpected token ${JSON.stringify(term)}`);
      }
      fold = folded.length === 0 ? 0 : (folded[0].codePointAt(0) as number);
      const expectX = starts ? (fold === 0 ? '' : String.fromCodePoint(fold)) : undefined;
      const gotX = starts ? (xTerms.get(cp) ?? (fold === 0x61 ? 'a' : '')) : undefined;
      if (gotX !== expectX) {
        throw new Error(`probe of U+${cp.toString(16)}: alone it gave ${JSON.stringify(gotX)}, inside ${JSON.stringify(term)}`);
      }
    } else if (starts) {
      throw new Error(`probe of U+${cp.toString(16)}: starts a token but does not continue one`);
    } else if (ySize !== 2) {
      throw new Error(`probe of U+${cp.toString(16)}: aXa gave ${ySize} tokens`);
    }
    return { cp, starts, continues, fold };
  });
}
