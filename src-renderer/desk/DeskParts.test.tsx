import type { ReactNode } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { createClient } from '../api/client';
import { ForgeProvider, makeQueryClient } from '../api/hooks';
import { BookCard } from './BookCard';
import type { DeskBook } from './model';
import { ProposalList } from './ProposalList';

/** Rendered as the page first shows them; nothing is called (an HTTP client to nowhere would fail loudly). */
const render = (node: ReactNode) =>
  renderToStaticMarkup(
    <ForgeProvider client={createClient({ baseUrl: 'http://127.0.0.1:9', token: null })} queryClient={makeQueryClient()}>
      {node}
    </ForgeProvider>,
  );

const SESSION = 'a'.repeat(40);

const book = (over: Partial<DeskBook>): DeskBook => ({
  bookId: 'bob',
  kind: 'pm',
  ownerId: 'bob',
  limits: { maxSingleRisk: 5, maxGross: 1000, maxDuration: 5, maxFactorConcentration: 100, setBy: 'rita', setAt: '2026-11-28T10:00:00.000Z' },
  gross: 20,
  net: 20,
  duration: 0.5,
  factors: {},
  open: [],
  usage: [{ rule: 'max_gross_exposure', value: 20, limit: 1000 }],
  withinLimits: true,
  halt: null,
  ...over,
});

const proposals = [
  { id: 'E-001', title: 'Long 10y (alice)', status: 'proposed', ownerId: 'alice', notional: 30, updatedAt: '2026-11-28' },
  { id: 'E-003', title: 'Long 10y (bob)', status: 'review_required', ownerId: 'bob', notional: 20, updatedAt: '2026-11-28' },
];

describe('what the Desk screen offers each role', () => {
  it("offers a PM Approve only on their own Expressions, and risk none, even when the list holds a colleague's", () => {
    // A PM shown an Approve button on a colleague's trade would be invited to act for them.
    const asBob = render(<ProposalList proposals={proposals} session={SESSION} canApprove={true} me="bob" />);
    expect(asBob).toContain('data-testid="desk-approve-E-003"');
    expect(asBob).not.toContain('data-testid="desk-approve-E-001"');
    expect(asBob).toContain('review required');
    const asRisk = render(<ProposalList proposals={proposals} session={SESSION} canApprove={false} me="rita" />);
    expect(asRisk).not.toContain('desk-approve-');
    expect(asRisk).toContain('alice');
  });

  it('gives risk the limits form and Halt on a PM book, the desk book limits but no halt, and a PM neither', () => {
    const pmView = render(<BookCard book={book({})} session={SESSION} risk={false} />);
    expect(pmView).toContain('20 of 1,000');
    expect(pmView).not.toContain('Save limits');
    expect(pmView).not.toContain('desk-halt-bob');
    const riskView = render(<BookCard book={book({})} session={SESSION} risk={true} />);
    expect(riskView).toContain('Save limits');
    expect(riskView).toContain('data-testid="desk-halt-bob"');
    const deskBook = render(<BookCard book={book({ bookId: 'desk', kind: 'desk', ownerId: null })} session={SESSION} risk={true} />);
    expect(deskBook).toContain('Desk book');
    expect(deskBook).toContain('Save limits');
    expect(deskBook).not.toContain('desk-halt-');
  });

  it("shows a halted PM's halt with who, when and why, and offers risk Resume instead of Halt", () => {
    const halted = book({ halt: { pmId: 'bob', haltedBy: 'rita', haltedAt: '2026-11-28T10:30:00.000Z', reason: 'drawdown review' } });
    const html = render(<BookCard book={halted} session={SESSION} risk={true} />);
    expect(html).toContain('data-testid="desk-halted-bob"');
    expect(html).toContain('Halted by rita on 2026-11-28: drawdown review');
    expect(html).toContain('data-testid="desk-resume-bob"');
    expect(html).not.toContain('data-testid="desk-halt-bob"');
  });
});
