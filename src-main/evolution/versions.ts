import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { NotFoundError } from '../common/errors';
import { writeFileAtomic } from '../common/atomic-file';
import { sha256 } from '../fs';

/**
 * Earlier versions of a skill's files, kept inside the skill folder under `.versions/`:
 *   .versions/SKILL.md@1        the file's full text at version 1 (open it to read it)
 *   .versions/SKILL.md@1.json   who made that version, when and why
 * Dot-folders are not skill content: the SkillLoader, its resource list and ForgeFS listings all
 * skip them, so a version never enters a prompt. Every state a file reaches through Forge is a
 * version — the text before the first approved edit, each approved edit, each restore — and the
 * meta file is written last, so a version exists only once its text is safely on disk.
 */

export const VERSIONS_DIR = '.versions';

export interface SkillVersion {
  /** The file, relative to the skill folder (`SKILL.md`, `templates/output.md`). */
  file: string;
  version: number;
  createdAt: string;
  /** Who made it: the PM's name, `pm`, or `forge` for text found on disk. */
  by: string;
  reason: string;
  /** The approved proposal that produced it. */
  proposalId: string | null;
  /** The version it brought back, for a restore. */
  restoredFrom: number | null;
  hash: string;
  bytes: number;
  /** Where its text is, relative to the skill folder (readable with skills/read). */
  snapshot: string;
}

export interface VersionMeta {
  by: string;
  reason: string;
  at: string;
  proposalId?: string | null;
  restoredFrom?: number | null;
}

const META_RE = /@(\d{1,9})\.json$/;

function isVersion(v: unknown): v is SkillVersion {
  const x = v as SkillVersion;
  return (
    typeof x === 'object' &&
    x !== null &&
    typeof x.file === 'string' &&
    Number.isInteger(x.version) &&
    typeof x.createdAt === 'string' &&
    typeof x.by === 'string' &&
    typeof x.reason === 'string' &&
    typeof x.hash === 'string'
  );
}

/** The version store of one skill folder. */
export class SkillVersionStore {
  constructor(readonly skillDir: string) {}

  private snapshotRel(file: string, version: number): string {
    return `${VERSIONS_DIR}/${file}@${version}`;
  }

  private abs(rel: string): string {
    return join(this.skillDir, ...rel.split('/'));
  }

  /** Every recorded version, by file then version (oldest first); `file` narrows it to one file. */
  list(file?: string): SkillVersion[] {
    const root = join(this.skillDir, VERSIONS_DIR);
    if (!existsSync(root)) return [];
    const out: SkillVersion[] = [];
    const walk = (dir: string) => {
      for (const d of readdirSync(dir, { withFileTypes: true })) {
        const full = join(dir, d.name);
        if (d.isDirectory()) walk(full);
        else if (d.isFile() && META_RE.test(d.name)) {
          try {
            const meta = JSON.parse(readFileSync(full, 'utf8')) as unknown;
            const rel = relative(root, full).split(sep).join('/');
            // The meta must describe the file it sits beside; anything else is not ours.
            if (isVersion(meta) && `${meta.file}@${meta.version}.json` === rel) out.push(meta);
          } catch {
            // An unreadable meta file is skipped: its version simply does not count.
          }
        }
      }
    };
    walk(root);
    return out.filter((v) => file === undefined || v.file === file).sort((a, b) => a.file.localeCompare(b.file) || a.version - b.version);
  }

  latest(file: string): SkillVersion | null {
    const all = this.list(file);
    return all.length ? all[all.length - 1]! : null;
  }

  get(file: string, version: number): SkillVersion {
    const v = this.list(file).find((x) => x.version === version);
    if (!v) {
      const have = this.list(file).map((x) => x.version);
      throw new NotFoundError(`${file} has no version ${version}; its versions: ${have.join(', ') || 'none yet'}.`);
    }
    return v;
  }

  read(file: string, version: number): string {
    const v = this.get(file, version);
    const text = readFileSync(this.abs(v.snapshot), 'utf8');
    if (sha256(text) !== v.hash)
      throw new NotFoundError(`Version ${version} of ${file} is damaged on disk (its text does not match its hash); choose another version.`);
    return text;
  }

  /** Records `text` as the next version of `file`: the text first, then its meta. */
  record(file: string, text: string, meta: VersionMeta): SkillVersion {
    const version = (this.latest(file)?.version ?? 0) + 1;
    const snapshot = this.snapshotRel(file, version);
    const v: SkillVersion = {
      file,
      version,
      createdAt: meta.at,
      by: meta.by,
      reason: meta.reason,
      proposalId: meta.proposalId ?? null,
      restoredFrom: meta.restoredFrom ?? null,
      hash: sha256(text),
      bytes: Buffer.byteLength(text, 'utf8'),
      snapshot,
    };
    writeFileAtomic(this.abs(snapshot), text, 0o644);
    writeFileAtomic(this.abs(`${snapshot}.json`), `${JSON.stringify(v, null, 2)}\n`, 0o644);
    return v;
  }

  /**
   * Makes sure the file's current text is a version before it is replaced, so nothing is lost:
   * the text shipped with the skill (first edit) or an edit made by hand since the last version.
   */
  ensureRecorded(file: string, currentText: string, at: string): SkillVersion {
    const last = this.latest(file);
    if (last && last.hash === sha256(currentText)) return last;
    return this.record(file, currentText, {
      by: 'forge',
      at,
      reason: last ? `edited outside Forge's approvals after version ${last.version}` : 'the text before the first approved edit',
    });
  }
}
