import { AppError, ConflictError } from '../../common/errors';

/**
 * What can stop a pull of a desk's PostgreSQL database into a new SQLite workspace (pull.ts). Each
 * names the source by its masked URL (password "***") and says that nothing was written.
 */

/** The database holds no Forge workspace (no forge_schema, or some of Forge's tables are missing). */
export class PostgresNoWorkspaceError extends ConflictError {
  constructor(message: string) {
    super(message);
    this.name = 'PostgresNoWorkspaceError';
  }
}

/** The desk's database is at another schema version than this Forge reads. */
export class PostgresSchemaVersionError extends ConflictError {
  constructor(
    readonly found: number,
    readonly expected: number,
    message: string,
  ) {
    super(message);
    this.name = 'PostgresSchemaVersionError';
  }
}

/** The workspace file asked for already exists: a pull never overwrites one. */
export class PullTargetExistsError extends ConflictError {
  constructor(message: string) {
    super(message);
    this.name = 'PullTargetExistsError';
  }
}

/** A row of the new SQLite file differs from the PostgreSQL row it was copied from: no file was left. */
export class PullVerificationError extends AppError {
  constructor(
    readonly table: string,
    readonly key: string,
    message: string,
  ) {
    super('internal', message);
    this.name = 'PullVerificationError';
  }
}

/** The pull stopped on something else (the connection dropped, a row SQLite refused); no file was left. */
export class PullFailedError extends AppError {
  constructor(message: string, cause?: unknown) {
    super('unavailable', message, { cause });
    this.name = 'PullFailedError';
  }
}
