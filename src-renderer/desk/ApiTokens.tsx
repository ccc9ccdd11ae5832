import { useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { useProcedure, useProcedureMutation } from '../api/hooks';
import { ErrorPanel } from '../app/ErrorPanel';
import { CopyButton } from '../mcp/CopyButton';
import { apiTokens, checkNewToken, type DeskToken, shortTime, tokenState } from './tokens';

/**
 * "Your API tokens": a person's own long-lived tokens for scripts and IDEs (`forge mcp --remote`
 * with FORGE_DESK_TOKEN), each acting as them. A new token is shown once, here, and never again
 * (the desk keeps only its hash); revoking one stops it on every server at its next call.
 */
export function ApiTokensCard(props: { session: string }) {
  const queryClient = useQueryClient();
  const tokens = useProcedure('desk/tokens', { session: props.session }, { staleTime: 0 });
  const issue = useProcedureMutation('desk/issue-token');
  const revoke = useProcedureMutation('desk/revoke-token');
  const [label, setLabel] = useState('');
  const [days, setDays] = useState('90');
  const [problem, setProblem] = useState<string | null>(null);
  // The new token lives only in this component's state: gone when the card unmounts or the next one is made.
  const [issued, setIssued] = useState<{ token: string; label: string; expiresAt: string } | null>(null);
  const reload = () => void queryClient.invalidateQueries({ queryKey: ['desk/tokens'] });

  const submit = (e: FormEvent) => {
    e.preventDefault();
    const checked = checkNewToken(label, days);
    if (!checked.ok) {
      setProblem(checked.message);
      return;
    }
    setProblem(null);
    setIssued(null);
    issue.mutate(
      { session: props.session, label: checked.label, expiresInDays: checked.expiresInDays },
      {
        onSuccess: (r) => {
          setIssued({ token: r.token, label: r.label, expiresAt: r.expiresAt });
          setLabel('');
          reload();
        },
      },
    );
  };

  return (
    <section className="desk-section" aria-labelledby="desk-tokens-title">
      <h2 id="desk-tokens-title">Your API tokens</h2>
      <article className="card desk-tokens" data-testid="desk-tokens">
        <p className="muted">
          A token acts as you, within your role, for a script or an IDE: put it in <code>FORGE_DESK_TOKEN</code> for <code>forge mcp --remote</code>, or send it
          as the <code>x-forge-session</code> header.
        </p>
        {issued && <IssuedToken {...issued} onDone={() => setIssued(null)} />}
        {tokens.isPending && <p className="muted">Loading your tokens…</p>}
        {tokens.isError && <ErrorPanel error={tokens.error} onRetry={() => void tokens.refetch()} />}
        {tokens.data && (
          <TokenList
            tokens={tokens.data.tokens}
            busy={revoke.isPending}
            onRevoke={(tokenId) => revoke.mutate({ session: props.session, tokenId }, { onSuccess: reload })}
          />
        )}
        {revoke.isError && <ErrorPanel inline error={revoke.error} />}
        <form className="desk-token-form" onSubmit={submit} aria-label="New API token">
          <div className="field">
            <label htmlFor="desk-token-label">Label</label>
            <input
              id="desk-token-label"
              type="text"
              value={label}
              maxLength={120}
              placeholder="laptop IDE"
              onChange={(e) => setLabel(e.target.value)}
              data-testid="desk-token-label"
            />
          </div>
          <div className="field">
            <label htmlFor="desk-token-days">Days</label>
            <input id="desk-token-days" type="text" inputMode="numeric" value={days} onChange={(e) => setDays(e.target.value)} data-testid="desk-token-days" />
          </div>
          <button type="submit" className="button small primary" disabled={issue.isPending} data-testid="desk-token-new">
            New token
          </button>
        </form>
        {problem && (
          <p className="field-error" role="alert" data-testid="desk-token-problem">
            {problem}
          </p>
        )}
        {issue.isError && <ErrorPanel inline error={issue.error} />}
      </article>
    </section>
  );
}

/** The token just made: shown this once, with Copy and the warning that it cannot be shown again. */
export function IssuedToken(props: { token: string; label: string; expiresAt: string; onDone: () => void }) {
  return (
    <div className="desk-token-issued" role="status" data-testid="desk-token-issued">
      <p>
        <strong>Copy your new token “{props.label}” now: it is not shown again.</strong> It lasts until {shortTime(props.expiresAt).slice(0, 10)}.
      </p>
      <code className="desk-token-secret" data-testid="desk-token-secret">
        {props.token}
      </code>
      <CopyButton text={props.token} what="the new API token" testId="desk-token-copy" />
      <button type="button" className="button small" onClick={props.onDone} data-testid="desk-token-done">
        Done
      </button>
    </div>
  );
}

/** The person's API tokens (never their secret): label, dates, state, and Revoke on a live one. */
export function TokenList(props: { tokens: DeskToken[]; busy: boolean; onRevoke: (tokenId: number) => void; now?: number }) {
  const list = apiTokens(props.tokens, props.now);
  if (list.length === 0) {
    return (
      <p className="muted" data-testid="desk-tokens-none">
        You have no API tokens yet.
      </p>
    );
  }
  return (
    <ul className="desk-token-list" data-testid="desk-token-list">
      {list.map((t) => {
        const state = tokenState(t, props.now);
        return (
          <li key={t.tokenId} data-testid={`desk-token-${t.tokenId}`}>
            <span className="desk-token-label">{t.label}</span>
            <span className="muted">
              made {shortTime(t.createdAt).slice(0, 10)} · {state === 'active' ? `expires ${shortTime(t.expiresAt).slice(0, 10)}` : state} · last used{' '}
              {shortTime(t.lastUsedAt)}
            </span>
            {state === 'active' && (
              <button
                type="button"
                className="button small"
                disabled={props.busy}
                onClick={() => props.onRevoke(t.tokenId)}
                data-testid={`desk-token-revoke-${t.tokenId}`}
              >
                Revoke
              </button>
            )}
          </li>
        );
      })}
    </ul>
  );
}
