import { AppError } from '../../common/errors';

/**
 * Sign-in refused or a token not (or no longer) good. One class and, for sign-in, one message for
 * every cause, so a caller cannot learn which user ids exist or which tokens once did.
 */
export class UnauthorizedError extends AppError {
  constructor(message: string) {
    super('unauthorized', message);
    this.name = 'UnauthorizedError';
  }
}

export const SIGN_IN_REFUSED =
  'Wrong user id or password (after 10 failed attempts in a row, sign-in is locked for 15 minutes). Check both and try again; a desk admin can set a new password.';
export const TOKEN_REFUSED = 'This sign-in is not valid any more (signed out, revoked or expired): sign in again.';
