import pg from 'pg';
import type { z } from 'zod';
import type { deskDatabaseProbe } from '../api/desk-database';
import { PostgresAuthError, PostgresTargetMissingError, PostgresUrlError } from '../store/postgres/errors';
import { clientConfig, connectionError, parseTarget, scrub, type PostgresTarget } from '../store/postgres/target';

export type DeskDatabaseProbe = z.infer<typeof deskDatabaseProbe>;

/** What a Settings URL shows instead of the password: testing it uses the saved password. */
const MASK = '***';

/**
 * Settings → Desk database → Test connection: opens the database once, looks for a desk's tables
 * and closes the connection before answering. Every failure is an answer, not a throw, worded from
 * the typed open errors; no answer or message holds the password.
 */
export async function probeDeskDatabase(url: string, savedPassword?: string): Promise<DeskDatabaseProbe> {
  let target: PostgresTarget;
  try {
    target = parseTarget(url);
    if (target.password === MASK) {
      const u = new URL(url);
      u.password = savedPassword ? encodeURIComponent(savedPassword) : '';
      target = parseTarget(u.toString());
    }
  } catch (e) {
    // parseTarget's message never quotes an unparsable URL, so it cannot carry a password.
    const message = e instanceof PostgresUrlError ? e.message : 'The URL could not be read as postgres://user[:password]@host[:port]/database.';
    return { result: 'bad-url', isDesk: false, masked: '', message };
  }
  const answer = (result: DeskDatabaseProbe['result'], message: string): DeskDatabaseProbe => ({
    result,
    isDesk: result === 'desk',
    masked: target.masked,
    message: scrub(target, message),
  });
  const client = new pg.Client(clientConfig(target, pg.types));
  // A connection dropped while we look is a rejected query; without this it would be an unhandled 'error' event.
  client.on('error', () => undefined);
  try {
    await client.connect();
  } catch (e) {
    const err = connectionError(target, e);
    if (err instanceof PostgresAuthError) return answer('sign-in-refused', err.message);
    if (err instanceof PostgresTargetMissingError) return answer('no-database', err.message);
    return answer('unreachable', err.message);
  }
  try {
    // pg_tables lists tables the role may not read, so a desk is recognised before any grant is checked.
    const { rows } = await client.query<{ desk: boolean; workspace: boolean }>(
      `SELECT EXISTS (SELECT 1 FROM pg_catalog.pg_tables WHERE schemaname = current_schema() AND tablename = 'desk_users') AS desk,
              EXISTS (SELECT 1 FROM pg_catalog.pg_tables WHERE schemaname = current_schema() AND tablename = 'forge_schema') AS workspace`,
    );
    const found = rows[0];
    if (found?.desk) return answer('desk', `${target.masked} is a Forge desk: save it and restart Forge to work on the desk.`);
    if (found?.workspace)
      return answer('workspace', `${target.masked} holds a Forge workspace but no desk: make it one with forge desk create --db … before connecting the app.`);
    return answer(
      'empty',
      `${target.masked} holds no Forge desk: create one with forge desk create --db …, or move a workspace there with forge migrate --to ….`,
    );
  } catch (e) {
    return answer('unreachable', `PostgreSQL at ${target.masked} answered but could not be read: ${(e as Error).message}`);
  } finally {
    await client.end().catch(() => undefined);
  }
}
