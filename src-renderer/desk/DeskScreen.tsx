import { useEffect } from 'react';
import { useProcedure, useProcedureMutation } from '../api/hooks';
import { isApiError } from '../api/errors';
import { ErrorPanel } from '../app/ErrorPanel';
import { screenInfo } from '../app/screens';
import { ApiTokensCard } from './ApiTokens';
import { BookCard } from './BookCard';
import { ProposalList } from './ProposalList';
import { SignInForm } from './SignInForm';
import { type DeskSession, useDeskSession } from './session';
import './desk.css';

const roleWords: Record<string, string> = { pm: 'PM', risk: 'Risk', analyst: 'Analyst', viewer: 'Viewer' };

/**
 * The desk from one person's chair: sign in, then the books they may read (a PM their own and the
 * desk's, risk every book), the Expressions waiting for a decision, and — for risk — limits and
 * halts. `desk/changed` from any server on the desk re-reads books and proposals (see live.ts).
 */
export function DeskScreen() {
  const info = screenInfo.desk;
  const status = useProcedure('desk/status', {}, { staleTime: 60_000 });
  const current = useDeskSession((s) => s.current);
  return (
    <section className="screen screen-scroll desk-screen" data-testid="screen-desk" aria-labelledby="title-desk">
      <header className="screen-header">
        <h1 id="title-desk">{info.label}</h1>
        <p className="screen-purpose">{info.purpose}</p>
      </header>
      {status.isPending && <p className="muted">Asking the server about its desk…</p>}
      {status.isError && <ErrorPanel error={status.error} onRetry={() => void status.refetch()} />}
      {status.data && !status.data.desk && (
        <p className="muted" data-testid="desk-not-a-desk">
          This Forge is a PM’s own workspace, not a desk. A desk runs with <code>forge serve --db postgres://…</code> on a database made a desk with{' '}
          <code>forge desk create</code>.
        </p>
      )}
      {status.data?.desk && (current ? <SignedIn session={current} /> : <SignInForm />)}
    </section>
  );
}

function SignedIn(props: { session: DeskSession }) {
  const { session, user } = props.session;
  const signedOut = useDeskSession((s) => s.signedOut);
  const signOut = useProcedureMutation('desk/sign-out');
  const books = useProcedure('desk/books', { session }, { staleTime: 0 });
  const proposals = useProcedure('desk/proposals', { session }, { staleTime: 0 });
  const risk = user.role === 'risk';

  // A session revoked, expired or whose person was disabled: back to the form, saying why.
  const ended = [books.error, proposals.error].some((e) => isApiError(e) && e.code === 'unauthorized');
  useEffect(() => {
    if (ended) signedOut('Your session has ended (signed out elsewhere, expired, or your access changed). Sign in again.');
  }, [ended, signedOut]);

  const onSignOut = () => {
    // Forget the session here whatever the server says: the person asked to leave this window.
    signOut.mutate({ session }, { onSettled: () => signedOut() });
  };

  return (
    <>
      <div className="desk-who" data-testid="desk-who">
        <p>
          Signed in as <strong data-testid="desk-user">{user.displayName}</strong> ({user.userId}) ·{' '}
          <span data-testid="desk-role">{roleWords[user.role] ?? user.role}</span>
          {user.admin ? ' · desk admin' : ''}
        </p>
        <button type="button" className="button small" onClick={onSignOut} disabled={signOut.isPending} data-testid="desk-sign-out">
          Sign out
        </button>
      </div>

      <section className="desk-section" aria-labelledby="desk-proposals-title">
        <h2 id="desk-proposals-title">{risk ? 'Waiting for a PM’s approval' : 'Waiting for your approval'}</h2>
        {proposals.isPending && <p className="muted">Loading…</p>}
        {proposals.isError && !ended && <ErrorPanel error={proposals.error} onRetry={() => void proposals.refetch()} />}
        {proposals.data && <ProposalList proposals={proposals.data.proposals} session={session} canApprove={user.role === 'pm'} me={user.userId} />}
      </section>

      <section className="desk-section" aria-labelledby="desk-books-title">
        <h2 id="desk-books-title">Books</h2>
        {books.isPending && <p className="muted">Loading the books…</p>}
        {books.isError && !ended && <ErrorPanel error={books.error} onRetry={() => void books.refetch()} />}
        {books.data && (
          <div className="desk-books" data-testid="desk-books">
            {books.data.books.map((b) => (
              <BookCard key={b.bookId} book={b} session={session} risk={risk} />
            ))}
          </div>
        )}
      </section>

      <ApiTokensCard session={session} />
    </>
  );
}
