import { ForbiddenError } from '../common/errors';
import type { ProcedureName } from '../api/procedures';
import { type ActingPerson, actingPerson, type DeskAction, type DeskUser, requirePermission, UnauthorizedError } from '../desk/people';
import type { Store } from '../store';
import { nameCheckActors } from '../guardrails';
import type { DeskServices } from './desk';

/**
 * Who may call what on a desk: procedures are classified here, in one table. A procedure not in it
 * is 'admin' (fail closed): one added later without a decision is refused to everyone but a desk
 * admin, never opened to a viewer by default.
 *
 * - 'open': answered without a person — only what the page needs to show the sign-in form, and
 *   sign-in/sign-out themselves. Keep it short: everything else on a desk is made by a person.
 * - 'read': any signed-in person (research.read: every role).
 * - a desk action (permissions.ts): the person's role must allow it. For the 'own' actions the
 *   person writes as themselves (the owner of what they create); whose existing record it is, is
 *   for row-level security and the desk's books (expressions/approve goes through DeskBooks.approve).
 * - 'admin': it changes the server for the whole desk (settings, keys, MCP, builds, schedule,
 *   skills): only a desk admin.
 */
type Rule = 'open' | 'read' | 'admin' | DeskAction | ((input: Record<string, unknown>) => DeskAction);

/** memory/write: a View, an Expression (a proposal: it lands `proposed`), or any other note (research). */
function memoryWriteAction(input: Record<string, unknown>): DeskAction {
  const path = typeof input.path === 'string' ? input.path : '';
  if (path.startsWith('/memory/views/')) return 'views.write';
  if (path.startsWith('/memory/expressions/')) return 'expressions.propose';
  return 'research.write';
}

export const DESK_CALLS: Partial<Record<ProcedureName, Rule>> = {
  // Before sign-in: the page asks whether this is a desk, and who it is, then signs in.
  'app/info': 'open',
  'app/health': 'open',
  'desk/status': 'open',
  'desk/sign-in': 'open',
  // Signing out a session already ended is harmless (DeskPeople.signOut), so it needs no person.
  'desk/sign-out': 'open',
  // The desk's own procedures: the person is the one their `session` input names.
  'desk/me': 'read',
  'desk/books': 'read',
  'desk/proposals': 'read',
  'desk/approve': 'expressions.approve',
  'desk/set-limits': 'limits.set',
  'desk/halt': 'pm.halt',
  'desk/people': 'read',
  // Every role manages its own tokens; that a token is the caller's is DeskPeople's check.
  'desk/tokens': 'read',
  'desk/issue-token': 'read',
  'desk/revoke-token': 'read',

  'app/self-check': 'read',
  'settings/get': 'read',
  'settings/set': 'admin',
  'memory/list': 'read',
  'memory/table': 'read',
  'memory/read': 'read',
  'memory/history': 'read',
  'memory/audit': 'read',
  'memory/write': memoryWriteAction,
  'memory/search': 'read',
  'memory/access': 'read',
  // Whoever may write their own notes may share them; that it is theirs is DeskSharing's check.
  'memory/share': 'research.write',
  'expressions/checks': 'read',
  'expressions/approve': 'expressions.approve',
  'expressions/reject': 'expressions.approve',
  'expressions/price-source': 'read',
  // The analyst writes research and Views and proposes Expressions for whoever asked.
  'agent/send': 'expressions.propose',
  'agent/cancel': 'expressions.propose',
  'agent/status': 'read',
  'agent/demo': 'expressions.propose',
  'sessions/list': 'read',
  'sessions/open': 'read',
  'search/status': 'read',
  'search/reindex': 'admin',
  'search/reindex-cancel': 'admin',
  'search/retry-parked': 'admin',
  'search/model-status': 'read',
  'search/model-download': 'admin',
  'search/model-cancel': 'admin',
  'search/model-folder': 'admin',
  'search/embedder': 'admin',
  'tasks/list': 'read',
  'tasks/get': 'read',
  'tasks/cancel': 'expressions.propose',
  'tasks/retry': 'expressions.propose',
  'skills/list': 'read',
  'skills/read': 'read',
  'skills/allow-scripts': 'admin',
  'skills/versions': 'read',
  'skills/restore': 'admin',
  'mcp/status': 'read',
  'mcp/calls': 'read',
  'mcp/rotate-token': 'admin',
  'mcp/config-snippets': 'admin',
  'mcp/set-options': 'admin',
  'mcp/clear-cache': 'admin',
  'mcp/summary': 'read',
  'mcp/contracts': 'read',
  'mcp/contract': 'read',
  'mcp/invariants': 'read',
  'mcp/governance': 'read',
  'mcp/phase-window': 'read',
  'mcp/project-context': 'read',
  'mcp/project-contract': 'read',
  'mcp/build-contracts': 'admin',
  'mcp/run-planner': 'admin',
  'mcp/fetch': 'read',
  'guardrails/limits': 'read',
  'portfolio/book': 'read',
  // The workspace's positions are the desk's: loading them is risk's (they set the limits they are measured against).
  'portfolio/import': 'limits.set',
  'providers/list': 'read',
  'providers/test-fetch': 'admin',
  'providers/configure': 'admin',
  'providers/data-folder': 'read',
  'providers/set-data-folder': 'admin',
  'analytics/option': 'read',
  'analytics/curve': 'read',
  'builds/inspect': 'read',
  'builds/start': 'admin',
  'builds/list': 'read',
  'builds/get': 'read',
  'builds/pause': 'admin',
  'builds/resume': 'admin',
  'builds/stop': 'admin',
  'builds/answer': 'admin',
  'builds/decide-command': 'admin',
  'builds/set-network': 'admin',
  'calibration/get': 'read',
  'tracking/run': 'admin',
  'lineage/expression': 'read',
  'lineage/export': 'read',
  'schedule/list': 'read',
  'schedule/history': 'read',
  'schedule/pause': 'admin',
  'schedule/resume': 'admin',
  'schedule/run-now': 'admin',
  'schedule/report': 'read',
  'schedule/reports': 'read',
  'schedule/replay': 'admin',
  'proposals/run-meta-optimizer': 'admin',
  'proposals/list': 'read',
  'proposals/get': 'read',
  'proposals/approve': 'admin',
  'proposals/reject': 'admin',
  'demo/enter': 'admin',
  'demo/exit': 'admin',
  'demo/status': 'read',
  'contracts/list': 'read',
  'contracts/read': 'read',
  'contracts/validate': 'read',
  'contracts/save': 'admin',
  'contracts/versions': 'read',
  'workspace/sample': 'read',
  'workspace/clear-sample': 'admin',
};

