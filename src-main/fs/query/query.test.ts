import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { InvalidInputError } from '../../common/errors';
import { Store } from '../../store';
import { compileQuery } from './compile';
import { parseQuery } from './parse';

describe('query parser', () => {
  it('reads the seed example into typed terms', () => {
    const ast = parseQuery('status:active confidence>=0.6 since:2026-01-01 consumer "rate cuts"');
    expect(ast.terms).toEqual([
      { kind: 'eq', key: 'status', value: 'active', column: 1 },
      { kind: 'cmp', key: 'confidence', op: '>=', value: 0.6, column: 15 },
      { kind: 'since', date: '2026-01-01', column: 31 },
      { kind: 'text', text: 'consumer', phrase: false, column: 48 },
      { kind: 'text', text: 'rate cuts', phrase: true, column: 57 },
    ]);
  });

  it('supports skill:, quoted values and date comparisons', () => {
    expect(parseQuery('skill:view-validation').terms[0]).toMatchObject({ kind: 'skill', name: 'view-validation' });
    expect(parseQuery('scope:"US rates"').terms[0]).toMatchObject({ kind: 'eq', key: 'scope', value: 'US rates' });
    expect(parseQuery('created<=2026-06-30').terms[0]).toMatchObject({ kind: 'cmp', op: '<=', value: '2026-06-30' });
  });

  it('says at which column a query is wrong, so the PM can fix it', () => {
    expect(() => parseQuery('status:active confidence>=high')).toThrow(/column 27.*"high" is not a number/);
    expect(() => parseQuery('consumer "rate cuts')).toThrow(/column 10.*never closed/);
    expect(() => parseQuery('since:2026-13-01')).toThrow(/column 7.*not a date/);
    expect(() => parseQuery('status:')).toThrow(/column 8.*no value/);
    expect(() => parseQuery('!!!')).toThrow(InvalidInputError);
  });

  it('reads since: as a day, a month or a year, a month or year meaning its first day', () => {
    expect(parseQuery('since:2026-03').terms).toEqual([{ kind: 'since', date: '2026-03-01', column: 1 }]);
    expect(parseQuery('since:2026').terms).toEqual([{ kind: 'since', date: '2026-01-01', column: 1 }]);
    expect(parseQuery('status:active since:2025-12').terms[1]).toEqual({ kind: 'since', date: '2025-12-01', column: 15 });
    expect(parseQuery('since:2026-02-28').terms[0]).toMatchObject({ date: '2026-02-28' });
  });

  it('refuses a since: that is not a day, month or year, naming the token the PM typed', () => {
    const errorOf = (q: string) => {
      try {
        parseQuery(q);
      } catch (e) {
        return e as InvalidInputError;
      }
      throw new Error(`"${q}" was accepted`);
    };
    for (const [q, token, column] of [
      ['since:2026-13', 'since:2026-13', 7],
      ['since:20261', 'since:20261', 7],
      ['rates since:2026-02-30', 'since:2026-02-30', 13],
      ['since:26', 'since:26', 7],
      ['since:2026-1', 'since:2026-1', 7],
    ] as const) {
      const e = errorOf(q);
      expect(e).toBeInstanceOf(InvalidInputError);
      expect(e.code).toBe('invalid_input');
      expect(e.message).toContain(`"${token}" is not a date`);
      expect(e.message).toContain(`column ${column}`);
      expect(e.issues).toEqual([{ path: ['query', column], message: `"${token}" is not a date` }]);
    }
  });

  it('compiles to SQL with every value bound as a parameter (nothing pasted into the SQL text)', () => {
    const f = compileQuery(parseQuery(`status:active scope:"x'; DROP TABLE memory_records; --" owner:pm evil'word`));
    expect(f.where).not.toContain('DROP');
    expect(f.where).not.toContain('evil');
    expect(f.params).toContain("x'; DROP TABLE memory_records; --");
    expect(f.params).toContain('"evil\'word"');
  });
});

