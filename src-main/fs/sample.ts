import { ConflictError } from '../common/errors';
import { parseRecord, renderRecord } from './codec';
import type { ForgeFS } from './forge-fs';
import { sha256 } from './hash';
import { readSeedFiles, SEEDED_MARKER } from './seed';
import type { WriteContext } from './types';

/**
 * The sample workspace a new data folder starts with (seed.ts) is offered, not forced: while the
 * PM has not touched it, one call clears it. "Touched" is judged from memory itself, not from a
 * flag, so an edit through any door (the editor, the analyst, an attached IDE) counts.
 *
 * - `untouched`: seeded, every seeded record still identical to its seed file, no other record.
 * - `in-use`: the PM (or the analyst) changed, removed or added a record: clearing is refused.
 * - `cleared`: the sample was cleared; nothing to offer.
 * - `none`: never seeded (an empty workspace, or one that held records before seeding).
 */
export type SampleState = 'untouched' | 'in-use' | 'cleared' | 'none';

/** Set when the sample is cleared, so the offer does not come back on the now-empty workspace. */
export const SAMPLE_CLEARED_MARKER = 'sample_cleared_at';

/** What stays after clearing, in the PM's words (the Home card and the CLI show it). */
export const PORTFOLIO_STAYS = 'The sample positions and limits stay until you import your own or edit them.';

/**
 * Calibration files are the tracker's, recomputed from data (hourly and after every close), so
 * they differ from the seed without the PM doing anything: they say nothing about use.
 */
const TRACKER_CATEGORIES = new Set(['calibration']);

export interface SampleStatus {
  state: SampleState;
  /** Seeded memory records (calibration aside) still identical to their seed file. */
  sampleRecords: number;
  /** Why the workspace is in use, first reason only (a PM-readable sentence), when it is. */
  reason?: string;
}

export interface ClearSampleResult {
  /** The sample records removed (each archived, as every delete is). */
  removed: string[];
  /** Calibration files the tracker rewrote from the now-empty data. */
  recalibrated: string[];
  /** The /portfolio files left in place. */
  kept: string[];
  message: string;
}

interface SeedRecord {
  path: string;
  category: string;
  id: string;
  /** The hash the write path stores for this seed file (of its canonical rendering). */
  hash: string;
}

const canonical = (content: string): string | null => {
  try {
    return renderRecord(parseRecord(content));
  } catch {
    return null;
  }
};

function seedRecords(seedDir: string): SeedRecord[] {
  const out: SeedRecord[] = [];
  for (const f of readSeedFiles(seedDir)) {
    const m = /^\/memory\/([^/]+)\/([^/]+)\.md$/.exec(f.path);
    if (!m || TRACKER_CATEGORIES.has(m[1]!)) continue;
    const c = canonical(f.content);
    if (c !== null) out.push({ path: f.path, category: m[1]!, id: m[2]!, hash: sha256(c) });
  }
  return out;
}

/** Reads the state; synchronous, so a write transaction can re-check it under its lock. */
function inspect(fs: ForgeFS, records: SeedRecord[]): SampleStatus {
  const store = fs.store;
  if (store.getMeta(SAMPLE_CLEARED_MARKER)) return { state: 'cleared', sampleRecords: 0 };
  if (!store.getMeta(SEEDED_MARKER) || records.length === 0) return { state: 'none', sampleRecords: 0 };
  let identical = 0;
  let reason: string | undefined;
  for (const r of records) {
    const row = store.records.get(r.category, r.id);
    if (!row) reason ??= `${r.path} was removed.`;
    else if (row.content_hash !== r.hash) reason ??= `${r.path} was edited.`;
    else identical++;
  }
  // Any record the seed did not write (a new View, an Outcome of a closed sample trade) is use.
  const expected = new Map<string, number>();
  for (const r of records) expected.set(r.category, (expected.get(r.category) ?? 0) + 1);
  for (const { category, n } of store.records.categoryCounts()) {
    if (TRACKER_CATEGORIES.has(category)) continue;
    if (n > (expected.get(category) ?? 0)) reason ??= `A record was written in /memory/${category}/.`;
  }
  return reason ? { state: 'in-use', sampleRecords: identical, reason } : { state: 'untouched', sampleRecords: identical };
}

/** Whether the workspace still holds only the untouched sample. */
export function sampleState(fs: ForgeFS, seedDir: string): SampleStatus {
  return inspect(fs, seedRecords(seedDir));
}

/**
 * Removes the sample records in one transaction through the normal write path (archived and
 * audited as the PM's), only while the workspace is untouched; refuses with a ConflictError once
 * it is in use, so nothing the PM wrote or edited is ever removed. /portfolio files stay (the PM
 * replaces them by importing). The calibration files are then recomputed from the emptied data by
 * `regenerateCalibration` (the tracker's function, passed in: fs sits below tracking).
 */
export async function clearSample(
  fs: ForgeFS,
  seedDir: string,
  options: { regenerateCalibration?: (fs: ForgeFS) => Promise<{ written: string[] }>; writer?: WriteContext } = {},
): Promise<ClearSampleResult> {
  const records = seedRecords(seedDir);
  const writer: WriteContext = options.writer ?? { actor: 'pm' };
  const refuse = (status: SampleStatus) => {
    if (status.state === 'untouched') return;
    const why: Record<Exclude<SampleState, 'untouched'>, string> = {
      'in-use': `This workspace is in use (${status.reason ?? 'it was changed'}), so the sample stays: Forge removes nothing you may have relied on. Delete records one by one instead.`,
      cleared: 'The sample workspace was already cleared.',
      none: 'This workspace was not started from the sample, so there is nothing to clear.',
    };
    throw new ConflictError(why[status.state]);
  };
  refuse(inspect(fs, records));
  const removed = await fs.transaction((tx) => {
    // Re-checked under the write lock: the analyst or an attached IDE may have written meanwhile.
    refuse(inspect(fs, records));
    for (const r of records) tx.deleteFile(r.path, writer);
    fs.store.setMeta(SAMPLE_CLEARED_MARKER, new Date().toISOString());
    return records.map((r) => r.path);
  });
  const recalibrated = options.regenerateCalibration ? (await options.regenerateCalibration(fs)).written : [];
  const kept = fs
    .listDir('/portfolio')
    .entries.filter((e) => !e.isDir)
    .map((e) => e.path);
  return {
    removed,
    recalibrated,
    kept,
    message: `Removed ${removed.length} sample records. ${PORTFOLIO_STAYS}`,
  };
}
