import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Store } from '../store';
import { PostgresConnection } from '../store/postgres/connection';
import { openDeskStore } from '../store/postgres/desk-store';
import { skipWithoutPostgres } from '../store/postgres/test-server';
import { type PostgresWorkspaces, startPostgresWorkspaces } from '../store/postgres/test-workspaces';
import { HashNgramEmbedder } from './hash-embedder';
import { PassageVectorCache } from './passage-cache';

/**
 * The broker-note passage vectors each server of a desk holds in memory: re-read when any server
 * writes them, and not after a commit that changes none (before the desk's log, every search after
 * any commit anywhere on the desk re-read every passage vector).
 */
describe.skipIf(skipWithoutPostgres())('passage vectors kept current across the servers of a desk', { timeout: 120_000 }, () => {
  let workspaces: PostgresWorkspaces;
  let url: string;
  let a: Store;
  let b: Store;
  const embedder = new HashNgramEmbedder(64);
  beforeAll(async () => {
    workspaces = await startPostgresWorkspaces();
  }, 120_000);
  afterAll(async () => {
    await workspaces?.stop();
  });
  beforeEach(() => {
    url = workspaces.freshUrl();
    a = openDeskStore(url);
    b = openDeskStore(url);
  });
  afterEach(() => {
    a.close();
    b.close();
  });

  /** A broker-note passage with its vector, written by server `s` in one transaction (as the research index does). */
  const addPassage = (s: Store, note: string, text: string): number =>
    s.writeTransaction(() => {
      s.db
        .prepare(
          `INSERT INTO research_notes (note, mtime_ms, size, content_hash, note_date, date_from, title, passages, warning, indexed_at)
           VALUES (?, 0, 0, 'h', '2026-01-02', 'front_matter', ?, 1, NULL, '2026-01-01T00:00:00Z')`,
        )
        .run(note, note);
      const { passage } = s.db
        .prepare("INSERT INTO research_passages (text, section, note, page, ordinal) VALUES (?, '', ?, NULL, 1) RETURNING passage")
        .get(text, note) as { passage: number };
      s.db
        .prepare('INSERT INTO research_passage_vectors (passage, note, embedder, vector) VALUES (?, ?, ?, ?)')
        .run(passage, note, embedder.id, Buffer.from(embedder.embedOne(text).buffer));
      return Number(passage);
    });
  /** The passage ids server `s` finds nearest to `text`, best first. */
  const nearest = (s: Store, cache: PassageVectorCache, text: string): number[] => {
    const scan = cache.scan(s.db, embedder.id, embedder.embedOne(text), null);
    return [...scan.ids]
      .map((id, row) => [id, scan.cos[row]] as const)
      .sort((x, y) => y[1] - x[1])
      .map(([id]) => id);
  };

  // If this failed, an analyst's search of broker notes on a busy desk would re-read every passage vector after any commit (a saved session, an audit row).
  it('re-reads the vectors after another server writes them, and not after a commit that changes none', () => {
    const cache = new PassageVectorCache();
    const copper = addPassage(a, 'gs-copper.pdf', 'Copper inventories falling on Chinese stimulus.');
    expect(nearest(b, cache, 'copper China stimulus')[0]).toBe(copper);
    const loads = cache.reloads;

    a.audit.append({ at: '2026-05-01', actor: 'pm', operation: 'create', path: '/memory/views/V-001.md', session_id: null, task_id: null, content_hash: 'x' });
    const other = PostgresConnection.open(url);
    try {
      other.run("INSERT INTO workspace_meta (key, value) VALUES ('unrelated', 'commit')");
    } finally {
      other.close();
    }
    expect(nearest(b, cache, 'copper China stimulus')[0]).toBe(copper);
    expect(cache.reloads).toBe(loads);

    // A passage another server indexed is found by the next search; one it removed is gone.
    const gilts = addPassage(a, 'ms-gilts.pdf', 'Gilts rally as the BoE cuts rates.');
    expect(nearest(b, cache, 'gilts BoE cuts')[0]).toBe(gilts);
    a.writeTransaction(() => a.db.prepare('DELETE FROM research_passage_vectors WHERE note = ?').run('ms-gilts.pdf'));
    expect(nearest(b, cache, 'gilts BoE cuts')).not.toContain(gilts);
    expect(cache.reloads).toBe(loads + 2);
  });
});
