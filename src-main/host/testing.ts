import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import type { EventMessage } from '../api/events';
import { EnvSecretStore } from '../config/secrets';
import { createCore, type Core } from './core';

/**
 * A core on a fresh temp data folder, for tests and benchmarks; `dispose` removes everything.
 * With `database`, its workspace is that desk database (several such cores = several servers).
 */
export function tempCore(
  env: Record<string, string | undefined> = {},
  options: { database?: string } = {},
): { core: Core; dataDir: string; dispose(): Promise<void> } {
  const dataDir = mkdtempSync(join(tmpdir(), 'forge-test-'));
  const core = createCore({ dataDir, mode: 'test', secrets: new EnvSecretStore(env), database: options.database });
  return {
    core,
    dataDir,
    async dispose() {
      await core.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/**
 * Waits for the first event (already seen in `seen`, or arriving later) that matches `pred`; fails
 * after `ms` naming what it waited for. For tests that drive a run and wait for its end.
 */
export function untilEvent(core: Core, seen: readonly EventMessage[], pred: (m: EventMessage) => boolean, ms = 20_000): Promise<EventMessage> {
  return new Promise((resolve, reject) => {
    const hit = seen.find(pred);
    if (hit) return resolve(hit);
    const timer = setTimeout(() => {
      off();
      reject(new Error(`no matching event in ${ms} ms`));
    }, ms);
    const off = core.context.events.subscribe((m) => {
      if (pred(m)) {
        clearTimeout(timer);
        off();
        resolve(m);
      }
    });
  });
}

/**
 * A data folder holding the sample workspace with V-001 edited to version 2 (its first version
 * archived), and the audit rows those writes leave: what the desk tests move to PostgreSQL and back.
 */
export async function seedSampleWithEditedView(dataDir: string): Promise<void> {
  const core = createCore({ dataDir, mode: 'test', secrets: new EnvSecretStore({}) });
  try {
    await core.context.memory.ready;
    const fs = core.context.memory.fs;
    const v1 = fs.readFile('/memory/views/V-001.md');
    await fs.writeFile('/memory/views/V-001.md', v1.replace('confidence: 0.7', 'confidence: 0.55'), { actor: 'pm' });
  } finally {
    await core.close();
  }
}

/**
 * seedSampleWithEditedView plus rows in the tables the sample leaves empty, chosen for what a copy
 * to PostgreSQL and back could get wrong: an integer past 2^53, a REAL, accented text, a blob, FTS5
 * passages keyed by rowid, mixed-case keys and an AUTOINCREMENT counter ahead of its table's maximum.
 */
export async function seedDeskTestWorkspace(dataDir: string): Promise<void> {
  await seedSampleWithEditedView(dataDir);
  // Rows in the tables the sample leaves empty, written as Forge writes them (plain SQL on the real file):
  // an integer past 2^53, a REAL, accented text, a blob, FTS5 passages keyed by rowid (page bound as REAL,
  // as better-sqlite3 binds a JS number), and an AUTOINCREMENT counter ahead of its table's maximum.
  const db = new Database(join(dataDir, 'forge.db'));
  try {
    db.exec(`
      INSERT INTO sessions (id, created_at, last_active, turn_number) VALUES ('s-1', '2026-11-01T08:00:00Z', '2026-11-01T09:00:00Z', 3);
      INSERT INTO session_files (session_id, path, content, updated_at, content_hash) VALUES ('s-1', 'notes/Zürich é.md', 'café 🚀', '2026-11-01T09:00:00Z', 'h1');
      INSERT INTO tasks (session_id, id, skill, objective, spec, status, input_tokens, output_tokens, cost_usd, rounds, created_at, updated_at)
        VALUES ('s-1', 't-1', 'research', 'Check the curve', '{"a":1}', 'ok', 1200, 340, 0.1234, 2, '2026-11-01T08:10:00Z', '2026-11-01T08:12:00Z');
      INSERT INTO task_events (session_id, task_id, at, kind, detail) VALUES ('s-1', 't-1', 'a', 'started', ''), ('s-1', 't-1', 'b', 'ok', ''), ('s-1', 't-1', 'c', 'extra', '');
      DELETE FROM task_events WHERE kind = 'extra';
      INSERT INTO guardrail_checks (at, path, stage, outcome, passed, actor, checks) VALUES ('2026-11-01T08:20:00Z', '/memory/expressions/E-001.md', 'approve', 'approved', 1, 'pm', '[{"rule":"gross","value":120.5}]');
      INSERT INTO schedule_runs (job, trigger, started_at, finished_at, status, cost_usd) VALUES ('morning_review', 'manual', '2026-11-01T07:00:00Z', '2026-11-01T07:05:00Z', 'ok', 0.5);
      INSERT INTO review_reports (run_id, at, since, parsed, views, moved, fired, unmatched, warnings, report)
        VALUES ((SELECT max(id) FROM schedule_runs), '2026-11-01T07:05:00Z', '2026-10-31T07:00:00Z', 1, 2, 1, 0, 0, 0, '{"views":[]}');
      INSERT INTO research_notes (note, mtime_ms, size, content_hash, note_date, date_from, title, passages, indexed_at)
        VALUES ('broker/rates.md', 1764000000000, 2048, 'h2', '2026-10-30', 'front_matter', 'Rates outlook', 2, '2026-11-01T07:00:00Z');
      INSERT INTO workspace_meta (key, value) VALUES ('B-upper', '1'), ('a-lower', '2');
    `);
    db.prepare('INSERT INTO id_sequences (prefix, last) VALUES (?, ?)').run('BIG', 9007199254740993n);
    const passage = db.prepare('INSERT INTO research_passages (text, section, note, page, ordinal) VALUES (?, ?, ?, ?, ?)');
    passage.run('The curve steepens as the front end prices cuts.', 'Summary', 'broker/rates.md', 3, 0);
    const second = passage.run('Term premium rebuilds.', null, 'broker/rates.md', null, 1).lastInsertRowid;
    db.prepare('INSERT INTO research_passage_vectors (passage, note, embedder, vector) VALUES (?, ?, ?, ?)').run(
      second,
      'broker/rates.md',
      'hash-64',
      Buffer.from([0, 1, 2, 255]),
    );
  } finally {
    db.close();
  }
}
