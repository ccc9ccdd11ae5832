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
