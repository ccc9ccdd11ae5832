/**
 * The desk's books: the limits risk sets on each book, and the halts risk puts on a PM.
 *
 * Decisions:
 * - One row of limits per book (the four GuardrailLimits fields, who set them and when). A PM book's
 *   limits bound that PM's live Expressions; the desk book's (`desk`) bound the sum of every book.
 *   Each change is also an audit_log row (operation `set_limits`), so the history of who moved a
 *   limit is kept where every other change is, append-only.
 * - A book with no row has no limits, and nothing in it can be approved (books.ts): a desk that
 *   forgot to configure risk fails closed instead of trading under a one-PM default.
 * - Halts are kept, not deleted: a resume stamps the row (who, when, why), so the desk can show
 *   when a PM was stopped and by whom. At most one open halt per PM (the partial unique index).
 */
export const BOOKS_SCHEMA: readonly string[] = [
  `CREATE TABLE desk_book_limits (
    book_id text PRIMARY KEY REFERENCES desk_books (book_id),
    max_single_risk double precision NOT NULL CHECK (max_single_risk > 0),
    max_gross double precision NOT NULL CHECK (max_gross > 0),
    max_duration double precision NOT NULL CHECK (max_duration > 0),
    max_factor_concentration double precision NOT NULL CHECK (max_factor_concentration > 0 AND max_factor_concentration <= 100),
    set_by text NOT NULL REFERENCES desk_users (user_id),
    set_at timestamptz NOT NULL DEFAULT now()
  )`,
  `CREATE TABLE desk_halts (
    halt_id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    pm_id text NOT NULL REFERENCES desk_users (user_id),
    halted_by text NOT NULL REFERENCES desk_users (user_id),
    halted_at timestamptz NOT NULL DEFAULT now(),
    reason text NOT NULL CHECK (length(reason) BETWEEN 1 AND 500),
    resumed_by text REFERENCES desk_users (user_id),
    resumed_at timestamptz,
    resume_reason text CHECK (resume_reason IS NULL OR length(resume_reason) BETWEEN 1 AND 500),
    CHECK ((resumed_at IS NULL) = (resumed_by IS NULL))
  )`,
  'CREATE UNIQUE INDEX desk_halts_one_open ON desk_halts (pm_id) WHERE resumed_at IS NULL',
];
