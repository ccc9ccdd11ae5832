import { useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import type { ProcedureOutput } from '../../src-main/api';
import { useProcedureMutation } from '../api/hooks';
import { ErrorPanel } from '../app/ErrorPanel';
import { approvalSummary, type DeskApproval, figure } from './model';

type Proposal = ProcedureOutput<'desk/proposals'>['proposals'][number];

/**
 * The Expressions waiting for a decision. A PM sees their own with Approve; risk sees every PM's,
 * read-only (risk sets limits and halts, it does not approve a PM's trade).
 */
export function ProposalList(props: { proposals: Proposal[]; session: string; canApprove: boolean; me: string }) {
  const queryClient = useQueryClient();
  const approve = useProcedureMutation('desk/approve');
  // The last result per Expression, kept after the list moves on (an approved one leaves the list).
  const [results, setResults] = useState<DeskApproval[]>([]);
  const onApprove = (id: string) => {
    approve.mutate(
      { session: props.session, id },
      {
        onSuccess: (r) => {
          setResults((old) => [r, ...old.filter((x) => x.id !== r.id)]);
          for (const key of ['desk/books', 'desk/proposals']) void queryClient.invalidateQueries({ queryKey: [key] });
        },
      },
    );
  };
  return (
    <>
      {results.map((r) => {
        const s = approvalSummary(r);
        return (
          <div key={r.id} className={s.ok ? 'desk-result ok' : 'desk-result refused'} role="status" data-testid={`desk-result-${r.id}`}>
            <strong>{r.id}:</strong> {s.message}
            {s.violations.length > 0 && (
              <ul>
                {s.violations.map((v) => (
                  <li key={v}>{v}</li>
                ))}
              </ul>
            )}
          </div>
        );
      })}
      {approve.isError && <ErrorPanel inline error={approve.error} />}
      {props.proposals.length === 0 ? (
        <p className="muted" data-testid="desk-no-proposals">
          Nothing is waiting for a decision.
        </p>
      ) : (
        <ul className="desk-proposals" data-testid="desk-proposals">
          {props.proposals.map((p) => (
            <li key={p.id} data-testid={`desk-proposal-${p.id}`}>
              <span className="desk-proposal-id">{p.id}</span>
              <span className="desk-proposal-title">{p.title}</span>
              <span className="muted">
                {p.ownerId === props.me ? 'yours' : p.ownerId}
                {p.notional !== null ? ` · notional ${figure(p.notional)}` : ''} · {p.status.replace(/_/g, ' ')}
              </span>
              {props.canApprove && p.ownerId === props.me && (
                <button
                  type="button"
                  className="button small primary"
                  disabled={approve.isPending}
                  onClick={() => onApprove(p.id)}
                  data-testid={`desk-approve-${p.id}`}
                >
                  Approve {p.id}
                </button>
              )}
            </li>
          ))}
        </ul>
      )}
    </>
  );
}
