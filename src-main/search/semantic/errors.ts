import { AppError } from '../../common/errors';

/** A model download that failed: network, server reply, or the user cancelled it. */
export class ModelDownloadError extends AppError {
  readonly reason: 'network' | 'http' | 'cancelled' | 'unpinned';
  constructor(message: string, reason: ModelDownloadError['reason'], options?: { cause?: unknown }) {
    super(reason === 'cancelled' ? 'cancelled' : 'unavailable', message, options);
    this.name = 'ModelDownloadError';
    this.reason = reason;
  }
}

/** A downloaded file whose SHA-256 is not the pinned one: it is deleted, never used. */
export class ModelChecksumError extends AppError {
  readonly file: string;
  constructor(file: string, expected: string, actual: string) {
    super(
      'invalid_input',
      `The model file ${file} is corrupted (SHA-256 ${actual.slice(0, 12)}…, expected ${expected.slice(0, 12)}…); it was deleted — download again.`,
    );
    this.name = 'ModelChecksumError';
    this.file = file;
  }
}

/** A model folder that lacks the files a sentence-embedding model needs. */
export class ModelFolderError extends AppError {
  readonly missing: string[];
  constructor(folder: string, missing: string[]) {
    super('invalid_input', `${folder} is not a model folder: missing ${missing.join(', ')}.`);
    this.name = 'ModelFolderError';
    this.missing = missing;
  }
}
