import { AppError, ConflictError, InvalidInputError, NotFoundError } from '../../common/errors';

/**
 * What can stop `forge migrate --to postgres://…`, each a typed error whose message a PM can act on.
 * None of them carries the URL's password: messages name the target by maskPassword(url).
 */

/** Not a postgres:// URL, or one without a host. */
export class PostgresUrlError extends InvalidInputError {
  constructor(message: string) {
    super(message);
    this.name = 'PostgresUrlError';
  }
}

/** No connection: nothing listens there, the name does not resolve, or it did not answer in time. */
export class PostgresUnreachableError extends AppError {
  constructor(message: string, cause?: unknown) {
    super('unavailable', message, { cause });
    this.name = 'PostgresUnreachableError';
  }
}

/** The server refused the user or password (or the database does not exist). */
export class PostgresAuthError extends AppError {
  constructor(message: string, cause?: unknown) {
    super('forbidden', message, { cause });
    this.name = 'PostgresAuthError';
  }
}

/** The target already holds a Forge workspace: a migration never merges into or overwrites one. */
export class PostgresTargetNotEmptyError extends ConflictError {
  constructor(message: string) {
    super(message);
    this.name = 'PostgresTargetNotEmptyError';
  }
}

/** The SQLite workspace is not at the schema this Forge moves (older, newer, or a table we do not know). */
export class MigrationSourceError extends ConflictError {
  constructor(message: string) {
    super(message);
    this.name = 'MigrationSourceError';
  }
}

/** A row PostgreSQL cannot hold as it is (text with a NUL character) or refused (a broken foreign key). */
export class MigrationRowError extends AppError {
  constructor(
    readonly table: string,
    readonly key: string,
    message: string,
    cause?: unknown,
  ) {
    super('conflict', message, { cause });
    this.name = 'MigrationRowError';
  }
}

/** A row read back from PostgreSQL differs from the SQLite row it was copied from: everything was rolled back. */
export class MigrationVerificationError extends AppError {
  constructor(
    readonly table: string,
    readonly key: string,
    message: string,
  ) {
    super('internal', message);
    this.name = 'MigrationVerificationError';
  }
}

/** The server answered but has no database of that name. */
export class PostgresTargetMissingError extends NotFoundError {
  constructor(message: string) {
    super(message);
    this.name = 'PostgresTargetMissingError';
  }
}

/** The migration stopped on something else (the connection dropped mid-copy, a statement was refused); rolled back. */
export class MigrationFailedError extends AppError {
  constructor(message: string, cause?: unknown) {
    super('unavailable', message, { cause });
    this.name = 'MigrationFailedError';
  }
}
