import { BOOKS_SCHEMA } from './books/schema';
import { LEASES_SCHEMA } from './leases/schema';
import { PEOPLE_SCHEMA } from './people/schema';
import { SHARING_SCHEMA } from './sharing/schema';

/**
 * The desk's own tables in PostgreSQL, beside the workspace schema (store/postgres/schema.ts): who
 * works on the desk and which books exist. Each capability of the desk adds its tables in its own
 * file and lists them in DESK_SCHEMA below, in dependency order (a table after the tables its
 * foreign keys name).
 *
 * Decisions:
 * - A person's id is a short login (`alice`, `j.smith`): it is what audit rows name, so it is
 *   readable and never reused (users are disabled, not deleted).
 * - Roles are the four a desk has (pm, risk, analyst, viewer); administering users is a separate
 *   flag, because the desk admin is often also a PM or the risk manager.
 * - Times are timestamptz, read back as the server's text (the connection never makes a Date).
 * - Every PM has one book; the desk book (`desk`) sums them all. Limits attach to books.
 */
export const DESK_CORE_SCHEMA: readonly string[] = [
  `CREATE TABLE desk_users (
    user_id text PRIMARY KEY CHECK (user_id ~ '^[a-z][a-z0-9._-]{1,39}$'),
    display_name text NOT NULL CHECK (length(display_name) BETWEEN 1 AND 120),
    role text NOT NULL CHECK (role IN ('pm', 'risk', 'analyst', 'viewer')),
    admin boolean NOT NULL DEFAULT false,
    created_at timestamptz NOT NULL DEFAULT now(),
    created_by text REFERENCES desk_users (user_id),
    disabled_at timestamptz
  )`,
  `CREATE TABLE desk_books (
    book_id text PRIMARY KEY CHECK (book_id ~ '^[a-z][a-z0-9._-]{1,39}$'),
    kind text NOT NULL CHECK (kind IN ('pm', 'desk')),
    owner_id text UNIQUE REFERENCES desk_users (user_id),
    CHECK ((kind = 'desk') = (owner_id IS NULL))
  )`,
  "CREATE UNIQUE INDEX desk_books_one_desk_book ON desk_books (kind) WHERE kind = 'desk'",
  "INSERT INTO desk_books (book_id, kind) VALUES ('desk', 'desk')",
  // Who owns each memory record on the desk (an Expression's owner is the PM whose book holds it),
  // and who may see it: private (the owner), shared (the owner and named people), desk (everyone).
  // No owner (NULL): the desk's own record, written by the server's own work (sharing/schema.ts).
  `CREATE TABLE desk_record_access (
    rid bigint PRIMARY KEY REFERENCES memory_records (rid) ON DELETE CASCADE,
    owner_id text REFERENCES desk_users (user_id),
    visibility text NOT NULL DEFAULT 'private' CHECK (visibility IN ('private', 'shared', 'desk'))
  )`,
  'CREATE INDEX desk_record_access_by_owner ON desk_record_access (owner_id)',
];

/** The desk's schema, in order. Each capability appends its own list here. */
export const DESK_SCHEMA: readonly string[] = [...DESK_CORE_SCHEMA, ...PEOPLE_SCHEMA, ...BOOKS_SCHEMA, ...LEASES_SCHEMA, ...SHARING_SCHEMA];
