import { NotFoundError } from '../../common/errors';
import type { DeskUser } from '../../desk/people';
import type { DeskServices } from '../desk';
import type { PartialHandlerMap } from './types';

const person = (u: DeskUser) => ({ userId: u.userId, displayName: u.displayName, role: u.role, admin: u.admin });

/**
 * The desk procedures: each authenticates its session first (DeskPeople.authenticate: revoked,
 * expired or disabled → unauthorized), then acts as that person; the permission table and the
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
    'desk/me': async (input) => ({ user: person(need().people.authenticate(input.session)) }),
    'desk/books': async (input) => {
      const d = need();
      const user = d.people.authenticate(input.session);
      if (user.role === 'risk') {
        return { books: [d.books.deskBook(), ...d.pms().map((pm) => d.books.bookOf(pm))] };
      }
      // A PM reads their own book and the desk's totals (what their approvals are checked against).
      return { books: user.role === 'pm' ? [d.books.deskBook(), d.books.bookOf(user.userId)] : [d.books.deskBook()] };
    },
    'desk/proposals': async (input) => {
      const d = need();
      const user = d.people.authenticate(input.session);
      if (user.role === 'risk') return { proposals: d.proposals() };
      return { proposals: user.role === 'pm' ? d.proposals(user.userId) : [] };
    },
    'desk/approve': async (input) => {
      const d = need();
      const user = d.people.authenticate(input.session);
      const r = d.write(() => d.books.approve(user.userId, input.id));
      return { id: r.id, approved: r.approved, changed: r.changed, status: r.status, violations: r.violations, message: r.message };
    },
    'desk/set-limits': async (input) => {
      const d = need();
      const user = d.people.authenticate(input.session);
      const set = d.write(() => d.books.setLimits(user.userId, input.bookId, input.limits));
      return { bookId: input.bookId, limits: set };
    },
    'desk/halt': async (input) => {
      const d = need();
      const user = d.people.authenticate(input.session);
      const r = d.write(() => (input.resume ? d.books.resume(user.userId, input.pmId, input.reason) : d.books.halt(user.userId, input.pmId, input.reason)));
      return { pmId: r.pmId, halted: r.halted, changed: r.changed };
    },
  };
}
