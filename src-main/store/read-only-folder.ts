import { accessSync, constants } from 'node:fs';
import { dirname } from 'node:path';
import { AppError } from '../common/errors';

/**
 * Whether the folder holding `path` cannot be written: a read-only mount, a disk the OS remounted
 * read-only after errors, a folder of someone else's. Root is refused on a read-only mount too.
 */
export function inReadOnlyFolder(path: string): boolean {
  try {
    accessSync(dirname(path), constants.W_OK);
    return false;
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    return code === 'EROFS' || code === 'EACCES' || code === 'EPERM';
  }
}

/**
 * SQLite cannot open a WAL database in such a folder at all (it must create the -shm index beside
 * the file), and Forge must not run on a workspace it cannot save to: the PM's chats and notes would
 * be lost. What the PM reads at startup instead of "unable to open database file".
 */
export function readOnlyFolderError(path: string, cause?: unknown): AppError {
  return new AppError(
    'unavailable',
    `Forge's data folder ${dirname(path)} is read-only, so Forge cannot open this workspace: it must be able to save there. Nothing in the folder was changed. Make it writable (check its permissions, or whether the disk is mounted read-only) and start Forge again.`,
    cause === undefined ? undefined : { cause },
  );
}
