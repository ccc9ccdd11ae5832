import { type FormEvent, useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { useProcedureMutation } from '../api/hooks';
import { ErrorPanel } from '../app/ErrorPanel';
import { bookTitle, type DeskBook, figure, grossLine, limitFields, limitsText, parseLimits, ruleLabel, usageShare } from './model';

/** One book: gross against its limit, usage of each limit, open Expressions, a halt; for risk, its limits and Halt/Resume. */
export function BookCard(props: { book: DeskBook; session: string; risk: boolean }) {
  const { book } = props;
  const titleId = `desk-book-title-${book.bookId}`;
  return (
    <article className="card desk-book" aria-labelledby={titleId} data-testid={`desk-book-${book.bookId}`}>
      <h3 id={titleId}>{bookTitle(book)}</h3>
      <p className="desk-gross">
        Gross <strong data-testid={`desk-gross-${book.bookId}`}>{grossLine(book)}</strong>
        {book.withinLimits === false && <span className="badge desk-badge-over">over a limit</span>}
      </p>
      {book.halt && (
        <p className="desk-halt" role="status" data-testid={`desk-halted-${book.bookId}`}>
          Halted by {book.halt.haltedBy} on {book.halt.haltedAt.slice(0, 10)}: {book.halt.reason}. No approval until risk resumes them.
        </p>
      )}
      {book.usage.length > 0 && (
        <ul className="desk-usage" aria-label={`Limits used in ${bookTitle(book)}`}>
          {book.usage.map((u) => (
            <li key={u.rule}>
              <span className="desk-usage-label">{ruleLabel(u.rule)}</span>
              <meter min={0} max={1} value={usageShare(u.value, u.limit)} aria-label={`${ruleLabel(u.rule)} used`} />
              <span className="desk-usage-figure">
                {figure(u.value)} / {figure(u.limit)}
              </span>
            </li>
          ))}
        </ul>
      )}
      <details className="desk-open">
        <summary>
          {book.open.length} open Expression{book.open.length === 1 ? '' : 's'}
        </summary>
        {book.open.length > 0 && (
          <ul data-testid={`desk-open-${book.bookId}`}>
            {book.open.map((e) => (
              <li key={e.id}>
                {e.id} — notional {figure(e.notional)}
                {e.factor ? `, ${e.factor}` : ''}
              </li>
            ))}
          </ul>
        )}
      </details>
      {props.risk && <LimitsForm book={book} session={props.session} />}
      {props.risk && book.kind === 'pm' && book.ownerId && <HaltControl pmId={book.ownerId} halted={book.halt !== null} session={props.session} />}
    </article>
  );
}

function LimitsForm(props: { book: DeskBook; session: string }) {
  const queryClient = useQueryClient();
  const setLimits = useProcedureMutation('desk/set-limits');
  const [text, setText] = useState(() => limitsText(props.book.limits));
  const [problem, setProblem] = useState<string | null>(null);
  const [saved, setSaved] = useState(false);
  const submit = (e: FormEvent) => {
    e.preventDefault();
    const parsed = parseLimits(text);
    setSaved(false);
    if (!parsed.ok) {
      setProblem(parsed.message);
      return;
    }
    setProblem(null);
    setLimits.mutate(
      { session: props.session, bookId: props.book.bookId, limits: parsed.limits },
      {
        onSuccess: () => {
          setSaved(true);
          void queryClient.invalidateQueries({ queryKey: ['desk/books'] });
        },
      },
    );
  };
  const id = (key: string) => `desk-limit-${props.book.bookId}-${key}`;
  return (
    <details className="desk-limits">
      <summary>Limits{props.book.limits ? ` (set by ${props.book.limits.setBy})` : ' (none set)'}</summary>
      <form onSubmit={submit} aria-label={`Limits for ${bookTitle(props.book)}`}>
        <div className="desk-limit-fields">
          {limitFields.map((f) => (
            <div className="field" key={f.key}>
              <label htmlFor={id(f.key)}>{f.label}</label>
              <input
                id={id(f.key)}
                type="text"
                inputMode="decimal"
                value={text[f.key]}
                onChange={(e) => setText({ ...text, [f.key]: e.target.value })}
                data-testid={id(f.key)}
              />
            </div>
          ))}
        </div>
        {problem && (
          <p className="field-error" role="alert">
            {problem}
          </p>
        )}
        {setLimits.isError && <ErrorPanel inline error={setLimits.error} />}
        {saved && (
          <p className="muted" role="status">
            Limits saved.
          </p>
        )}
        <button type="submit" className="button small" disabled={setLimits.isPending} data-testid={`desk-limits-save-${props.book.bookId}`}>
          Save limits
        </button>
      </form>
    </details>
  );
}

function HaltControl(props: { pmId: string; halted: boolean; session: string }) {
  const queryClient = useQueryClient();
  const halt = useProcedureMutation('desk/halt');
  const [reason, setReason] = useState('');
  const act = () => {
    halt.mutate(
      { session: props.session, pmId: props.pmId, reason: reason.trim(), resume: props.halted },
      {
        onSuccess: () => {
          setReason('');
          void queryClient.invalidateQueries({ queryKey: ['desk/books'] });
        },
      },
    );
  };
  const inputId = `desk-halt-reason-${props.pmId}`;
  return (
    <div className="desk-halt-control">
      <div className="field">
        <label htmlFor={inputId}>{props.halted ? `Why resume ${props.pmId}` : `Why halt ${props.pmId}`}</label>
        <input id={inputId} type="text" value={reason} maxLength={500} onChange={(e) => setReason(e.target.value)} data-testid={inputId} />
      </div>
      <button
        type="button"
        className={props.halted ? 'button small' : 'button small danger'}
        disabled={halt.isPending || !reason.trim()}
        onClick={act}
        data-testid={`desk-${props.halted ? 'resume' : 'halt'}-${props.pmId}`}
      >
        {props.halted ? `Resume ${props.pmId}` : `Halt ${props.pmId}`}
      </button>
      {halt.isError && <ErrorPanel inline error={halt.error} />}
    </div>
  );
}
