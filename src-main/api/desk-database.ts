import { z } from 'zod';

/**
 * Settings → Desk database: the desktop app's "connect to a desk" mode (issue 30 §1). The URL is
 * kept without its password; the password lives with the app's other secrets and never comes back
 * to the renderer — every URL this API answers with reads "***" where the password was.
 */

/** postgres://user[:password]@host[:port]/database; no spaces (a pasted line break would be kept in the URL). */
export const deskDatabaseUrlInput = z
  .string()
  .max(2000)
  .regex(/^postgres(?:ql)?:\/\/\S+$/, 'must be a PostgreSQL URL: postgres://user[:password]@host[:port]/database');

/** Where the running workspace's database came from: `forge serve --db`, $FORGE_DB, this setting, or none (the PM's own workspace). */
export const deskDatabaseSource = z.enum(['flag', 'environment', 'setting', 'none']);

export const deskDatabaseView = z.object({
  /** The saved desk database with its password masked; null when none is saved (the PM's own workspace). */
  saved: z.string().nullable(),
  /** Whether a password for it is kept in the secret store. */
  passwordSaved: z.boolean(),
  /** The database the running workspace uses (masked); null when it is the PM's own workspace on this machine. */
  running: z.string().nullable(),
  runningFrom: deskDatabaseSource,
  /** The saved setting differs from what runs: it applies at the next start (and --db or FORGE_DB override it). */
  restartNeeded: z.boolean(),
  /** Where the password is kept in this mode, in words a PM understands. */
  passwordStorage: z.string(),
  /** Why the saved desk database was not opened at this start (the PM's own workspace opened instead); null when it was, or none is saved. */
  startProblem: z.string().nullable(),
});

/** What "Test connection" found; `masked` names the database tried, never with its password. */
export const deskDatabaseProbe = z.object({
  result: z.enum(['desk', 'workspace', 'empty', 'unreachable', 'no-database', 'sign-in-refused', 'bad-url']),
  /** True only for a desk: the one result the app can connect to as a desk. */
  isDesk: z.boolean(),
  masked: z.string(),
  message: z.string(),
});

export const deskDatabaseProcedures = {
  /** The saved desk database (masked), whether its password is saved, and what the running workspace uses. */
  'settings/desk-database': { input: z.object({}).strict(), output: deskDatabaseView },
  /**
   * Saves the desk database to use from the next start; a password in the URL goes to the secret
   * store, a password of "***" keeps the saved one, an empty url clears the setting (the PM's own
   * workspace at the next start). Nothing is connected here: "Test connection" does that.
   */
  'settings/set-desk-database': { input: z.object({ url: deskDatabaseUrlInput.or(z.literal('')) }).strict(), output: deskDatabaseView },
  /**
   * Opens the URL (or, without one, the saved desk database) and says whether it is a desk, or why
   * not; the connection is closed before answering.
   */
  'settings/test-desk-database': { input: z.object({ url: deskDatabaseUrlInput.optional() }).strict(), output: deskDatabaseProbe },
} as const;