describe('queries against a real store', () => {
  let store: Store;
  beforeAll(() => {
    store = Store.open(':memory:');
    const ins = (id: string, status: string, confidence: number, updated: string, header: object, body: string) =>
      store.records.upsert({
        category: 'views',
        id,
        title: `title ${id}`,
        status,
        confidence,
        weight: null,
        scope: 'US rates',
        view_id: null,
        meta: '',
        updated_at: updated,
        header: JSON.stringify(header),
        body,
        content_hash: id,
      });
    ins('V-001', 'active', 0.7, '2026-03-01T00:00:00.000Z', { status: 'active', expressions: ['E-001', 'E-002'] }, 'consumer spending slows');
    ins('V-002', 'active', 0.5, '2026-03-01T00:00:00.000Z', { status: 'active' }, 'consumer spending slows');
    ins('V-003', 'active', 0.8, '2025-12-01T00:00:00.000Z', { status: 'active' }, 'consumer demand');
    ins('V-004', 'invalidated', 0.9, '2026-04-01T00:00:00.000Z', { status: 'invalidated', skills: ['rv-analysis'] }, 'consumers rebound');
    ins('V-005', 'active', 0.9, '2026-04-01T00:00:00.000Z', { status: 'active', skill: 'rv-analysis', horizon_days: 90 }, 'rate cuts arrive early');
  });
  afterAll(() => store.close());
  const ids = (q: string) =>
    store.records
      .list('views', compileQuery(parseQuery(q)), 50, 0)
      .rows.map((r) => r.id)
      .sort();

  it('filters by status, confidence, date and keyword together, as the analyst asks', () => {
    expect(ids('status:active confidence>=0.6 since:2026-01-01 consumer')).toEqual(['V-001']);
  });
  it('matches word forms (consumer finds consumers) and exact phrases', () => {
    expect(ids('consumer')).toEqual(['V-001', 'V-002', 'V-003', 'V-004']);
    expect(ids('"rate cuts"')).toEqual(['V-005']);
    expect(ids('"cuts rate"')).toEqual([]);
  });
  it('since:YYYY-MM and since:YYYY select from the first day of that month or year', () => {
    expect(ids('since:2026-03')).toEqual(['V-001', 'V-002', 'V-004', 'V-005']);
    expect(ids('since:2026-04')).toEqual(['V-004', 'V-005']);
    expect(ids('since:2026')).toEqual(['V-001', 'V-002', 'V-004', 'V-005']);
    expect(ids('since:2025')).toEqual(['V-001', 'V-002', 'V-003', 'V-004', 'V-005']);
  });
  it('finds list members (a View linked to E-002) and PK skills in skill or skills', () => {
    expect(ids('expressions:E-002')).toEqual(['V-001']);
    expect(ids('skill:rv-analysis')).toEqual(['V-004', 'V-005']);
    expect(ids('horizon_days>=60')).toEqual(['V-005']);
    expect(ids('STATUS:Active confidence<0.6')).toEqual(['V-002']);
  });
});

describe('query parser fuzz', () => {
  it('never throws anything but InvalidInputError, and what parses also compiles and runs (10,000 cases)', () => {
    const store = Store.open(':memory:');
    const pieces = fc.constantFrom(
      'status:',
      'confidence>=',
      'since:',
      'skill:',
      '"',
      ' ',
      'x',
      '0.5',
      '2026-01-01',
      ':',
      '>=',
      '<',
      'é',
      '*',
      '(',
      'OR',
      'NEAR',
      '-',
      "'",
      '\\',
    );
    const arb = fc.oneof(
      fc.string({ maxLength: 60 }),
      fc.array(pieces, { maxLength: 12 }).map((a) => a.join('')),
    );
    fc.assert(
      fc.property(arb, (q) => {
        let filter: ReturnType<typeof compileQuery>;
        try {
          filter = compileQuery(parseQuery(q));
        } catch (e) {
          expect(e).toBeInstanceOf(InvalidInputError);
          return;
        }
        store.records.list('views', filter, 5, 0);
      }),
      { numRuns: 10_000 },
    );
    store.close();
  });
});
