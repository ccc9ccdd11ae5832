import { errorCodes, type ErrorCode } from '../api/envelope';

/**
 * An infrastructure fault the app understands: a string `code` (checked across boundaries, never
 * `instanceof`), a message a PM can act on, and optional details (zod issue paths, the line of a
 * malformed record, the column of a bad query).
 */
export class AppError extends Error {
  readonly code: ErrorCode;
  readonly issues?: { path: (string | number)[]; message: string }[];

  constructor(code: ErrorCode, message: string, options?: { cause?: unknown; issues?: AppError['issues'] }) {
    super(message, options?.cause !== undefined ? { cause: options.cause } : undefined);
    this.name = 'AppError';
    this.code = code;
    if (options?.issues) this.issues = options.issues;
  }
}

export class InvalidInputError extends AppError {
  constructor(message: string, issues?: AppError['issues']) {
    super('invalid_input', message, { issues });
    this.name = 'InvalidInputError';
  }
}

export class NotFoundError extends AppError {
  constructor(message: string) {
    super('not_found', message);
    this.name = 'NotFoundError';
  }
}

export class ConflictError extends AppError {
  constructor(message: string) {
    super('conflict', message);
    this.name = 'ConflictError';
  }
}

/** Not a bad input but a writer without the right: the message names who may do it instead. */
export class ForbiddenError extends AppError {
  constructor(message: string) {
    super('forbidden', message);
    this.name = 'ForbiddenError';
  }
}

const knownCodes: ReadonlySet<string> = new Set(errorCodes);

/**
 * Ours, or shaped like ours with one of the API's codes. A Node or SQLite error also carries a
 * string `code` (`SQLITE_IOERR`, `EACCES`): it must not pass as a typed error and leak its raw
 * code into the envelope; it stays an unexpected fault and is reported as `internal`.
 */
export function isAppError(e: unknown): e is AppError {
  return e instanceof Error && typeof (e as AppError).code === 'string' && knownCodes.has((e as AppError).code);
}
