import type { ProcedureOutput } from '../../src-main/api';
import { figure } from './doc';

type Book = ProcedureOutput<'portfolio/book'>;

/** Exposure by factor and the open Expressions, numbers right-aligned. */
export function BookTables({ book }: { book: Book }) {
  const factors = Object.entries(book.factors).sort((a, b) => b[1] - a[1]);
  return (
    <>
      <article className="card" data-testid="book-factors" aria-labelledby="factors-title">
        <h2 id="factors-title">Exposure by factor</h2>
        <table className="limits-table">
          <thead>
            <tr>
              <th scope="col">Factor</th>
              <th scope="col" className="num">
                Gross (% NAV)
              </th>
              <th scope="col" className="num">
                Share of gross
              </th>
            </tr>
          </thead>
          <tbody>
            {factors.map(([f, v]) => (
              <tr key={f} data-key={f}>
                <th scope="row">{f}</th>
                <td className="num">{figure(v)}</td>
                <td className="num">{book.gross > 0 ? `${figure((v / book.gross) * 100)}%` : '—'}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </article>

      <article className="card" data-testid="book-open" aria-labelledby="open-title">
        <h2 id="open-title">Open Expressions</h2>
        {book.open.length === 0 ? (
          <p className="muted">No open Expressions.</p>
        ) : (
          <table className="limits-table">
            <thead>
              <tr>
                <th scope="col">Expression</th>
                <th scope="col">View</th>
                <th scope="col">Factor</th>
                <th scope="col" className="num">
                  Notional (% NAV)
                </th>
                <th scope="col" className="num">
                  Max loss (% NAV)
                </th>
                <th scope="col" className="num">
                  Duration (yrs)
                </th>
                <th scope="col">In the book since</th>
              </tr>
            </thead>
            <tbody>
              {book.open.map((o) => (
                <tr key={o.id} data-testid="open-expression" data-id={o.id}>
                  <th scope="row">
                    <a href={`#/expressions/${o.id}`}>{o.id}</a>
                  </th>
                  <td>{o.viewId ? <a href={`#/views/${o.viewId}`}>{o.viewId}</a> : '—'}</td>
                  <td>{o.factor ?? '—'}</td>
                  <td className="num">{figure(o.notional)}</td>
                  <td className="num">{figure(o.maxLossPct, 2)}</td>
                  <td className="num">{figure(o.durationImpact, 2)}</td>
                  <td>{o.inSnapshot ? 'in the snapshot' : `approved ${o.since?.slice(0, 16).replace('T', ' ') ?? ''}`}</td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </article>
    </>
  );
}
