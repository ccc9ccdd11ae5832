import { atDepth, compileQueryFor, countLines, parseQuery, type ReadDepth } from '../../fs';
import { limitsFromConstraints } from '../../tools';
import { recordVersion, writeAsPm } from './memory-write';
import { expressionChecks, expressionReview } from './expression-checks';
import { actingPerson } from '../../desk/people';
import { readableAudit } from '../../desk/sharing';
import { connectionOf } from '../../store/postgres/postgres-db';
import type { PartialHandlerMap } from './types';

/** Default read depth by path, as the analyst's read tool (seed §3.1): memory opens at its header. */
function defaultDepth(path: string): ReadDepth {
  if (path.startsWith('/memory/') && !path.startsWith('/memory/.archive/')) return 'header';
  if (path.startsWith('/session/') && (path.includes('/results/') || path.includes('/context/'))) return 'summary';
  return 'full';
}

// Header fields are whatever the record says: a table cell shows text or a number, never an object.
const text = (v: unknown): string | null => (typeof v === 'string' ? v : typeof v === 'number' ? String(v) : null);
// `notional: 12.0` stays text in the header so it round-trips; the table shows it as the number it is.
const number = (v: unknown): number | null => {
  const n = typeof v === 'number' ? v : typeof v === 'string' && v.trim() !== '' ? Number(v) : Number.NaN;
  return Number.isFinite(n) ? n : null;
};

export const memoryHandlers: PartialHandlerMap = {
  'memory/list': async (input, ctx) => {
    await ctx.memory.ready;
    return ctx.memory.fs.listDir(input.path, input.query, { limit: input.limit, offset: input.offset });
  },
  'memory/table': async (input, ctx) => {
    await ctx.memory.ready;
    const filter = input.query?.trim() ? compileQueryFor(ctx.memory.store.db, parseQuery(input.query)) : null;
    const { rows, total } = ctx.memory.store.tables.page({ ...input, filter });
    return {
      category: input.category,
      rows: rows.map((r) => ({
        id: r.id,
        path: `/memory/${input.category}/${r.id}.md`,
        title: r.title,
        status: r.status,
        confidence: r.confidence,
        horizon: text(r.horizon),
        category: text(r.view_category),
        scope: r.scope,
        instrument: text(r.instrument),
        notional: number(r.notional),
        maxLossPct: number(r.max_loss_pct),
        viewId: r.view_id,
        updatedAt: r.updated_at,
        previousConfidence: r.previous_confidence,
      })),
      total,
      offset: input.offset,
      limit: input.limit,
    };
  },
  'memory/read': async (input, ctx) => {
    await ctx.memory.ready;
    const fs = ctx.memory.fs;
    const full = fs.readFile(input.path);
    const depth = input.depth ?? defaultDepth(input.path);
    const info = fs.recordInfo(input.path);
    return {
      path: fs.normalize(input.path),
      depth,
      content: atDepth(full, depth),
      totalLines: countLines(full),
      record: info && {
        id: info.id,
        category: info.category,
        title: info.title,
        status: info.status,
        confidence: info.confidence,
        weight: info.weight,
        scope: info.scope,
        viewId: info.viewId,
        createdAt: info.createdAt,
        updatedAt: info.updatedAt,
        header: info.header,
        version: recordVersion(fs, input.path) ?? 1,
      },
    };
  },
  'memory/history': async (input, ctx) => {
    await ctx.memory.ready;
    const h = ctx.memory.fs.history(input.path);
    return {
      path: h.path,
      current: h.current && { updatedAt: h.current.updatedAt, contentHash: h.current.contentHash },
      versions: h.versions,
    };
  },
  'memory/write': async (input, ctx) => {
    await ctx.memory.ready;
    const fs = ctx.memory.fs;
    // The same limits the analyst's write tool and expressions/approve check against, read only
    // when an Expression is checked: an unreadable constraints.md refuses trades, not View edits.
    const limits = () => limitsFromConstraints(fs.exists('/portfolio/constraints.md') ? fs.readFile('/portfolio/constraints.md') : null);
    return writeAsPm(fs, input, limits);
  },
  'expressions/checks': async (input, ctx) => {
    await ctx.memory.ready;
    const fs = ctx.memory.fs;
    // The same limits approval checks against, so a row that passes here passes at Approve.
    const limits = limitsFromConstraints(fs.exists('/portfolio/constraints.md') ? fs.readFile('/portfolio/constraints.md') : null);
    const checked = expressionChecks(fs, input.id, limits);
    return { id: input.id, ...checked, review: expressionReview(fs, input.id) };
  },
  'memory/audit': async (input, ctx) => {
    await ctx.memory.ready;
    const limit = input.limit ?? 100;
    let path = input.path;
    if (path !== undefined) path = ctx.memory.fs.normalize(path);
    // On a desk, a person other than risk sees rows only about records they may read (readableAudit).
    const person = actingPerson();
    const desk = person && person.role !== 'risk' ? connectionOf(ctx.memory.store.db) : undefined;
    const options = { path, limit: limit + 1, before: input.before };
    const rows = desk && person ? readableAudit(desk, person.userId, options) : ctx.memory.store.audit.list(options);
    const page = rows.slice(0, limit);
    return {
      entries: page.map((r) => ({
        seq: r.seq,
        at: r.at,
        actor: r.actor,
        operation: r.operation,
        path: r.path,
        sessionId: r.session_id,
        taskId: r.task_id,
        contentHash: r.content_hash,
      })),
      nextBefore: rows.length > limit ? page[page.length - 1].seq : null,
    };
  },
};
