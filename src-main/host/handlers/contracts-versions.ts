import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { NotFoundError } from '../../common/errors';
import { writeFileAtomic } from '../../common/atomic-file';
import { sha256 } from '../../fs';

/**
 * Earlier texts of the contracts in one folder, kept beside them as skills keep theirs
 * (src-main/evolution/versions.ts): `.versions/<file>/<n>.<ext>` is the full text of version n and
 * `.versions/<file>/<n>.json` says who made it, when and why. The meta is written last, so a
 * version exists only once its text is safely on disk. Dot-folders are not contracts: listings
 * and the MCP server skip them.
 */

export const CONTRACT_VERSIONS_DIR = '.versions';

export interface ContractVersion {
  version: number;
  createdAt: string;
  by: string;
  reason: string;
  hash: string;
  bytes: number;
}

const META_RE = /^(\d{1,9})\.json$/;

function extOf(file: string): string {
  const dot = file.lastIndexOf('.');
  return dot >= 0 ? file.slice(dot + 1) : 'txt';
}

export class ContractVersionStore {
  constructor(readonly folder: string) {}

  private dirOf(file: string): string {
    return join(this.folder, CONTRACT_VERSIONS_DIR, file);
  }

  private textPath(file: string, version: number): string {
    return join(this.dirOf(file), `${version}.${extOf(file)}`);
  }

  /** Oldest first; an unreadable or foreign meta file does not count as a version. */
  list(file: string): ContractVersion[] {
    const dir = this.dirOf(file);
    if (!existsSync(dir)) return [];
    const out: ContractVersion[] = [];
    for (const entry of readdirSync(dir)) {
      const m = META_RE.exec(entry);
      if (!m) continue;
      try {
        const meta = JSON.parse(readFileSync(join(dir, entry), 'utf8')) as ContractVersion;
        if (meta.version === Number(m[1]) && typeof meta.hash === 'string') out.push(meta);
      } catch {
        // skipped: its version simply does not count
      }
    }
    return out.sort((a, b) => a.version - b.version);
  }

  latest(file: string): ContractVersion | null {
    return this.list(file).at(-1) ?? null;
  }

  read(file: string, version: number): string {
    const all = this.list(file);
    const v = all.find((x) => x.version === version);
    if (!v) throw new NotFoundError(`${file} has no version ${version}; its versions: ${all.map((x) => x.version).join(', ') || 'none yet'}.`);
    const text = readFileSync(this.textPath(file, version), 'utf8');
    if (sha256(text) !== v.hash)
      throw new NotFoundError(`Version ${version} of ${file} is damaged on disk (its text does not match its hash); choose another version.`);
    return text;
  }

  record(file: string, text: string, meta: { by: string; reason: string; at: string }): ContractVersion {
    const version = (this.latest(file)?.version ?? 0) + 1;
    const v: ContractVersion = { version, createdAt: meta.at, by: meta.by, reason: meta.reason, hash: sha256(text), bytes: Buffer.byteLength(text, 'utf8') };
    writeFileAtomic(this.textPath(file, version), text, 0o644);
    writeFileAtomic(join(this.dirOf(file), `${version}.json`), `${JSON.stringify(v, null, 2)}\n`, 0o644);
    return v;
  }

  /** Keeps the text on disk as a version before it is replaced: the shipped text, or a hand edit since the last save. */
  ensureRecorded(file: string, currentText: string, at: string): ContractVersion {
    const last = this.latest(file);
    if (last && last.hash === sha256(currentText)) return last;
    return this.record(file, currentText, {
      by: 'forge',
      at,
      reason: last ? `edited outside Forge after version ${last.version}` : 'the text before the first edit in Forge',
    });
  }

  /**
   * The version number of the text on disk: the last version when it matches, else the number
   * that text will be kept as (an edit outside Forge), 0 when nothing was ever recorded.
   */
  currentVersion(file: string, diskHash: string): number {
    const last = this.latest(file);
    if (!last) return 0;
    return last.hash === diskHash ? last.version : last.version + 1;
  }
}
