import { renderRecord, sha256 } from '../../fs';
import type { PostgresConnection } from '../../store/postgres/connection';

/**
 * A small desk for the books' tests and the race script: two PMs (alice, bob) with their books, a
 * risk manager (rita), an analyst (ann), a viewer (vic), one View (V-001), and Expressions written
 * as the store writes them (canonical text, its sha256) with their owner in desk_record_access.
 */
export function seedBooksDesk(connection: PostgresConnection): void {
  connection.transaction(() => {
    const users: [string, string][] = [
      ['alice', 'pm'],
      ['bob', 'pm'],
      ['rita', 'risk'],
      ['ann', 'analyst'],
      ['vic', 'viewer'],
    ];
    for (const [id, role] of users) connection.run('INSERT INTO desk_users (user_id, display_name, role) VALUES ($1, $1, $2)', [id, role]);
    for (const pm of ['alice', 'bob']) connection.run("INSERT INTO desk_books (book_id, kind, owner_id) VALUES ($1, 'pm', $1)", [pm]);
    insertRecord(connection, 'views', {
      id: 'V-001',
      title: 'Fed cuts first',
      header: { status: 'active', confidence: 0.7, scope: 'us_rates' },
      body: 'Why.\n',
    });
  });
}

export interface SeedExpression {
  id: string;
  owner: string;
  notional: number;
  status?: string;
  factor?: string;
  maxLossPct?: number;
  durationImpact?: number;
}

export function addExpression(connection: PostgresConnection, e: SeedExpression): void {
  connection.transaction(() => {
    const header = {
      status: e.status ?? 'proposed',
      view_id: 'V-001',
      instrument: 'UST 10y',
      direction: 'long',
      notional: e.notional,
      max_loss_pct: e.maxLossPct ?? 1,
      duration_impact: e.durationImpact ?? 0.5,
      factor: e.factor ?? 'us_rates',
      ...(e.status === 'active' || e.status === 'review_required' ? { activated_at: '2026-11-01T09:00:00.000Z' } : {}),
    };
    const rid = insertRecord(connection, 'expressions', { id: e.id, title: `Long 10y (${e.owner})`, header, body: 'Thesis.\n' });
    connection.run("INSERT INTO desk_record_access (rid, owner_id, visibility) VALUES ($1, $2, 'private')", [rid, e.owner]);
  });
}

function insertRecord(
  connection: PostgresConnection,
  category: string,
  doc: { id: string; title: string; header: Record<string, string | number>; body: string },
): string {
  const at = '2026-11-01T08:00:00.000Z';
  const status = typeof doc.header.status === 'string' ? doc.header.status : null;
  const row = connection.one<{ rid: string }>(
    `INSERT INTO memory_records (category, id, title, status, view_id, meta, created_at, updated_at, header, body, content_hash)
     VALUES ($1, $2, $3, $4, $5, '', $6, $6, $7, $8, $9) RETURNING rid`,
    [category, doc.id, doc.title, status, doc.header.view_id ?? null, at, JSON.stringify(doc.header), doc.body, sha256(renderRecord(doc))],
  );
  return row!.rid;
}

export const WIDE_LIMITS = { maxSingleRisk: 5, maxGross: 1000, maxDuration: 5, maxFactorConcentration: 100 };
