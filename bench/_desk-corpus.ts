/**
 * The desk bench's corpus, generated inside the database (no million round trips): research notes
 * as Observations O-1…O-n with a title, a header and a body drawn from a macro vocabulary, so a
 * words query matches a realistic share of them. The same rows go into SQLite for the baseline.
 */
import type Database from 'better-sqlite3';
import type { PostgresConnection } from '../src-main/store/postgres/connection';

export const VOCABULARY = [
  'inflation',
  'payrolls',
  'curve',
  'steepener',
  'duration',
  'swap',
  'spread',
  'credit',
  'dollar',
  'yen',
  'euro',
  'oil',
  'copper',
  'gold',
  'china',
  'fed',
  'ecb',
  'boj',
  'tariff',
  'housing',
  'consumer',
  'wages',
  'liquidity',
  'volatility',
  'breakeven',
  'auction',
  'deficit',
  'issuance',
  'carry',
  'momentum',
];

/**
 * Which word of the vocabulary note g draws for one slot (salt): a quadratic residue of a linear
 * mix, so the slots of a note are independent-looking and every pair of words co-occurs in ~4–5% of
 * the notes (a plain g·salt mod 30 made most pairs never meet: searches that matched nothing and
 * scanned everything). Written once here for SQLite and once in SQL below, with the same numbers.
 */
const MIX_G = 7919;
const MIX_SALT = 104729;
const MIX_P = 1000003;
export function wordIndex(g: number, salt: number): number {
  const x = (g * MIX_G + salt * MIX_SALT) % MIX_P;
  return (((x * x) % MIX_P) + salt) % VOCABULARY.length;
}

/** The words a search looks for: frequent enough to match thousands of notes at a million. */
export const QUERIES = ['inflation curve', 'oil tariff', 'yen carry', 'credit spread', 'fed wages', 'copper china'];

/** n notes into a desk's PostgreSQL workspace, visible desk-wide, owned by `owner`. */
export function seedPostgresNotes(connection: PostgresConnection, n: number, owner: string): void {
  const words = `ARRAY[${VOCABULARY.map((w) => `'${w}'`).join(',')}]`;
  const mixed = (salt: number) => `((g * ${MIX_G} + ${salt * MIX_SALT}) % ${MIX_P})`;
  const pick = (salt: number) => `(${words})[1 + ((${mixed(salt)} * ${mixed(salt)} % ${MIX_P} + ${salt}) % ${VOCABULARY.length})]`;
  // A bulk load builds the full-text index once afterwards (sorted, in maintenance memory) instead
  // of inserting a million rows' words into it one row at a time.
  const search = connection.one<{ indexdef: string }>("SELECT indexdef FROM pg_indexes WHERE indexname = 'memory_records_search'")?.indexdef;
  connection.transaction(() => {
    if (search) connection.run('DROP INDEX memory_records_search');
    connection.run(
      `INSERT INTO memory_records (category, id, title, status, meta, created_at, updated_at, header, body, content_hash)
       SELECT 'observations', 'O-' || g, 'Note ' || g || ' on ' || ${pick(3)} || ' and ' || ${pick(11)}, NULL, '',
              to_char(timestamp '2020-01-01' + g * interval '1 minute', 'YYYY-MM-DD"T"HH24:MI:SS.000"Z"'),
              to_char(timestamp '2020-01-01' + g * interval '1 minute', 'YYYY-MM-DD"T"HH24:MI:SS.000"Z"'),
              '{"source":"bench"}',
              'Desk note ' || g || ': ' || ${pick(5)} || ' ' || ${pick(13)} || ' ' || ${pick(17)} || ' ' || ${pick(19)} || ', watching ' || ${pick(23)} || '.',
              md5(g::text)
       FROM generate_series(1, $1::bigint) AS g`,
      [n],
    );
    connection.run("INSERT INTO desk_record_access (rid, owner_id, visibility) SELECT rid, $1, 'desk' FROM memory_records WHERE category = 'observations'", [
      owner,
    ]);
    connection.run("INSERT INTO id_sequences (prefix, last) VALUES ('O', $1) ON CONFLICT (prefix) DO UPDATE SET last = excluded.last", [n]);
    if (search) {
      connection.run("SET LOCAL maintenance_work_mem = '512MB'");
      connection.run(search);
    }
  });
  connection.run('ANALYZE memory_records');
}

/** The same n notes into a PM's SQLite workspace (the baseline), in one transaction. */
export function seedSqliteNotes(db: Database.Database, n: number): void {
  const pick = (g: number, salt: number) => VOCABULARY[wordIndex(g, salt)];
  const insert = db.prepare(
    `INSERT INTO memory_records (category, id, title, status, meta, created_at, updated_at, header, body, content_hash)
     VALUES ('observations', ?, ?, NULL, '', ?, ?, '{"source":"bench"}', ?, ?)`,
  );
  db.transaction(() => {
    for (let g = 1; g <= n; g++) {
      const at = new Date(Date.UTC(2020, 0, 1) + g * 60_000).toISOString();
      insert.run(
        `O-${g}`,
        `Note ${g} on ${pick(g, 3)} and ${pick(g, 11)}`,
        at,
        at,
        `Desk note ${g}: ${pick(g, 5)} ${pick(g, 13)} ${pick(g, 17)} ${pick(g, 19)}, watching ${pick(g, 23)}.`,
        String(g),
      );
    }
    db.prepare("INSERT INTO id_sequences (prefix, last) VALUES ('O', ?) ON CONFLICT (prefix) DO UPDATE SET last = excluded.last").run(n);
  })();
}
