import { NotFoundError } from '../../common/errors';
import { type ActingPerson, actingPerson } from '../../desk/people';
import { actingOf } from '../desk-calls';
import type { DeskServices } from '../desk';
import type { PartialHandlerMap } from './types';

const person = (u: ActingPerson) => ({ userId: u.userId, displayName: u.displayName, role: u.role, admin: u.admin });

/**
 * The person of the call: the dispatcher (core.ts, desk-calls.ts) has authenticated the session
 * and runs the handler as them; authenticating again here is only for a call that bypassed it.
 */
const me = (d: DeskServices, session: string): ActingPerson => actingPerson() ?? actingOf(d.people.authenticate(session));

/**
 * The desk procedures: each is made by the person of its session (DeskPeople.authenticate: revoked,
 * expired or disabled → unauthorized), and acts as that person; the permission table and the
 * desk's limits decide the rest. On a server that is not a desk, each answers not_found saying so.
 */
export function deskHandlers(desk: () => DeskServices | undefined): PartialHandlerMap {
  const need = (): DeskServices => {
    const d = desk();
    if (!d) {
      throw new NotFoundError(
        "This Forge is not serving a desk: start it with forge serve --db postgres://… on a database made a desk (forge desk create), or use it as one PM's workbench.",
      );
    }
    return d;
  };
  return {
    'desk/status': async () => {
      const d = desk();
      return { desk: !!d, database: d?.database ?? null };
    },
    'desk/sign-in': async (input) => {
      const signed = need().people.signIn(input.userId, input.password);
      return { session: signed.token, expiresAt: signed.expiresAt, user: person(signed.user) };
    },
    'desk/sign-out': async (input) => {
      need().people.signOut(input.session);
      return {};
    },
    'desk/me': async (input) => ({ user: person(me(need(), input.session)) }),
    'desk/books': async (input) => {
      const d = need();
      const user = me(d, input.session);
      if (user.role === 'risk') return { books: d.books.booksAtOnce(d.pms()) };
      // A PM reads their own book and the desk's totals (what their approvals are checked against).
      return { books: d.books.booksAtOnce(user.role === 'pm' ? [user.userId] : []) };
    },
    'desk/proposals': async (input) => {
      const d = need();
      const user = me(d, input.session);
      if (user.role === 'risk') return { proposals: d.proposals() };
      return { proposals: user.role === 'pm' ? d.proposals(user.userId) : [] };
    },
    'desk/approve': async (input) => {
      const d = need();
      const user = me(d, input.session);
      const r = d.write(() => d.books.approve(user.userId, input.id));
      return { id: r.id, approved: r.approved, changed: r.changed, status: r.status, violations: r.violations, message: r.message };
    },
    'desk/set-limits': async (input) => {
      const d = need();
      const user = me(d, input.session);
      const set = d.write(() => d.books.setLimits(user.userId, input.bookId, input.limits));
      return { bookId: input.bookId, limits: set };
    },
    'desk/halt': async (input) => {
      const d = need();
      const user = me(d, input.session);
      const r = d.write(() => (input.resume ? d.books.resume(user.userId, input.pmId, input.reason) : d.books.halt(user.userId, input.pmId, input.reason)));
      return { pmId: r.pmId, halted: r.halted, changed: r.changed };
    },
    // A person's own tokens: DeskPeople checks the ownership (row-level security, "not found" for another's).
    'desk/tokens': async (input) => {
      const d = need();
      const tokens = d.people.listTokens(me(d, input.session).userId);
      return { tokens: tokens.map((t) => ({ ...t, tokenId: Number(t.tokenId) })) };
    },
    'desk/issue-token': async (input) => {
      const d = need();
      const label = input.label.trim();
      const issued = d.people.issueApiToken(me(d, input.session).userId, label, { expiresInDays: input.expiresInDays });
      return { token: issued.token, tokenId: Number(issued.tokenId), label, expiresAt: issued.expiresAt };
    },
    'desk/revoke-token': async (input) => {
      const d = need();
      d.people.revokeToken(me(d, input.session).userId, input.tokenId);
      return { tokenId: input.tokenId, revoked: true };
    },
  };
}

/**
 * General procedures that, on a desk, take the desk's own path: `expressions/approve` is the desk's
 * approval (DeskBooks.approve, as the person of the call, inside the workspace's write lock), so the
 * desk-wide limits, halts and "only your own book" hold there as on desk/approve. Used only for a
 * call made by a person on a desk (core.ts); a PM's own workbench keeps its handlers.
 */
export function deskGeneralHandlers(desk: () => DeskServices | undefined): PartialHandlerMap {
  return {
    'expressions/approve': async (input) => {
      const d = desk();
      const who = actingPerson();
      if (!d || !who) throw new NotFoundError('expressions/approve took the desk path outside a desk call; nothing was approved.');
      const r = d.write(() => d.books.approve(who.userId, input.id));
      return {
        id: r.id,
        approved: r.approved,
        status: r.status,
        violations: r.violations.map((v) => ({
          rule: v.rule,
          actual: v.actual,
          limit: v.limit,
          message: `${v.book === 'desk' ? 'Desk book' : `${v.book}'s book`}: ${v.message}`,
        })),
        message: r.message,
      };
    },
  };
}
