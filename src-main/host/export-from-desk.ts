import { chmodSync, copyFileSync, existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { AppError } from '../common/errors';
import { ensurePrivateDir } from '../common/private-files';
import { type PullOptions, type PullSummary, pullFromPostgres } from '../store/postgres';
import { SIGNING_KEY_FILE, signingKey } from './archive-signing';
import { type ExportResult, exportWorkspace } from './workspace-archive';

/**
 * `forge export <file> --from postgres://…`: a desk's database as the same signed archive a PM's
 * own workspace exports to, so `forge import` (or a PM's Forge) takes it as any other.
 *
 * The desk is pulled (store/postgres/pull.ts: one snapshot, verified row by row) into a private
 * temporary workspace folder, that folder is exported, and the folder is removed whatever happens:
 * a desk's data never stays behind in /tmp. The archive is signed with the PM's own key (from
 * `dataDir`, created there if the PM has none yet, as `forge export` does), so whoever imports it
 * can check the fingerprint against the PM's. It carries the database only: skills, contracts,
 * broker-note files and settings live on each PM's machine, not in the desk's database.
 */

export interface DeskExportResult extends ExportResult {
  /** The desk's database with its password masked. */
  source: string;
  pulled: PullSummary['tables'];
}

export interface DeskExportOptions {
  /** The PM's workspace folder, whose signing key signs the archive. */
  dataDir: string;
  now?: () => Date;
  pull?: PullOptions;
  /** Where the temporary workspace folder goes (tests: to check it is gone); default the OS's temporary folder. */
  temporaryRoot?: string;
}

export async function exportFromDesk(url: string, archive: string, options: DeskExportOptions): Promise<DeskExportResult> {
  const target = resolve(archive);
  // Before any connection: a name already taken is refused at once, as forge export does.
  if (existsSync(target)) throw new AppError('conflict', `${target} already exists; choose a new file name so nothing is overwritten.`);
  const folder = mkdtempSync(join(options.temporaryRoot ?? tmpdir(), 'forge-desk-export-'));
  try {
    // mkdtemp makes it 0700 on POSIX; said explicitly because the desk's whole database passes through it.
    chmodSync(folder, 0o700);
    const summary = await pullFromPostgres(url, join(folder, 'forge.db'), options.pull);
    // A PM with no workspace yet gets a folder holding just the key, as a first forge export would make.
    ensurePrivateDir(options.dataDir);
    signingKey(options.dataDir);
    copyFileSync(join(options.dataDir, SIGNING_KEY_FILE), join(folder, SIGNING_KEY_FILE));
    chmodSync(join(folder, SIGNING_KEY_FILE), 0o600);
    const result = exportWorkspace(folder, target, options.now);
    return { ...result, source: summary.source, pulled: summary.tables };
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
}

/** The command line's side: progress per table, then what was written and how to check it. Exit code 0/1. */
export async function exportFromDeskCli(url: string, file: string, dataDir: string): Promise<number> {
  try {
    const r = await exportFromDesk(url, file, {
      dataDir,
      pull: {
        onProgress: (p) => {
          if (p.phase === 'copied') console.log(`  ${p.table.padEnd(28)} ${String(p.rows).padStart(9)} rows read`);
        },
      },
    });
    const rows = r.pulled.reduce((n, t) => n + t.rows, 0);
    console.log(
      `forge export: ${rows} rows in ${r.pulled.length} tables from ${r.source}, verified row by row, → ${resolve(file)} (${r.records} records, no keys).`,
    );
    console.log(`Signed with this workspace's key ${r.fingerprint}; whoever imports it can check that fingerprint.`);
    console.log("The desk's database holds no skills, contracts, broker-note files or settings: those stay on each PM's machine.");
    return 0;
  } catch (e) {
    // Every message from the pull names the desk with its password masked.
    console.error(`forge export: ${(e as Error).message}`);
    return 1;
  }
}
