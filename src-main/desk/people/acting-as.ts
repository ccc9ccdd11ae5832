import type { PostgresConnection, TransactionOptions } from '../../store/postgres/connection';

/**
 * Runs `fn` in a transaction bound to one person: `forge.user_id` is set for that transaction only,
 * so row-level security shows them their own rows (and an admin everyone's). Inside an outer
 * transaction it is a savepoint, and the outer binding is put back afterwards; a failure rolls the
 * binding back with the savepoint.
 */
export function actingAs<T>(connection: PostgresConnection, userId: string, fn: () => T, options: TransactionOptions = {}): T {
  const nested = connection.inTransaction;
  return connection.transaction(() => {
    const previous = nested ? (connection.one<{ v: string | null }>("SELECT current_setting('forge.user_id', true) AS v")?.v ?? '') : '';
    bindSetting(connection, 'forge.user_id', userId);
    const result = fn();
    if (nested) bindSetting(connection, 'forge.user_id', previous);
    return result;
  }, options);
}

/** Sets a transaction-local setting (gone at COMMIT or ROLLBACK). */
export function bindSetting(connection: PostgresConnection, name: 'forge.user_id' | 'forge.token_hash', value: string): void {
  connection.query('SELECT set_config($1, $2, true)', [name, value]);
}
