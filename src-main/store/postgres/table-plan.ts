import type pg from 'pg';

/**
 * A table as PostgreSQL holds it, read from its catalogue: the copied columns (generated ones
 * excluded), which of them are text, the primary key and the identity column. `forge migrate` and
 * `forge export --from` both walk a table in key order with it.
 */
export interface TablePlan {
  table: string;
  columns: string[];
  textColumns: Set<string>;
  key: string[];
  identity: string | undefined;
}

const FETCH_ROWS = 500;

export async function readTablePlan(client: pg.Client, table: string): Promise<TablePlan> {
  const { rows: cols } = await client.query<{ column_name: string; data_type: string; is_identity: string }>(
    `SELECT column_name, data_type, is_identity FROM information_schema.columns
     WHERE table_schema = current_schema() AND table_name = $1 AND is_generated = 'NEVER' ORDER BY ordinal_position`,
    [table],
  );
  const { rows: keyRows } = await client.query<{ column_name: string }>(
    `SELECT a.attname AS column_name FROM pg_index i
     JOIN pg_attribute a ON a.attrelid = i.indrelid AND a.attnum = ANY (i.indkey)
     WHERE i.indrelid = $1::regclass AND i.indisprimary ORDER BY array_position(i.indkey, a.attnum)`,
    [table],
  );
  return {
    table,
    columns: cols.map((c) => c.column_name),
    textColumns: new Set(cols.filter((c) => c.data_type === 'text').map((c) => c.column_name)),
    key: keyRows.map((r) => r.column_name),
    identity: cols.find((c) => c.is_identity === 'YES')?.column_name,
  };
}

/** PostgreSQL's rows in SQLite's BINARY order ("C" = byte order for text), so both sides pair row by row. */
export function postgresSelect(plan: TablePlan): string {
  const order = plan.key.map((k) => (plan.textColumns.has(k) ? `"${k}" COLLATE "C"` : `"${k}"`)).join(', ');
  return `SELECT ${plan.columns.map((c) => `"${c}"`).join(', ')} FROM "${plan.table}" ORDER BY ${order}`;
}

/** Reads a query through a cursor, FETCH_ROWS at a time, so a large table never sits in memory whole. */
export async function* cursorRows(client: pg.Client, name: string, sql: string): AsyncGenerator<unknown[]> {
  await client.query(`DECLARE ${name} NO SCROLL CURSOR FOR ${sql}`);
  for (;;) {
    const { rows } = await client.query({ text: `FETCH ${FETCH_ROWS} FROM ${name}`, rowMode: 'array' });
    if (rows.length === 0) break;
    yield* rows as unknown[][];
  }
  await client.query(`CLOSE ${name}`);
}

/** A row's key as an error names it: `id="V-001", version=2` (long text cut at 80 characters). */
export function describeKey(plan: TablePlan, row: readonly unknown[]): string {
  return plan.key
    .map((k) => {
      const v = row[plan.columns.indexOf(k)];
      const text = typeof v === 'string' ? JSON.stringify(v.length > 80 ? `${v.slice(0, 80)}…` : v) : String(v);
      return `${k}=${text}`;
    })
    .join(', ');
}
