export { AppError, InvalidInputError, NotFoundError, ConflictError, isAppError } from './errors';
export { writeFileAtomic } from './atomic-file';
export { packageRoot } from './package-root';
export { createPrivateFile, ensurePrivateDir, makePrivate, securePrivateFolder } from './private-files';
export { withFileLock } from './file-lock';
export type { FileLockOptions } from './file-lock';
export { isLoopbackHostHeader, loopbackOriginAllowed } from './loopback';
export { readCsv } from './csv';
export type { CsvRead, CsvRecord } from './csv';
