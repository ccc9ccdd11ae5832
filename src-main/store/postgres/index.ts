export { migrateToPostgres } from './migrate';
export type { MigrateOptions, MigrationProgress, MigrationSummary } from './migrate';
export {
  MigrationFailedError,
  MigrationRowError,
  MigrationSourceError,
  MigrationVerificationError,
  PostgresAuthError,
  PostgresTargetMissingError,
  PostgresTargetNotEmptyError,
  PostgresUnreachableError,
  PostgresUrlError,
} from './errors';
export { POSTGRES_SCHEMA_VERSION, postgresSchema, postgresTables, SKIPPED_SQLITE_TABLES } from './schema';
export { pullFromPostgres } from './pull';
export type { PullOptions, PullProgress, PullSummary } from './pull';
export { PostgresNoWorkspaceError, PostgresSchemaVersionError, PullFailedError, PullTargetExistsError, PullVerificationError } from './pull-errors';