/** A procedure's rule; one the table does not name is for a desk admin only. */
export const ruleOf = (name: ProcedureName): Rule => DESK_CALLS[name] ?? 'admin';

/** The refusal of a call on a desk without a good session: the page shows the sign-in form on `unauthorized`. */
export const SIGN_IN_TO_THE_DESK =
  'Sign in to the desk first: on a desk every call is made by a signed-in person, and this one came without a valid session (none, signed out, revoked or expired). Nothing was done.';

/** The person fields the rest of the call sees (acting-person.ts). */
export const actingOf = (u: DeskUser): ActingPerson => ({ userId: u.userId, role: u.role, admin: u.admin, displayName: u.displayName });

/**
 * The person a call on a desk is made by, after checking that they may make it; undefined for an
 * 'open' call. `session` is the call's own (the desk/* procedures carry it in their input, every
 * other call in the transport's header). Throws UnauthorizedError (no, or no longer a, session)
 * or ForbiddenError (their role may not).
 */
export function personForCall(desk: DeskServices, name: ProcedureName, input: unknown, session: string | undefined): DeskUser | undefined {
  const rule = ruleOf(name);
  if (rule === 'open') return undefined;
  if (!session) throw new UnauthorizedError(SIGN_IN_TO_THE_DESK);
  let user: DeskUser;
  try {
    user = desk.people.authenticate(session);
  } catch (e) {
    if (e instanceof UnauthorizedError) throw new UnauthorizedError(SIGN_IN_TO_THE_DESK);
    throw e;
  }
  mayCall(user, name, input);
  return user;
}

/** Throws ForbiddenError unless `user`'s role allows the procedure (the table above). */
export function mayCall(user: DeskUser, name: ProcedureName, input: unknown): void {
  const rule = ruleOf(name);
  if (rule === 'open') return;
  if (rule === 'admin') {
    if (user.admin && user.disabledAt === null) return;
    throw new ForbiddenError(
      `${user.displayName} (${user.userId}) may not call ${name} on a desk: it changes the server for everyone, so only a desk admin may.`,
    );
  }
  const action: DeskAction = rule === 'read' ? 'research.read' : typeof rule === 'function' ? rule((input ?? {}) as Record<string, unknown>) : rule;
  // 'own' actions: the person acts as the owner of what they write (see the table's comment).
  requirePermission(user, action, { ownerId: user.userId });
}

/** The session of a call: the desk/* procedures carry it in their input; every other call in the transport's header. */
export function sessionOfCall(name: ProcedureName, input: unknown, call: { session?: string } | undefined): string | undefined {
  const own = name.startsWith('desk/') ? (input as { session?: unknown } | undefined)?.session : undefined;
  return typeof own === 'string' ? own : call?.session;
}

/** The actors that are not a person (fs/types.ts Actor, less 'pm'): on a desk their rows say for whom they acted. */
const NOT_A_PERSON = /^(agent|scheduler|builder|mcp|tracker|subagent:[A-Za-z0-9_.:-]{1,80})$/;

/**
 * The actor an audit row names on a desk when it is written during `userId`'s work (undefined: the
 * server's own work, which keeps its actor). What the one-PM workbench records as `pm` (the person
 * at the keyboard) is that person's user id; any other writer — the analyst, a sub-agent, the
 * scheduler run from their screen — keeps its kind first and adds `@<userId>` (`agent@pm01`,
 * `subagent:t7@pm01`), so a reader that asks "which kind of writer" still can, and two PMs'
 * analyst work is told apart. User ids never contain '@' (desk/people USER_ID) and the kinds never
 * do either, so the first '@' splits kind from person; an actor already naming someone is kept.
 */
export function actorOnDesk(actor: string, userId: string | undefined): string {
  if (!userId) return actor;
  if (actor === 'pm') return userId;
  return NOT_A_PERSON.test(actor) ? `${actor}@${userId}` : actor;
}

/**
 * Every audit row written during a person's call on a desk names them (actorOnDesk) — also the
 * rows the analyst writes in a run that call started, since the run carries the person
 * (acting-person.ts: it flows through the async work a call starts). Rows of the scheduler or the
 * tracker running as the server's own work keep their actor. Wraps the store's one audit writer
 * rather than threading the person through every write.
 */
export function auditNamesThePerson(store: Store): Store {
  const append = store.audit.append.bind(store.audit);
  store.audit.append = (entry) => append({ ...entry, actor: actorOnDesk(entry.actor, actingPerson()?.userId) });
  // The guardrail check log (a second append-only table) names its actors the same way.
  nameCheckActors(store.db, (actor) => actorOnDesk(actor, actingPerson()?.userId));
  // A colleague's analyst conversations (sessions and their files) read as absent (Sessions.restrictTo).
  store.sessions.restrictTo(() => actingPerson()?.userId);
  return store;
}
