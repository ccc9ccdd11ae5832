import { type FormEvent, useState } from 'react';
import { useProcedureMutation } from '../api/hooks';
import { readableMessage } from '../api/errors';
import { useDeskSession } from './session';

/** Sign in to the desk with a user id and password; the server's refusal is shown as it says it. */
export function SignInForm() {
  const signIn = useProcedureMutation('desk/sign-in');
  const signedIn = useDeskSession((s) => s.signedIn);
  const endedBecause = useDeskSession((s) => s.endedBecause);
  const [userId, setUserId] = useState('');
  const [password, setPassword] = useState('');

  const submit = (e: FormEvent) => {
    e.preventDefault();
    signIn.mutate(
      { userId: userId.trim(), password },
      {
        onSuccess: (r) => {
          // The password leaves memory as soon as it has done its job.
          setPassword('');
          signedIn({ session: r.session, user: r.user, expiresAt: r.expiresAt });
        },
      },
    );
  };

  return (
    <form className="card desk-sign-in" onSubmit={submit} aria-labelledby="desk-sign-in-title" data-testid="desk-sign-in">
      <h2 id="desk-sign-in-title">Sign in to the desk</h2>
      {endedBecause && (
        <p className="muted" role="status">
          {endedBecause}
        </p>
      )}
      <div className="field">
        <label htmlFor="desk-user-id">User id</label>
        <input
          id="desk-user-id"
          type="text"
          autoComplete="username"
          value={userId}
          onChange={(e) => setUserId(e.target.value)}
          data-testid="desk-user-id"
          required
        />
      </div>
      <div className="field">
        <label htmlFor="desk-password">Password</label>
        <input
          id="desk-password"
          type="password"
          autoComplete="current-password"
          value={password}
          onChange={(e) => setPassword(e.target.value)}
          data-testid="desk-password"
          required
        />
      </div>
      {signIn.isError && (
        <p className="field-error" role="alert" data-testid="desk-sign-in-error">
          {readableMessage(signIn.error)}
        </p>
      )}
      <button type="submit" className="button primary" disabled={signIn.isPending || !userId.trim() || !password} data-testid="desk-sign-in-submit">
        {signIn.isPending ? 'Signing in…' : 'Sign in'}
      </button>
    </form>
  );
}
