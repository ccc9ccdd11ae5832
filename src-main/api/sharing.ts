import { z } from 'zod';

/**
 * Sharing a research note or View on a desk (`forge serve --db`): who may read it — its owner alone
 * (private), named people (shared) or everyone on the desk (desk-wide). Only the owner changes it;
 * row-level security makes the choice hold for every listing, read and search. On one PM's own
 * workspace there is no one to share with: each answers not_found saying sharing is for desks.
 */

/** A record's path, as memory/read takes it: /memory/<folder>/<id>.md. */
const recordPath = z
  .string()
  .max(300)
  .regex(/^\/memory\/[a-z_]+\/[A-Za-z0-9][A-Za-z0-9._-]{0,127}\.md$/, 'a record path such as /memory/views/V-001.md');
const userId = z.string().regex(/^[a-z][a-z0-9._-]{1,39}$/, 'a desk user id such as alice or j.smith');
const session = z.string().regex(/^[A-Za-z0-9_-]{32,128}$/, 'the session token desk/sign-in gave');
export const visibility = z.enum(['private', 'shared', 'desk']);
const person = z.object({ userId: z.string(), displayName: z.string() });

export const recordAccess = z.object({
  path: z.string(),
  /** null: the desk's own record (Forge wrote it on its own), desk-wide. */
  owner: person.nullable(),
  visibility,
  /** The named people it is shared with (empty unless `shared`), by user id. */
  sharedWith: z.array(person),
  /** Whether the person asking may change it (only its owner may). */
  mayChange: z.boolean(),
});
export type RecordAccessView = z.infer<typeof recordAccess>;

export const sharingProcedures = {
  /** Who can read this record: its owner, private / shared with named people / desk-wide. not_found when you may not read it. */
  'memory/access': {
    input: z.object({ path: recordPath }).strict(),
    output: recordAccess,
  },
  /**
   * The owner sets who may read a research note or View: private, shared with exactly `people`
   * (1-100 active people; others lose access), or desk-wide. forbidden for anyone but the owner.
   */
  'memory/share': {
    input: z.object({ path: recordPath, visibility, people: z.array(userId).max(100).optional() }).strict(),
    output: recordAccess,
  },
  /** The desk's active people (for the share picker): user id, display name, role. */
  'desk/people': {
    input: z.object({ session }).strict(),
    output: z.object({
      people: z.array(z.object({ userId: z.string(), displayName: z.string(), role: z.enum(['pm', 'risk', 'analyst', 'viewer']) })),
    }),
  },
} as const;
