export { AppError, InvalidInputError, NotFoundError, ConflictError, isAppError } from './errors';
export { writeFileAtomic } from './atomic-file';
export { packageRoot } from './package-root';
