import { InvalidInputError, NotFoundError } from '../common/errors';
import type { IndexableRecord, MemoryIndexer, RecordRow, Store } from '../store';
import { parseRecord, renderRecord, type MemoryDocument } from './codec';
import { CATEGORIES, categoryInfo, formatId, listingMeta } from './categories';
import { compactTimestamp, sha256 } from './hash';
import { compileQueryFor, parseQuery } from './query';
import { checkRecordAuthority, type RecordState } from './write-authority';
import type { ArchivedVersion, DirEntry, Listing, RecordInfo, WriteContext, WriteResult } from './types';

const toNumber = (v: unknown): number | null => {
  if (typeof v === 'number' && Number.isFinite(v)) return v;
  if (typeof v === 'string' && v.trim() !== '' && Number.isFinite(Number(v))) return Number(v);
  return null;
};
const toText = (v: unknown): string | null => (typeof v === 'string' && v !== '' ? v : typeof v === 'number' ? String(v) : null);

/**
 * The typed columns a record's row holds, read from its parsed text: one reading for every write and
 * for memory as it stood at a date (as-of.ts), so a replayed record filters exactly as the live one.
 */
export function recordColumns(category: string, doc: MemoryDocument) {
  const h = doc.header;
  const status = toText(h.status);
  return {
    category,
    id: doc.id,
    title: doc.title,
    status: status === null ? null : status.toLowerCase(),
    confidence: toNumber(h.confidence),
    weight: toNumber(h.weight),
    scope: toText(h.scope),
    view_id: toText(h.view_id ?? h.view),
    meta: listingMeta(category, h),
    header: JSON.stringify(h),
    body: doc.body,
  };
}

export function recordPath(category: string, id: string): string {
  return `/memory/${category}/${id}.md`;
}

export function rowToDocument(row: RecordRow): MemoryDocument {
  return { id: row.id, title: row.title, header: JSON.parse(row.header), body: row.body };
}

export function rowState(row: RecordRow): RecordState {
  return { status: row.status, header: JSON.parse(row.header) };
}

export function rowToInfo(row: RecordRow): RecordInfo {
  return {
    id: row.id,
    category: row.category,
    title: row.title,
    status: row.status,
    confidence: row.confidence,
    weight: row.weight,
    scope: row.scope,
    viewId: row.view_id,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
    header: JSON.parse(row.header),
    contentHash: row.content_hash,
  };
}

/** The id a new.md write will get is only known inside the transaction; the rest is known before. */
export function toIndexable(category: string, doc: MemoryDocument, id: string | null): IndexableRecord {
  const canonical = renderRecord({ ...doc, id: id ?? doc.id });
  return { category, id, title: doc.title, header: doc.header, body: doc.body, content: canonical };
}

/**
 * new.md content may carry a placeholder id (`# new — title`, `# V-??? — title`) or just a title
 * (`# Fed cuts first`); the assigned id replaces it.
 */
export function withAssignedId(content: string, id: string): string {
  const text = content.replace(/\r\n/g, '\n');
  const nl = text.indexOf('\n');
  const first = nl < 0 ? text : text.slice(0, nl);
  const rest = nl < 0 ? '' : text.slice(nl);
  if (!first.startsWith('# ')) {
    throw new InvalidInputError('Line 1: the first line must be the title line. Start the record with `# new — title`; the id is assigned for you.');
  }
  const line = first.slice(2);
  const sep = line.indexOf(' — ');
  let title: string;
  if (sep >= 0) title = line.slice(sep + 3);
  else if (!/\s/.test(line.trim())) title = '';
  else title = line.trim();
  return `# ${id}${title ? ` — ${title}` : ''}${rest}`;
}

/** Memory records in SQLite: read, list with the query language, write with archive and audit. */
export class MemoryBackend {
  constructor(
    private readonly store: Store,
    private readonly now: () => string,
  ) {}

  get(category: string, id: string): RecordRow | undefined {
    return this.store.records.get(category, id);
  }

  read(category: string, id: string): { content: string; row: RecordRow } {
    const row = this.store.records.get(category, id);
    if (!row) {
      const info = categoryInfo(category)!;
      throw new NotFoundError(`There is no ${info.noun} ${id}; list /memory/${category}/ to see what exists.`);
    }
    return { content: renderRecord(rowToDocument(row)), row };
  }

