import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConflictError, ForbiddenError, InvalidInputError } from '../../common/errors';
import { renderRecord, sha256 } from '../../fs';
import { skipWithoutPostgres } from '../../store/postgres/test-server';
import { startTestDesk, type TestDesk } from '../testing';
import { DeskBooks } from './books';
import { addExpression, seedBooksDesk, WIDE_LIMITS } from './testing';

describe.skipIf(skipWithoutPostgres())('the desk books: limits, halts and approvals on PostgreSQL', { timeout: 120_000 }, () => {
  let desk: TestDesk;
  let books: DeskBooks;
  const c = () => desk.connection;
  const count = (sql: string, params: unknown[] = []) => Number(c().one<{ n: string }>(`SELECT count(*) AS n FROM ${sql}`, params)!.n);
  const everything = () => ({
    checks: count('guardrail_checks'),
    audit: count('audit_log'),
    archive: count('memory_archive'),
    active: count("memory_records WHERE category = 'expressions' AND status = 'active'"),
  });
  const statusOf = (id: string) => c().one<{ status: string }>("SELECT status FROM memory_records WHERE category = 'expressions' AND id = $1", [id])!.status;

  beforeAll(async () => {
    desk = await startTestDesk();
    seedBooksDesk(desk.connection);
    books = new DeskBooks(desk.connection);
  });
  afterAll(async () => {
    await desk?.stop();
  });

  it('lets only risk set limits: a PM who tried would loosen their own limits', () => {
    expect(() => books.setLimits('alice', 'alice', WIDE_LIMITS)).toThrow(ForbiddenError);
    expect(() => books.setLimits('ann', 'desk', WIDE_LIMITS)).toThrow(/is an analyst and may not set limits: that is for risk/);
    expect(count('desk_book_limits')).toBe(0);
    expect(() => books.setLimits('rita', 'desk', { ...WIDE_LIMITS, maxFactorConcentration: 140 })).toThrow(InvalidInputError);
    expect(() => books.setLimits('rita', 'nobody', WIDE_LIMITS)).toThrow(/no book "nobody"/);

    const set = books.setLimits('rita', 'desk', { ...WIDE_LIMITS, maxGross: 50 });
    expect(set).toMatchObject({ maxGross: 50, setBy: 'rita' });
    books.setLimits('rita', 'alice', { ...WIDE_LIMITS, maxGross: 30 });
    expect(books.deskBook().limits?.maxGross).toBe(50);
    expect(count("audit_log WHERE operation = 'set_limits' AND actor = 'rita'")).toBe(2);
  });

  it('refuses an approval while a book has no limits, writing nothing (a desk risk never configured does not trade)', () => {
    addExpression(c(), { id: 'E-090', owner: 'bob', notional: 1 });
    const before = everything();
    expect(() => books.approve('bob', 'E-090')).toThrow(ConflictError);
    expect(() => books.approve('bob', 'E-090')).toThrow(/bob's book/);
    expect(everything()).toEqual(before);
    books.setLimits('rita', 'bob', WIDE_LIMITS);
  });

  it('approves a PM’s own Expression: active, the old version archived, the check and the audit naming the person, one event on commit', async () => {
    addExpression(c(), { id: 'E-001', owner: 'alice', notional: 10 });
    const listener = new pg.Client({ connectionString: desk.url });
    await listener.connect();
    const heard: string[] = [];
    listener.on('notification', (n) => heard.push(n.payload ?? ''));
    await listener.query('LISTEN forge_desk');
    try {
      const previous = c().one<{ content_hash: string }>("SELECT content_hash FROM memory_records WHERE id = 'E-001'")!;
      const out = books.approve('alice', 'E-001');
      expect(out).toMatchObject({ approved: true, changed: true, status: 'active', checked: true });

      const row = c().one<{ id: string; title: string; status: string; header: string; body: string; content_hash: string }>(
        "SELECT id, title, status, header, body, content_hash FROM memory_records WHERE category = 'expressions' AND id = 'E-001'",
      )!;
      const header = JSON.parse(row.header);
      expect(row.status).toBe('active');
      expect(header).toMatchObject({ status: 'active', approved_by: 'alice' });
      expect(header.activated_at).toBe(header.approved_at);
      // The hash is the store's: sha256 of the canonical text, so export and lineage verify it.
      expect(row.content_hash).toBe(sha256(renderRecord({ id: row.id, title: row.title, header, body: row.body })));
      const archived = c().one<{ content: string; content_hash: string }>("SELECT content, content_hash FROM memory_archive WHERE id = 'E-001'")!;
      expect(archived.content_hash).toBe(previous.content_hash);
      expect(archived.content).toMatch(/^status: proposed$/m);

      const audit = c().query<{ actor: string; operation: string }>("SELECT actor, operation FROM audit_log WHERE path LIKE '%E-001%' ORDER BY seq");
      expect(audit).toEqual([
        { actor: 'alice', operation: 'archive' },
        { actor: 'alice', operation: 'approve' },
      ]);
      const check = c().one<{ outcome: string; actor: string; passed: string; checks: string }>(
        "SELECT outcome, actor, passed, checks FROM guardrail_checks WHERE path = '/memory/expressions/E-001.md'",
      )!;
      expect(check).toMatchObject({ outcome: 'approved', actor: 'alice' });
      const rows = JSON.parse(check.checks) as { rule: string; book: string; value: unknown; pass: boolean }[];
      // Checked against both books: alice's gross and the desk's, each with the figure the trade made it.
      expect(rows.filter((r) => r.rule === 'max_gross_exposure')).toEqual([
        expect.objectContaining({ book: 'alice', value: 10, pass: true }),
        expect.objectContaining({ book: 'desk', value: 10, pass: true }),
      ]);

      for (let i = 0; i < 100 && heard.length === 0; i++) await new Promise((r) => setTimeout(r, 50));
      expect(heard.map((p) => JSON.parse(p))).toEqual([{ kind: 'expression.approved', id: 'E-001', owner: 'alice', by: 'alice' }]);

      // Approving it again (a double-click, a retry on another server) changes nothing and records nothing.
      const before = everything();
      expect(books.approve('alice', 'E-001')).toMatchObject({ approved: true, changed: false, checked: false });
      expect(everything()).toEqual(before);
    } finally {
      await listener.end();
    }
  });

  it("refuses another PM's Expression and an analyst's approval, writing nothing", () => {
    addExpression(c(), { id: 'E-002', owner: 'bob', notional: 1 });
    const before = everything();
    expect(() => books.approve('alice', 'E-002')).toThrow(ForbiddenError);
    expect(() => books.approve('alice', 'E-002')).toThrow(/may not approve an Expression owned by bob/);
    expect(() => books.approve('ann', 'E-002')).toThrow(/is an analyst and may not approve an Expression/);
    expect(() => books.approve('rita', 'E-002')).toThrow(ForbiddenError);
    expect(everything()).toEqual(before);
    expect(statusOf('E-002')).toBe('proposed');
  });

  it('refuses a halted PM until risk resumes them, and keeps who halted, when and why', () => {
    addExpression(c(), { id: 'E-003', owner: 'bob', notional: 1 });
    expect(() => books.halt('alice', 'bob', 'no')).toThrow(ForbiddenError);
    expect(books.halt('rita', 'bob', 'breached stop on E-002')).toMatchObject({ halted: true, changed: true });
    expect(books.halt('rita', 'bob', 'again')).toMatchObject({ halted: true, changed: false });
    expect(books.bookOf('bob').halt).toMatchObject({ haltedBy: 'rita', reason: 'breached stop on E-002' });

    const before = everything();
    expect(() => books.approve('bob', 'E-003')).toThrow(/bob was halted by rita/);
    expect(everything()).toEqual(before);

    expect(books.resume('rita', 'bob', 'reviewed with the CIO')).toMatchObject({ halted: false, changed: true });
    expect(books.approve('bob', 'E-003')).toMatchObject({ approved: true, changed: true });
    const history = c().query<{ halted_by: string; resumed_by: string; resume_reason: string }>(
      "SELECT halted_by, resumed_by, resume_reason FROM desk_halts WHERE pm_id = 'bob'",
    );
    expect(history).toEqual([{ halted_by: 'rita', resumed_by: 'rita', resume_reason: 'reviewed with the CIO' }]);
  });

  it('refuses a trade that breaches the desk limit though it fits the PM’s book: the refused check is kept, nothing else changes', () => {
    // Desk gross 50: alice holds 10, bob 1 (E-003); bob's book allows 1000.
    addExpression(c(), { id: 'E-004', owner: 'bob', notional: 45 });
    const before = everything();
    const out = books.approve('bob', 'E-004');
    expect(out).toMatchObject({ approved: false, changed: false, checked: true, status: 'proposed' });
    expect(out.violations.map((v) => [v.book, v.rule])).toEqual([['desk', 'max_gross_exposure']]);
    expect(everything()).toEqual({ ...before, checks: before.checks + 1 });
    expect(statusOf('E-004')).toBe('proposed');
    expect(c().one("SELECT outcome, actor FROM guardrail_checks WHERE path = '/memory/expressions/E-004.md'")).toEqual({ outcome: 'refused', actor: 'bob' });
  });

  it('refuses a trade that breaches the PM’s own book though the desk has room', () => {
    // alice's book: gross 30, she holds 10.
    addExpression(c(), { id: 'E-005', owner: 'alice', notional: 25 });
    const out = books.approve('alice', 'E-005');
    expect(out.approved).toBe(false);
    expect(out.violations.map((v) => [v.book, v.rule])).toEqual([['alice', 'max_gross_exposure']]);
    expect(statusOf('E-005')).toBe('proposed');
  });

  it("announces risk's changes to every server (the PM's Home shows the halt without a reload), and only changes", async () => {
    const listener = new pg.Client({ connectionString: desk.url });
    await listener.connect();
    const heard: { kind: string }[] = [];
    listener.on('notification', (n) => heard.push(JSON.parse(n.payload ?? '{}')));
    await listener.query('LISTEN forge_desk');
    try {
      books.halt('rita', 'alice', 'limit review');
      books.halt('rita', 'alice', 'limit review'); // already halted: nothing changed, nothing said
      books.resume('rita', 'alice', 'done');
      books.setLimits('rita', 'alice', { ...WIDE_LIMITS, maxGross: 30 });
      expect(() => books.setLimits('alice', 'alice', WIDE_LIMITS)).toThrow(ForbiddenError);
      for (let i = 0; i < 100 && heard.length < 3; i++) await new Promise((r) => setTimeout(r, 50));
      await new Promise((r) => setTimeout(r, 200));
      expect(heard).toEqual([
        { kind: 'pm.halted', pm: 'alice', by: 'rita' },
        { kind: 'pm.resumed', pm: 'alice', by: 'rita' },
        { kind: 'book.limits_changed', book: 'alice', by: 'rita' },
      ]);
    } finally {
      await listener.end();
    }
  });

  it("shows each book's figures against its limits: a PM's live Expressions, and every live one on the desk", () => {
    const alice = books.bookOf('alice');
    expect(alice).toMatchObject({ bookId: 'alice', kind: 'pm', gross: 10, factors: { us_rates: 10 }, withinLimits: true, halt: null });
    expect(alice.open.map((o) => o.id)).toEqual(['E-001']);
    const deskBook = books.deskBook();
    expect(deskBook.gross).toBe(11);
    expect(deskBook.open.map((o) => o.id)).toEqual(['E-001', 'E-003']);
    expect(deskBook.usage.find((u) => u.rule === 'max_gross_exposure')).toMatchObject({ value: 11, limit: 50 });
    // What risk reads: the same books, from one snapshot in one transaction.
    expect(books.booksAtOnce(['alice', 'bob'])).toEqual([deskBook, alice, books.bookOf('bob')]);
    expect(() => books.booksAtOnce(['nobody'])).toThrow(/nobody has no book/);
  });

  it('approves a trade sent back for review without counting it twice, keeping when it first went live', () => {
    // alice: limit 30, holds E-001 (10); E-006 (15) is live under review. Counted twice it would make 40.
    addExpression(c(), { id: 'E-006', owner: 'alice', notional: 15, status: 'review_required' });
    expect(books.bookOf('alice').gross).toBe(25);
    const out = books.approve('alice', 'E-006');
    expect(out).toMatchObject({ approved: true, changed: true });
    const header = JSON.parse(c().one<{ header: string }>("SELECT header FROM memory_records WHERE id = 'E-006'")!.header);
    expect(header).toMatchObject({ status: 'active', activated_at: '2026-11-01T09:00:00.000Z', approved_by: 'alice' });
    expect(books.bookOf('alice').gross).toBe(25);
  });
});
