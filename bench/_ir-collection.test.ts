import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import {
  cranfieldGain,
  loadIrCollection,
  ndcgAt,
  parseBeirQrels,
  parseCranfieldDocs,
  parseCranfieldQrels,
  parseCranfieldQueries,
  recallAt,
} from './_ir-collection';

// A few lines in the collections' own layouts (CRLF, as the Cranfield files ship).
const CRAN_DOCS = [
  '.I 1',
  '.T',
  'experimental investigation of the aerodynamics of a',
  'wing in a slipstream .',
  '.A',
  'brenckman,m.',
  '.B',
  'j. ae. scs. 25, 1958, 324.',
  '.W',
  'experimental investigation of the aerodynamics of a',
  'wing in a slipstream .',
  '  an experimental study of a wing in a propeller slipstream .',
  '.I 2',
  '.T',
  'simple shear flow past a flat plate .',
  '.W',
  'simple shear flow past a flat plate .',
].join('\r\n');
const CRAN_QUERIES = [
  '.I 001',
  '.W',
  'what similarity laws must be obeyed',
  'for aeroelastic models .',
  '.I 004',
  '.W',
  'what problems of heat conduction .',
].join('\r\n');
const CRAN_QRELS = ['1 2 1 ', '1 1 4', '2 1 -1', ''].join('\r\n');

describe('Cranfield files', () => {
  it('reads title and abstract, not author or bibliography, so the bench searches the text the judges read', () => {
    const docs = parseCranfieldDocs(CRAN_DOCS);
    expect(docs.map((d) => d.id)).toEqual(['1', '2']);
    expect(docs[0].title).toBe('experimental investigation of the aerodynamics of a wing in a slipstream .');
    expect(docs[0].text).toBe(
      'experimental investigation of the aerodynamics of a wing in a slipstream . an experimental study of a wing in a propeller slipstream .',
    );
    expect(docs[0].text).not.toContain('brenckman');
  });

  it('numbers queries by position, as cranqrel does, so query .I 004 is judged as query 2', () => {
    expect(parseCranfieldQueries(CRAN_QUERIES)).toEqual([
      { id: '1', text: 'what similarity laws must be obeyed for aeroelastic models .' },
      { id: '2', text: 'what problems of heat conduction .' },
    ]);
  });

  it('maps code 1 (complete answer) to the highest gain and drops −1 (no interest), so nDCG rewards the right documents', () => {
    expect([1, 2, 3, 4, 5, -1].map(cranfieldGain)).toEqual([4, 3, 2, 1, 0, 0]);
    const qrels = parseCranfieldQrels(CRAN_QRELS);
    expect(qrels.get('1')).toEqual({ '2': 4, '1': 1 });
    expect(qrels.has('2')).toBe(false);
  });

  it('refuses a qrels line that is not three numbers, naming the line, instead of judging against garbage', () => {
    expect(() => parseCranfieldQrels('1 2 1\n1 two 3\n')).toThrow(/line 2 .*three numbers/);
  });
});

describe('BEIR qrels', () => {
  it('skips the header and zero scores and keeps graded scores as gains', () => {
    const qrels = parseBeirQrels('query-id\tcorpus-id\tscore\nPLAIN-1\tMED-10\t2\nPLAIN-1\tMED-11\t1\nPLAIN-1\tMED-12\t0\n');
    expect(qrels.get('PLAIN-1')).toEqual({ 'MED-10': 2, 'MED-11': 1 });
  });
  it('refuses a line without tabs rather than silently judging nothing', () => {
    expect(() => parseBeirQrels('q1 d1 1\n')).toThrow(/line 1/);
  });
});

describe('loading a collection folder', () => {
  let dir = '';
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('loads a Cranfield folder and keeps only queries someone judged relevant documents for', () => {
    dir = mkdtempSync(join(tmpdir(), 'forge-ir-'));
    writeFileSync(join(dir, 'cran.all.1400'), CRAN_DOCS);
    writeFileSync(join(dir, 'cran.qry'), CRAN_QUERIES);
    writeFileSync(join(dir, 'cranqrel'), CRAN_QRELS);
    const c = loadIrCollection(dir);
    expect(c.name).toBe('Cranfield 1400');
    expect(c.docs).toHaveLength(2);
    expect(c.queries.map((q) => q.id)).toEqual(['1']);
  });

  it('loads a BEIR folder', () => {
    dir = mkdtempSync(join(tmpdir(), 'forge-ir-'));
    mkdirSync(join(dir, 'qrels'));
    writeFileSync(join(dir, 'corpus.jsonl'), '{"_id":"d1","title":"Statins","text":"statins lower LDL"}\n{"_id":"d2","title":"","text":"vitamin D"}\n');
    writeFileSync(join(dir, 'queries.jsonl'), '{"_id":"q1","text":"cholesterol drugs"}\n{"_id":"q2","text":"sunlight"}\n');
    writeFileSync(join(dir, 'qrels', 'test.tsv'), 'query-id\tcorpus-id\tscore\nq1\td1\t2\n');
    const c = loadIrCollection(dir);
    expect(c.docs[0]).toEqual({ id: 'd1', title: 'Statins', text: 'statins lower LDL' });
    expect(c.queries).toEqual([{ id: 'q1', text: 'cholesterol drugs' }]);
  });

  it('says which files it expected when the folder is neither layout', () => {
    dir = mkdtempSync(join(tmpdir(), 'forge-ir-'));
    expect(() => loadIrCollection(dir)).toThrow(/cran\.all\.1400.*corpus\.jsonl/);
  });

  it('refuses qrels that name documents missing from the corpus (a truncated download)', () => {
    dir = mkdtempSync(join(tmpdir(), 'forge-ir-'));
    writeFileSync(join(dir, 'cran.all.1400'), CRAN_DOCS);
    writeFileSync(join(dir, 'cran.qry'), CRAN_QUERIES);
    writeFileSync(join(dir, 'cranqrel'), '1 9 1\n');
    expect(() => loadIrCollection(dir)).toThrow(/missing from the corpus \(e\.g\. 9\)/);
  });
});

describe('metrics', () => {
  it('nDCG@10 is 1 for the ideal order and lower when the best document is ranked second', () => {
    const rel = { a: 3, b: 1 };
    expect(ndcgAt(['a', 'b'], rel, 10)).toBeCloseTo(1, 10);
    // (1 + 7/log2 3) / (7 + 1/log2 3)
    expect(ndcgAt(['b', 'a'], rel, 10)).toBeCloseTo((1 + 7 / Math.log2(3)) / (7 + 1 / Math.log2(3)), 10);
  });
  it('recall@k counts only documents at or above the gain threshold', () => {
    expect(recallAt(['a', 'x'], { a: 3, b: 2, c: 1 }, 20, 2)).toBe(0.5);
    expect(recallAt(['c'], { a: 3, b: 2, c: 1 }, 20, 1)).toBeCloseTo(1 / 3, 10);
  });
});
