import { describe, expect, it } from 'vitest';
import { translateSql } from './sqlite-dialect';

const keys = new Map([['audit_log', 'seq']]);

describe("translating the store's SQL for a desk's PostgreSQL", () => {
  it('numbers placeholders, reuses a repeated name, and leaves quoted text and casts alone', () => {
    const t = translateSql('SELECT \'?\', "@x" FROM t WHERE a = ? AND b = @name AND c = :name AND d = ?::text -- why?\n', keys);
    expect(t.text).toBe('SELECT \'?\', "@x" FROM t WHERE a = $1 AND b = $2 AND c = $2 AND d = $3::text -- why?\n');
    expect(t.params).toEqual([0, 'name', 1]);
  });

  it('spells the scalar max/min and ifnull as PostgreSQL does, but keeps the aggregates', () => {
    expect(translateSql('SELECT max(a, b), min(x), ifnull(c, 0), count(max(1, 2)) FROM t', keys).text).toBe(
      'SELECT GREATEST(a, b), min(x), coalesce(c, 0), count(GREATEST(1, 2)) FROM t',
    );
  });

  it('turns INSERT OR IGNORE into ON CONFLICT DO NOTHING, and returns the identity key a caller reads as lastInsertRowid', () => {
    expect(translateSql('INSERT OR IGNORE INTO x (a) VALUES (?)', keys).text).toBe('INSERT INTO x (a) VALUES ($1) ON CONFLICT DO NOTHING');
    const audit = translateSql('INSERT INTO audit_log (at) VALUES (@at)', keys);
    expect(audit.text).toBe('INSERT INTO audit_log (at) VALUES ($1) RETURNING seq');
    expect(audit.returnsKey).toBe('seq');
    expect(translateSql('INSERT INTO audit_log (at) VALUES (?) RETURNING at', keys).returnsKey).toBeUndefined();
  });
});

describe('optional filters', () => {
  it('turns "? IS NULL" into a boolean parameter of its own, so the value keeps the type its other use gives it', () => {
    const positional = translateSql('SELECT 1 FROM t WHERE (? IS NULL OR d <= ?)', new Map());
    expect(positional.text).toBe('SELECT 1 FROM t WHERE ($1::boolean OR d <= $2)');
    expect(positional.params).toEqual([{ isNull: 0 }, 1]);
    const named = translateSql('SELECT 1 FROM t WHERE (@before IS NULL OR seq < @before) AND @job IS NOT NULL LIMIT @limit', new Map());
    expect(named.text).toBe('SELECT 1 FROM t WHERE ($1::boolean OR seq < $2) AND NOT $3::boolean LIMIT $4');
    expect(named.params).toEqual([{ isNull: 'before' }, 'before', { isNull: 'job' }, 'limit']);
  });
});
