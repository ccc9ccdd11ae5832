import type { RecordInput, Store } from '../store';
import { categoryInfo } from './categories';
import { parseRecord, renderRecord } from './codec';
import { sha256 } from './hash';
import { recordColumns } from './memory-backend';

/** One memory record as it stood at an instant: the row to write and the file text it renders to. */
export interface RecordAsOf {
  path: string;
  /** current: the live row was already this version; archived: an earlier version from /memory/.archive/. */
  from: 'current' | 'archived';
  row: RecordInput;
}

export interface MemoryAsOf {
  records: RecordAsOf[];
  /** Records that existed then but whose version of then was not kept (unversioned categories changed since). */
  leftOut: { path: string; why: string }[];
}

interface CandidateRow {
  category: string;
  id: string;
  created_at: string;
  updated_at: string;
  archived: string | null;
  /** When the version current at the cutoff was written: the previous version was archived then. */
  began: string | null;
}

/**
 * Memory as it stood at `cutoff` (ISO instant), read from the record table and its archive — never
 * the live latest where a later version replaced it. A version archived at T was the live one from
 * the previous write until T, so the version current at the cutoff is the first one archived after
 * it (or the live row when none was). Records created after the cutoff are absent; a record of a
 * category that keeps no versions (Observations, Outcomes…) and was rewritten after the cutoff is
 * left out and named, rather than shown with its later text. Deleted records are not restored.
 */
export function memoryAsOf(store: Store, cutoff: string): MemoryAsOf {
  // One query: each record created by the cutoff with its first version archived after it.
  const rows = store.db
    .prepare(
      `SELECT r.category, r.id, r.created_at, r.updated_at, a.content AS archived,
              (SELECT max(c.archived_at) FROM memory_archive c WHERE c.category = r.category AND c.id = r.id AND c.archived_at <= @cutoff) AS began
         FROM memory_records r
         LEFT JOIN memory_archive a ON a.aid = (
           SELECT min(b.aid) FROM memory_archive b WHERE b.category = r.category AND b.id = r.id AND b.archived_at > @cutoff)
        WHERE r.created_at <= @cutoff
        ORDER BY r.category, r.id`,
    )
    .all({ cutoff }) as CandidateRow[];
  const records: RecordAsOf[] = [];
  const leftOut: MemoryAsOf['leftOut'] = [];
  for (const r of rows) {
    const path = `/memory/${r.category}/${r.id}.md`;
    if (r.archived !== null) {
      records.push({ path, from: 'archived', row: rowFromContent(r.category, r.archived, r.created_at, r.began ?? r.created_at) });
      continue;
    }
    const live = store.records.get(r.category, r.id)!;
    if (r.updated_at > cutoff && !categoryInfo(r.category)?.versioned) {
      leftOut.push({ path, why: `changed on ${r.updated_at.slice(0, 10)} and its ${categoryInfo(r.category)?.noun ?? 'record'}s keep no earlier versions` });
      continue;
    }
    // A versioned record rewritten after the cutoff without an archive entry was rewritten identically.
    const { rid: _rid, ...row } = live;
    records.push({ path, from: 'current', row: { ...row, updated_at: row.updated_at > cutoff ? (r.began ?? row.created_at) : row.updated_at } });
  }
  return { records, leftOut };
}

/** The row an archived file text stands for, as MemoryBackend.write would have stored it. */
function rowFromContent(category: string, content: string, createdAt: string, began: string): RecordInput {
  const doc = parseRecord(content);
  return {
    ...recordColumns(category, doc),
    created_at: createdAt,
    updated_at: began,
    content_hash: sha256(renderRecord(doc)),
  };
}