  readArchived(category: string, name: string): string {
    const a = this.store.records.archived(category, name);
    if (!a) throw new NotFoundError(`There is no archived version /memory/.archive/${category}/${name}; list /memory/.archive/${category}/ to see them.`);
    return a.content;
  }

  list(category: string, query: string | undefined, limit: number, offset: number): Listing {
    const ast = query?.trim() ? parseQuery(query) : null;
    const filter = ast ? compileQueryFor(this.store.db, ast) : null;
    // Words are counted only as far as the page (records.list says why); other filters up to the cap.
    const words = ast?.terms.some((t) => t.kind === 'text') ?? false;
    const { rows, total, totalCapped } = this.store.records.list(category, filter, limit, offset, words ? 'page' : 'capped');
    const entries: DirEntry[] = rows.map((r) => ({
      name: `${r.id}.md`,
      path: recordPath(category, r.id),
      isDir: false,
      id: r.id,
      title: r.title,
      meta: r.meta,
      status: r.status,
      updatedAt: r.updated_at,
    }));
    return { path: `/memory/${category}/`, entries, total, ...(totalCapped ? { totalCapped } : {}), limit, offset };
  }

  listRoot(): Listing {
    const counts = new Map(this.store.records.categoryCounts().map((c) => [c.category, c.n]));
    const entries: DirEntry[] = CATEGORIES.map((c) => ({
      name: `${c.name}/`,
      path: `/memory/${c.name}/`,
      isDir: true,
      id: null,
      title: '',
      meta: `${counts.get(c.name) ?? 0} records`,
      status: null,
      updatedAt: null,
    }));
    entries.push({ name: '.archive/', path: '/memory/.archive/', isDir: true, id: null, title: '', meta: 'earlier versions', status: null, updatedAt: null });
    return { path: '/memory/', entries, total: entries.length, limit: entries.length, offset: 0 };
  }

  listArchive(category: string | null, limit: number, offset: number): Listing {
    if (!category) {
      const entries: DirEntry[] = this.store.records.archiveCategories().map((c) => ({
        name: `${c.category}/`,
        path: `/memory/.archive/${c.category}/`,
        isDir: true,
        id: null,
        title: '',
        meta: `${c.n} versions`,
        status: null,
        updatedAt: null,
      }));
      return { path: '/memory/.archive/', entries, total: entries.length, limit: entries.length, offset: 0 };
    }
    const { rows, total } = this.store.records.archiveListing(category, limit, offset);
    const entries: DirEntry[] = rows.map((r) => ({
      name: r.name,
      path: `/memory/.archive/${category}/${r.name}`,
      isDir: false,
      id: r.id,
      title: r.title,
      meta: `${r.id} | archived ${r.archived_at}`,
      status: r.status,
      updatedAt: r.archived_at,
    }));
    return { path: `/memory/.archive/${category}/`, entries, total, limit, offset };
  }

  history(category: string, id: string): { current: RecordRow | undefined; versions: ArchivedVersion[] } {
    const versions = this.store.records.versions(category, id).map((v) => ({
      archivePath: `/memory/.archive/${category}/${v.name}`,
      archivedAt: v.archived_at,
      contentHash: v.content_hash,
      title: v.title,
      status: v.status,
      confidence: v.confidence,
    }));
    return { current: this.store.records.get(category, id), versions };
  }

  /** Takes the next id of a category (consumed: it will never be handed out again). Inside a write txn. */
  takeId(category: string): string {
    const info = categoryInfo(category);
    if (!info?.prefix) throw new InvalidInputError(`${category} files are named, not numbered; choose a name such as macro_regime.md.`);
    return formatId(info.prefix, this.store.records.takeNextNumber(info.prefix));
  }

  peekId(category: string): string {
    const info = categoryInfo(category);
    if (!info?.prefix) throw new InvalidInputError(`${category} files are named, not numbered; choose a name such as macro_regime.md.`);
    return formatId(info.prefix, this.store.records.lastNumber(info.prefix) + 1);
  }

