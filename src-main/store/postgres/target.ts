import type pg from 'pg';
import { PostgresAuthError, PostgresTargetMissingError, PostgresUnreachableError, PostgresUrlError } from './errors';

/**
 * The target database of a migration, given as a postgres:// URL. Everything said about it (progress,
 * errors, logs) uses `masked`, where the password reads "***": a URL pasted on a command line ends
 * up in terminal scroll-back and CI logs, and its password must not.
 */
export interface PostgresTarget {
  url: string;
  masked: string;
  password: string;
  database: string;
}

const SHAPE = 'postgres://user[:password]@host[:port]/database';

export function parseTarget(url: string): PostgresTarget {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    // The input is not echoed: it may hold a password in a form we could not parse to mask.
    throw new PostgresUrlError(`The target is not a PostgreSQL URL; give ${SHAPE}.`);
  }
  if (u.protocol !== 'postgres:' && u.protocol !== 'postgresql:') {
    throw new PostgresUrlError(`The target must be a PostgreSQL URL (${SHAPE}), not a ${u.protocol.replace(/:$/, '')}: URL.`);
  }
  const password = decodeURIComponent(u.password);
  const masked = new URL(url);
  if (masked.password) masked.password = '***';
  if (!u.hostname) throw new PostgresUrlError(`The PostgreSQL URL ${masked.toString()} names no host; give ${SHAPE}.`);
  const database = decodeURIComponent(u.pathname.replace(/^\//, '')) || decodeURIComponent(u.username) || 'postgres';
  return { url, masked: masked.toString(), password, database };
}

/** Removes the password from any text about the target (a driver message could quote the URL). */
export function scrub(target: PostgresTarget, text: string): string {
  if (!target.password) return text;
  return text.split(target.password).join('***').split(encodeURIComponent(target.password)).join('***');
}

/** A failed connection as the typed error a PM can act on; the raw driver error is kept as cause without the password. */
export function connectionError(target: PostgresTarget, e: unknown): Error {
  const err = e as NodeJS.ErrnoException & { code?: string };
  const detail = scrub(target, err?.message ?? String(e));
  const cause = new Error(detail);
  switch (err?.code) {
    case '28P01':
    case '28000':
      return new PostgresAuthError(`PostgreSQL at ${target.masked} refused the sign-in: ${detail}. Check the user and password; nothing was written.`, cause);
    case '3D000':
      return new PostgresTargetMissingError(
        `PostgreSQL at ${target.masked} has no database "${target.database}": create it first (createdb ${target.database}); nothing was written.`,
      );
    default:
      return new PostgresUnreachableError(
        `Could not connect to PostgreSQL at ${target.masked}: ${detail}. Is the server running and the host and port right? Nothing was written.`,
        cause,
      );
  }
}

/** A client that reads bigint as BigInt (exact; pg's default is a string) for the row comparison. */
export function clientConfig(target: PostgresTarget, pgTypes: typeof pg.types): pg.ClientConfig {
  return {
    connectionString: target.url,
    // A host that never answers fails in seconds, not at the OS's TCP timeout of minutes (a refused port fails at once).
    connectionTimeoutMillis: 10_000,
    types: {
      getTypeParser: ((oid: number, format?: string) =>
        oid === pgTypes.builtins.INT8 ? (v: string) => BigInt(v) : pgTypes.getTypeParser(oid, format as 'text')) as pg.CustomTypesConfig['getTypeParser'],
    },
  };
}
