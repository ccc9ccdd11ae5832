import { z } from 'zod';

/**
 * A desk's people and books over the API (`forge serve --db` on a database made a desk). Each call
 * but desk/status and desk/signIn names the person by the session token desk/sign-in gave: the
 * server checks it on every call (revoked or expired → unauthorized), and every check and change is
 * made as that person. The token travels in the call's input, not a header, so the same contract
 * serves HTTP, WebSocket and the desktop shell; it is never logged or echoed back.
 */

const userId = z.string().regex(/^[a-z][a-z0-9._-]{1,39}$/, 'a desk user id such as alice or j.smith');
const session = z.string().regex(/^[A-Za-z0-9_-]{32,128}$/, 'the session token desk/sign-in gave');
const expressionId = z.string().regex(/^E-\d{3,}$/, 'an Expression id such as E-004');
const bookId = z.string().regex(/^[a-z][a-z0-9._-]{1,39}$/, "a book id: a PM's user id, or desk");
const role = z.enum(['pm', 'risk', 'analyst', 'viewer']);
/** Where an API token is used, shown in the list: 1-120 characters, no control characters, not starting blank. */
const tokenLabel = z.string().regex(/^[^\s\p{Cc}][^\p{Cc}]{0,119}$/u, 'a label of 1-120 characters such as laptop IDE');
const tokenId = z.number().int().min(1).max(2_147_483_647);

/** One of a person's tokens as listed: never the token itself (only its hash is kept). */
export const deskToken = z.object({
  tokenId: z.number(),
  kind: z.enum(['session', 'api']),
  label: z.string().nullable(),
  createdAt: z.string(),
  expiresAt: z.string(),
  lastUsedAt: z.string().nullable(),
  revokedAt: z.string().nullable(),
});

export const deskUser = z.object({ userId: z.string(), displayName: z.string(), role, admin: z.boolean() });

const limits = z
  .object({
    maxSingleRisk: z.number().positive().max(1000),
    maxGross: z.number().positive().max(100_000),
    maxDuration: z.number().positive().max(1000),
    maxFactorConcentration: z.number().positive().max(100),
  })
  .strict();

const violation = z.object({
  rule: z.string(),
  actual: z.union([z.number(), z.string()]),
  limit: z.union([z.number(), z.string()]),
  message: z.string(),
  book: z.string(),
});

export const deskBook = z.object({
  bookId: z.string(),
  kind: z.enum(['pm', 'desk']),
  ownerId: z.string().nullable(),
  limits: limits.extend({ setBy: z.string(), setAt: z.string() }).nullable(),
  gross: z.number(),
  net: z.number(),
  duration: z.number(),
  factors: z.record(z.string(), z.number()),
  open: z.array(
    z.object({
      id: z.string(),
      viewId: z.string().nullable(),
      notional: z.number(),
      maxLossPct: z.number(),
      durationImpact: z.number(),
      factor: z.string().nullable(),
      since: z.string().nullable(),
      inSnapshot: z.boolean(),
    }),
  ),
  usage: z.array(z.object({ rule: z.string(), value: z.number(), limit: z.number(), detail: z.string().optional() })),
  withinLimits: z.boolean().nullable(),
  /** The open halt on the PM (PM books only), else null. */
  halt: z.object({ pmId: z.string(), haltedBy: z.string(), haltedAt: z.string(), reason: z.string() }).nullable(),
});

export const deskProcedures = {
  /** Whether this server's workspace is a desk (people sign in) and which database it is (password masked). */
  'desk/status': {
    input: z.object({}).strict(),
    output: z.object({ desk: z.boolean(), database: z.string().nullable() }),
  },
  /** A person signs in: a session for 12 hours. A wrong id and a wrong password get the same answer. */
  'desk/sign-in': {
    input: z.object({ userId, password: z.string().min(1).max(1024) }).strict(),
    output: z.object({ session: z.string(), expiresAt: z.string(), user: deskUser }),
  },
  'desk/sign-out': {
    input: z.object({ session }).strict(),
    output: z.object({}),
  },
  /** Who the session belongs to (refused once it is revoked, expired or its person disabled). */
  'desk/me': {
    input: z.object({ session }).strict(),
    output: z.object({ user: deskUser }),
  },
  /** The books this person may read: a PM their own and the desk's; risk every book. */
  'desk/books': {
    input: z.object({ session }).strict(),
    output: z.object({ books: z.array(deskBook) }),
  },
  /** Expressions waiting for a decision (proposed, or sent back for review): a PM's own; risk's view of every PM's. */
  'desk/proposals': {
    input: z.object({ session }).strict(),
    output: z.object({
      proposals: z.array(
        z.object({ id: z.string(), title: z.string(), status: z.string(), ownerId: z.string(), notional: z.number().nullable(), updatedAt: z.string() }),
      ),
    }),
  },
  /** A PM approves one of their own Expressions: checked against their book's limits and the desk's. */
  'desk/approve': {
    input: z.object({ session, id: expressionId }).strict(),
    output: z.object({ id: z.string(), approved: z.boolean(), changed: z.boolean(), status: z.string(), violations: z.array(violation), message: z.string() }),
  },
  /** Risk sets a book's four limits (the desk book's bound the sum of all PM books). */
  'desk/set-limits': {
    input: z.object({ session, bookId, limits }).strict(),
    output: z.object({ bookId: z.string(), limits: limits.extend({ setBy: z.string(), setAt: z.string() }) }),
  },
  /** Risk halts a PM (no approval until resumed) or resumes them; the reason is kept. */
  'desk/halt': {
    input: z.object({ session, pmId: userId, reason: z.string().min(1).max(500), resume: z.boolean().optional() }).strict(),
    output: z.object({ pmId: z.string(), halted: z.boolean(), changed: z.boolean() }),
  },
  /** The person's own tokens, sign-in sessions and API tokens, newest first; never a token itself. */
  'desk/tokens': {
    input: z.object({ session }).strict(),
    output: z.object({ tokens: z.array(deskToken) }),
  },
  /**
   * A long-lived API token of the person's own for scripts and IDEs (`forge mcp --remote` with
   * FORGE_DESK_TOKEN): it acts as them in `x-forge-session`. Given here once, never again.
   */
  'desk/issue-token': {
    input: z.object({ session, label: tokenLabel, expiresInDays: z.number().int().min(1).max(366).optional() }).strict(),
    output: z.object({ token: z.string(), tokenId: z.number(), label: z.string(), expiresAt: z.string() }),
  },
  /** Revokes one of the person's own tokens (an admin: anyone's); refused at its next call on every server. */
  'desk/revoke-token': {
    input: z.object({ session, tokenId }).strict(),
    output: z.object({ tokenId: z.number(), revoked: z.boolean() }),
  },
} as const;

/** What a desk's servers tell every open page, from LISTEN/NOTIFY (any server's commit). */
export const deskEvents = {
  /**
   * Every signed-in page hears it (host/event-audience.ts), so it carries ids and kinds only — never
   * a record's title or text: host/desk.ts passes on exactly these fields, whatever a publisher adds.
   */
  'desk/changed': z.object({
    kind: z.string(),
    id: z.string().optional(),
    by: z.string().optional(),
    owner: z.string().optional(),
    book: z.string().optional(),
    pm: z.string().optional(),
    category: z.string().optional(),
    visibility: z.string().optional(),
    /** desk.reconnecting: why this server's listener lost the database. */
    reason: z.string().optional(),
  }),
};
