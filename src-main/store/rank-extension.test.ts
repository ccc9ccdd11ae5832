import { describe, expect, it } from 'vitest';
import { openDatabase } from './open';
import { hasRankExtension, rankExtensionProblem } from './rank-extension';
import { hasCCompiler, seededRandom } from './testing';

const compiler = hasCCompiler;

describe('forge_bm25, the keyword ranking extension', () => {
  it.runIf(compiler)('is built at install and loaded into every workspace connection', () => {
    const db = openDatabase(':memory:');
    // If this fails, keyword search silently falls back to bm25(), which recounts every common word per query.
    expect(hasRankExtension(db), rankExtensionProblem() ?? '').toBe(true);
    db.close();
    const plain = openDatabase(':memory:', { withoutRankExtension: true });
    expect(hasRankExtension(plain)).toBe(false);
    plain.close();
  });

  it.runIf(compiler)('scores every row exactly as FTS5 bm25() does, for AND, OR, NOT and multi-word phrases', () => {
    const db = openDatabase(':memory:');
    db.exec('CREATE VIRTUAL TABLE t USING fts5(title, header, body)');
    const r = seededRandom(11);
    const words = ['carry', 'curve', 'zloty', 'positioning', 'crowded', 'inflation', 'copper', 'tankan'];
    const pick = () => words[Math.floor(r() * words.length)];
    const text = (n: number) => Array.from({ length: n }, pick).join(' ');
    const insert = db.prepare('INSERT INTO t(title, header, body) VALUES (?, ?, ?)');
    for (let i = 0; i < 800; i++) insert.run(text(1 + Math.floor(r() * 3)), r() < 0.5 ? text(2) : '', text(3 + Math.floor(r() * 30)));
    const rows = (db.prepare('SELECT count(*) AS n FROM t').get() as { n: number }).n;
    const idf = (phrase: string) => {
      const n = (db.prepare('SELECT count(*) AS n FROM t WHERE t MATCH ?').get(phrase) as { n: number }).n;
      const x = Math.log((rows - n + 0.5) / (n + 0.5));
      return x <= 0 ? 1e-6 : x;
    };
    const expressions: string[][] = [
      ['"carry"'],
      ['"carry"', 'AND', '"zloty"'],
      ['"carry"', 'OR', '"curve"', 'OR', '"tankan"'],
      ['(', '"copper"', 'OR', '"zloty"', ')', 'AND', '(', '"carry"', 'OR', '"curve"', ')'],
      ['(', '"copper"', 'OR', '"zloty"', ')', 'NOT', '(', '"carry"', 'OR', '"curve"', ')'],
      ['"carry curve"', 'OR', '"inflation"'],
    ];
    for (const parts of expressions) {
      const match = parts.join(' ');
      const phrases = parts.filter((p) => p.startsWith('"'));
      const weights = [3, 1, 1];
      const theirs = db.prepare('SELECT rowid AS id, bm25(t, ?, ?, ?) AS s FROM t WHERE t MATCH ? ORDER BY s, id').all(...weights, match);
      const ours = db
        .prepare(`SELECT rowid AS id, forge_bm25(t, ?, ?, ?${', ?'.repeat(phrases.length)}) AS s FROM t WHERE t MATCH ? ORDER BY s, id`)
        .all(...weights, ...phrases.map(idf), match);
      expect(theirs.length, match).toBeGreaterThan(0);
      // Bit-identical scores: a PM's keyword results must not change with the machine's compiler.
      expect(ours, match).toEqual(theirs);
    }
    db.close();
  });

  it.runIf(compiler)('refuses a call without an IDF for every phrase, saying what it expected', () => {
    const db = openDatabase(':memory:');
    db.exec("CREATE VIRTUAL TABLE t USING fts5(title, header, body); INSERT INTO t VALUES ('carry', '', 'curve')");
    expect(() => db.prepare("SELECT forge_bm25(t, 3, 1, 1, 0.5) FROM t WHERE t MATCH 'carry OR curve'").all()).toThrow(
      /expected 3 column weights and 2 phrase IDFs, got 4 values/,
    );
    db.close();
  });
});
