import { existsSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { writeFileAtomic } from '../common/atomic-file';
import { ensurePrivateDir } from '../common/private-files';
import { NotFoundError } from '../common/errors';
import { ARTIFACT_TYPES, DEFAULT_ARTIFACT_TTL_HOURS, type ArtifactType } from './config';

/**
 * Artifacts a client hands over between steps (plans, diffs, test reports ...), per project and
 * type. They live in memory until their TTL runs out; with `persist` they are also written to the
 * workspace folder, which serves reads after a restart (expired files are deleted on sight).
 */

export interface Artifact {
  project_id: string;
  artifact_type: ArtifactType;
  key: string;
  content: string;
  stored_at: string;
  expires_at: string;
  persisted: boolean;
}

export interface ArtifactMeta {
  key: string;
  artifact_type: ArtifactType;
  size: number;
  stored_at: string;
  expires_at: string;
  persisted: boolean;
  in_memory: boolean;
}

const fileName = (key: string) => `${Buffer.from(key, 'utf8').toString('base64url')}.json`;

export class ArtifactStore {
  private readonly memory = new Map<string, Artifact>();

  /** `dir` = where persisted artifacts go (undefined: memory only). */
  constructor(
    private readonly dir: string | undefined,
    private readonly now: () => number = Date.now,
  ) {}

  private id(projectId: string, type: ArtifactType, key: string): string {
    return `${projectId}\u0000${type}\u0000${key}`;
  }

  private folder(projectId: string, type: ArtifactType): string | undefined {
    return this.dir ? join(this.dir, Buffer.from(projectId, 'utf8').toString('base64url'), type) : undefined;
  }

  private expired(a: Artifact): boolean {
    return Date.parse(a.expires_at) <= this.now();
  }

  store(input: { project_id: string; artifact_type: ArtifactType; key: string; content: string; ttl_hours?: number; persist?: boolean }): ArtifactMeta {
    const t = this.now();
    const ttlHours = input.ttl_hours ?? DEFAULT_ARTIFACT_TTL_HOURS;
    const persisted = Boolean(input.persist && this.dir);
    const a: Artifact = {
      project_id: input.project_id,
      artifact_type: input.artifact_type,
      key: input.key,
      content: input.content,
      stored_at: new Date(t).toISOString(),
      expires_at: new Date(t + ttlHours * 3_600_000).toISOString(),
      persisted,
    };
    this.memory.set(this.id(a.project_id, a.artifact_type, a.key), a);
    const folder = this.folder(a.project_id, a.artifact_type);
    if (folder) {
      const file = join(folder, fileName(a.key));
      // Owner-only folders, like the data folder they live in.
      if (persisted) writeFileAtomic(join(ensurePrivateDir(folder), fileName(a.key)), JSON.stringify(a), 0o600);
      else rmSync(file, { force: true }); // an unpersisted re-store must not leave an older copy to resurface
    }
    return this.metaOf(a, true);
  }

  get(projectId: string, type: ArtifactType, key: string): Artifact {
    const id = this.id(projectId, type, key);
    const hit = this.memory.get(id);
    if (hit && !this.expired(hit)) return hit;
    if (hit) this.memory.delete(id);
    const disk = this.readDisk(projectId, type, key);
    if (disk) return disk;
    throw new NotFoundError(
      `No ${type} artifact "${key}" for project "${projectId}"${hit ? ' (it expired)' : ''}. Call forge_list_artifacts to see what is stored.`,
    );
  }

  private readDisk(projectId: string, type: ArtifactType, key: string): Artifact | undefined {
    const folder = this.folder(projectId, type);
    if (!folder) return undefined;
    const file = join(folder, fileName(key));
    let a: Artifact;
    try {
      a = JSON.parse(readFileSync(file, 'utf8')) as Artifact;
    } catch {
      return undefined;
    }
    if (this.expired(a)) {
      rmSync(file, { force: true });
      return undefined;
    }
    return a;
  }

  list(projectId: string, type?: ArtifactType): ArtifactMeta[] {
    const out = new Map<string, ArtifactMeta>();
    for (const [id, a] of this.memory) {
      if (a.project_id !== projectId || (type && a.artifact_type !== type)) continue;
      if (this.expired(a)) {
        this.memory.delete(id);
        continue;
      }
      out.set(`${a.artifact_type}/${a.key}`, this.metaOf(a, true));
    }
    for (const t of type ? [type] : ARTIFACT_TYPES) {
      const folder = this.folder(projectId, t);
      if (!folder || !existsSync(folder)) continue;
      for (const f of readdirSync(folder)) {
        if (!f.endsWith('.json')) continue;
        const key = Buffer.from(f.slice(0, -5), 'base64url').toString('utf8');
        if (out.has(`${t}/${key}`)) continue;
        const a = this.readDisk(projectId, t, key);
        if (a) out.set(`${t}/${key}`, this.metaOf(a, false));
      }
    }
    return [...out.values()].sort((x, y) => x.artifact_type.localeCompare(y.artifact_type) || x.key.localeCompare(y.key));
  }

  clear(projectId: string, type?: ArtifactType): { removed: number } {
    const keys = new Set(this.list(projectId, type).map((m) => `${m.artifact_type}/${m.key}`));
    for (const [id, a] of this.memory) {
      if (a.project_id === projectId && (!type || a.artifact_type === type)) this.memory.delete(id);
    }
    for (const t of type ? [type] : ARTIFACT_TYPES) {
      const folder = this.folder(projectId, t);
      if (folder) rmSync(folder, { recursive: true, force: true });
    }
    return { removed: keys.size };
  }

  private metaOf(a: Artifact, inMemory: boolean): ArtifactMeta {
    return {
      key: a.key,
      artifact_type: a.artifact_type,
      size: Buffer.byteLength(a.content, 'utf8'),
      stored_at: a.stored_at,
      expires_at: a.expires_at,
      persisted: a.persisted,
      in_memory: inMemory,
    };
  }
}