  /** Copies the live version into the archive; returns its archive path. Inside a write txn. */
  archive(row: RecordRow, ctx: WriteContext, at: string): string {
    const base = `${row.id}_${compactTimestamp(at)}`;
    let name = `${base}.md`;
    for (let n = 2; this.store.records.archiveNameTaken(row.category, name); n++) name = `${base}_${n}.md`;
    const content = renderRecord(rowToDocument(row));
    this.store.records.archive({
      category: row.category,
      id: row.id,
      name,
      archived_at: at,
      title: row.title,
      status: row.status,
      confidence: row.confidence,
      content,
      content_hash: row.content_hash,
    });
    const archivePath = `/memory/.archive/${row.category}/${name}`;
    this.audit(ctx, 'archive', archivePath, row.content_hash, at);
    return archivePath;
  }

  /**
   * Writes one record inside the current write transaction: id assignment (new.md), archive of
   * the prior View/Expression, the row (and, by trigger, the keyword index), the search indexer
   * and the audit entry — all or nothing.
   */
  write(category: string, pathId: string | null, content: string, ctx: WriteContext, indexer: MemoryIndexer | undefined, prepared: unknown): WriteResult {
    const info = categoryInfo(category)!;
    const at = this.now();
    let doc: MemoryDocument;
    if (pathId === null) {
      // A new record never lands on one that exists: the id sequence can lag behind records copied
      // in by other means (an older tool, a DBA's insert), and an upsert would silently replace it.
      let id = this.takeId(category);
      while (this.store.records.get(category, id)) id = this.takeId(category);
      doc = parseRecord(withAssignedId(content, id));
    } else {
      doc = parseRecord(content);
      if (doc.id !== pathId) {
        throw new InvalidInputError(`Line 1: the record says ${doc.id} but the path is ${pathId}.md. Make the title line start with \`# ${pathId}\`.`);
      }
      if (info.prefix) this.store.records.reserveNumber(info.prefix, Number(pathId.slice(info.prefix.length + 1)));
    }
    const canonical = renderRecord(doc);
    const hash = sha256(canonical);
    const h = doc.header;
    const input = { ...recordColumns(category, doc), updated_at: at, content_hash: hash };
    // As written (not lower-cased): the authority rules read the status the writer gave.
    const status = toText(h.status);
    const previous = pathId === null ? undefined : this.store.records.get(category, doc.id);
    checkRecordAuthority({ category, path: recordPath(category, doc.id), kind: 'write', ctx }, previous && rowState(previous), { status, header: h });
    let archivedTo: string | null = null;
    if (previous && info.versioned && previous.content_hash !== hash) archivedTo = this.archive(previous, ctx, at);
    const { rid } = this.store.records.upsert(input, { previous });
    const path = recordPath(category, doc.id);
    const stored = { status: input.status ?? null, updated_at: at };
    indexer?.apply(this.store.db, { category, id: doc.id, rid, path, title: doc.title, header: h, body: doc.body, content: canonical, stored }, prepared);
    this.audit(ctx, ctx.operation ?? (previous ? 'update' : 'create'), path, hash, at);
    return { path, id: doc.id, created: !previous, archivedTo, contentHash: hash };
  }

  /** Removes a record, keeping its last version in the archive. Its id is never reused. */
  delete(category: string, id: string, ctx: WriteContext, indexer: MemoryIndexer | undefined): string {
    const row = this.store.records.get(category, id);
    if (!row) throw new NotFoundError(`There is no ${categoryInfo(category)!.noun} ${id} to delete.`);
    checkRecordAuthority({ category, path: recordPath(category, id), kind: 'delete', ctx }, rowState(row), null);
    const at = this.now();
    const archivedTo = this.archive(row, ctx, at);
    indexer?.remove(this.store.db, { rid: row.rid, category, id });
    this.store.records.delete(row.rid);
    this.audit(ctx, 'delete', recordPath(category, id), null, at);
    return archivedTo;
  }

  audit(ctx: WriteContext, operation: string, path: string, hash: string | null, at: string): void {
    this.store.audit.append({
      at,
      actor: ctx.actor,
      operation,
      path,
      session_id: ctx.sessionId ?? null,
      task_id: ctx.taskId ?? null,
      content_hash: hash,
    });
  }
}
