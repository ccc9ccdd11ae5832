import { realpathSync } from 'node:fs';
import { basename, resolve } from 'node:path';
import { ConflictError, InvalidInputError, NotFoundError, isAppError } from '../common/errors';
import { extractSection, MAX_LIST_LIMIT, sha256, type Actor, type ForgeFS } from '../fs';
import { MAX_RESOURCE_BYTES, type SkillLoader } from '../skills';
import { readPk, type Stance } from './pk';
import { AUTO_REJECTER, headerLine, parseProposal, withDecision, type ProposalRecord, type ProposalStatus } from './proposal-record';
import { applyEdit, checkTargetFile } from './skill-edit';
import { SkillVersionStore, type SkillVersion } from './versions';

/**
 * The PM's side of skill evolution: list and open proposals, approve (the edit becomes a new
 * version of the skill, the earlier one kept), reject with a reason, and browse or restore a
 * skill's versions. This is the only code that writes a skill file because of a proposal, and it
 * does so only on approve or restore.
 *
 * A pending proposal whose quoted text no longer occurs exactly once in its file cannot be
 * applied as the PM saw it; it is rejected automatically, with the reason, whenever it is listed,
 * opened or approved.
 */

export interface ProposalsServiceOptions {
  fs: ForgeFS;
  /** The loader over the same skills folder as `fs` (reloaded after every change). */
  skills: SkillLoader;
  now?: () => Date;
  /** Who automatic rejections are recorded as in the audit log (the PM's screen: pm; the scheduler: scheduler). */
  actor?: Actor;
}

export interface CitedPk {
  id: string;
  title: string;
  weight: number | null;
  category: string | null;
  stance: Stance | null;
  evidence: string[];
  summary: string;
  /** The entry was deleted after the proposal cited it. */
  missing: boolean;
}

export interface ProposalDetail {
  proposal: ProposalRecord;
  /** The target file as it is now (null when it no longer exists). */
  currentText: string | null;
  /** The whole file after the replacement — only while the proposal can still be applied. */
  proposedText: string | null;
  /** The file changed since the proposal was made (its quoted text still matching). */
  fileChanged: boolean;
  citedPk: CitedPk[];
  /** The record's content hash: pass it back to approve so it applies exactly what was shown. */
  recordHash: string;
}

export interface VersionView extends SkillVersion {
  /** The file's text on disk is this version. */
  current: boolean;
}

type Evaluation =
  | { ok: true; dir: string; file: string; skillPath: string; current: string; proposed: string }
  | { ok: false; reason: string; current: string | null };

const ID_RE = /^SEP-\d{1,9}$/;
const proposalPath = (id: string) => `/memory/proposals/${id}.md`;

export class ProposalsService {
  private readonly fs: ForgeFS;
  private readonly skills: SkillLoader;
  private readonly now: () => Date;
  private readonly actor: Actor;
  private queue: Promise<unknown> = Promise.resolve();

  constructor(options: ProposalsServiceOptions) {
    this.fs = options.fs;
    this.skills = options.skills;
    this.now = options.now ?? (() => new Date());
    this.actor = options.actor ?? 'pm';
    const real = (p: string) => {
      try {
        return realpathSync(p);
      } catch {
        return resolve(p);
      }
    };
    // Edits go through ForgeFS (audit) and the loader must see them: both must mean the same folder.
    if (real(this.fs.skills.root) !== real(this.skills.root)) {
      throw new Error(`The skill loader (${this.skills.root}) and ForgeFS (${this.fs.skills.root}) read different skills folders.`);
    }
  }

  /** One change at a time: a double-clicked Approve must not apply an edit twice. */
  private exclusive<T>(fn: () => Promise<T>): Promise<T> {
    const run = this.queue.then(fn, fn);
    this.queue = run.catch(() => undefined);
    return run;
  }

  // ---- reading -------------------------------------------------------------------------------

  /** Proposals, newest first (optionally one status), with the pending count for the badge. */
  async listProposals(status?: ProposalStatus): Promise<{ proposals: ProposalRecord[]; pendingCount: number }> {
    await this.rejectStale();
    const proposals = this.records(status ? `status:${status}` : undefined);
    return { proposals, pendingCount: this.pendingCount() };
  }

  pendingCount(): number {
    return this.fs.listDir('/memory/proposals/', 'status:pending', { limit: 1 }).total;
  }

  /** One proposal with the current and proposed file text and the PK it cites. */
  async getProposal(id: string): Promise<ProposalDetail> {
    const { record } = this.load(id);
    if (record.status === 'pending') {
      const ev = this.evaluate(record);
      if (!ev.ok) await this.autoReject(id, ev.reason);
    }
    return this.detail(id);
  }

  // ---- deciding ------------------------------------------------------------------------------

  /**
   * Applies a pending proposal: the file's current text is kept as a version, the edited file is
   * written atomically (through ForgeFS, audited as the PM), the new text recorded as the next
   * version, the proposal marked approved with who and when, and the skill reloaded.
   * `expectHash` (from getProposal) makes sure the PM approves exactly the text they saw.
   */
  approve(id: string, options: { by: string; expectHash?: string }): Promise<ProposalDetail> {
    return this.exclusive(async () => {
      const { path, content, hash, record } = this.load(id);
      // A second Approve (a double click, a retry after a dropped answer) is the same answer, not an
      // error: the hash it carries is the pre-approval one, so this comes before the hash check.
      if (record.status === 'approved') return this.detail(id);
      if (options.expectHash && options.expectHash !== hash) {
        throw new ConflictError(`${id} changed since you opened it; open it again to see what you would approve.`);
      }
      if (record.status !== 'pending') throw new ConflictError(`${id} is already ${record.status}; only a pending proposal can be approved.`);
      const ev = this.evaluate(record);
      if (!ev.ok) {
        await this.autoReject(id, ev.reason);
        throw new ConflictError(`${id} can no longer be applied: ${ev.reason}. It has been rejected automatically; the next retrospective can propose again.`);
      }
      const by = decider(options.by);
      const at = this.now().toISOString();
      const versions = new SkillVersionStore(ev.dir);
      const before = versions.ensureRecorded(ev.file, ev.current, at);
      const version = before.version + 1;
      const updated = withDecision(
        content,
        { status: 'approved', approved_by: by, approved_at: at, skill_version: version },
        `Approved by ${by} at ${at}; applied to ${ev.file} as version ${version} (version ${before.version} holds the text it replaced).`,
      );
      await this.fs.transaction(
        (tx) => {
          // Under the write lock: neither the record nor the file may have moved since they were checked.
          if (tx.readFile(path) !== content) throw new ConflictError(`${id} changed while it was being approved; open it again.`);
          if (tx.readFile(ev.skillPath) !== ev.current) throw new ConflictError(`${ev.file} changed while ${id} was being approved; open it again.`);
          // The record first: if the file cannot be written, the transaction undoes the status too.
          tx.writeFile(path, updated, { actor: 'pm', operation: 'approve' });
          tx.writeFile(ev.skillPath, ev.proposed, { actor: 'pm' });
        },
        { prepare: [{ path, content: updated }] },
      );
      versions.record(ev.file, ev.proposed, { by, at, reason: `${id} approved`, proposalId: id });
      this.skills.reload();
      return this.detail(id);
    });
  }

  /** Rejects a pending proposal with the PM's reason; the skill is not touched. */
  reject(id: string, options: { reason: string; by: string }): Promise<ProposalDetail> {
    return this.exclusive(async () => {
      const reason = headerLine(options.reason ?? '');
      if (!reason) throw new InvalidInputError('Say why the proposal is rejected; the reason is kept with it.', [{ path: ['reason'], message: 'is required' }]);
      const { path, content, record } = this.load(id);
      // Rejecting a rejected proposal is the same answer: the first reason and audit row stand.
      if (record.status === 'rejected') return this.detail(id);
      if (record.status !== 'pending') throw new ConflictError(`${id} is already ${record.status}; only a pending proposal can be rejected.`);
      const by = decider(options.by);
      const at = this.now().toISOString();
      const updated = withDecision(
        content,
        { status: 'rejected', rejected_by: by, rejected_at: at, rejection_reason: reason },
        `Rejected by ${by} at ${at}: ${options.reason.trim()}`,
      );
      await this.fs.transaction(
        (tx) => {
          if (tx.readFile(path) !== content) throw new ConflictError(`${id} changed while it was being rejected; open it again.`);
          // The reason rides in the audit row itself, so the trail says why without opening the record.
          tx.writeFile(path, updated, { actor: 'pm', operation: auditReject(reason) });
        },
        { prepare: [{ path, content: updated }] },
      );
      return this.detail(id);
    });
  }

  // ---- versions ------------------------------------------------------------------------------

  /** Every recorded version of a skill's files, newest first per file, marking the one on disk. */
  skillVersions(skill: string): { skill: string; versions: VersionView[] } {
    const entry = this.skillEntry(skill);
    const store = new SkillVersionStore(entry.dir);
    const hashes = new Map<string, string | null>();
    const hashOf = (file: string) => {
      if (!hashes.has(file)) {
        const p = `/skills/${basename(entry.dir)}/${file}`;
        hashes.set(file, this.fs.exists(p) ? sha256(this.fs.readFile(p)) : null);
      }
      return hashes.get(file)!;
    };
    const all = store.list();
    const latest = new Map<string, number>();
    for (const v of all) latest.set(v.file, v.version);
    const versions = all
      .map((v) => ({ ...v, current: latest.get(v.file) === v.version && hashOf(v.file) === v.hash }))
      .sort((a, b) => a.file.localeCompare(b.file) || b.version - a.version);
    return { skill: entry.name, versions };
  }

  /**
   * Brings back an earlier version of one file. The text on disk is kept as a version first and
   * the restore is itself recorded as a new version, so nothing is ever lost.
   */
  restoreSkillVersion(skill: string, file: string, version: number, options: { by: string }): Promise<{ version: SkillVersion; changed: boolean }> {
    return this.exclusive(async () => {
      const entry = this.skillEntry(skill);
      const rel = checkTargetFile(file);
      const store = new SkillVersionStore(entry.dir);
      const text = store.read(rel, version);
      const by = decider(options.by);
      const at = this.now().toISOString();
      const skillPath = `/skills/${basename(entry.dir)}/${rel}`;
      const current = this.fs.exists(skillPath) ? this.fs.readFile(skillPath) : null;
      if (current !== null) {
        const kept = store.ensureRecorded(rel, current, at);
        if (current === text) return { version: kept, changed: false };
      }
      await this.fs.writeFile(skillPath, text, { actor: 'pm' });
      const restored = store.record(rel, text, { by, at, reason: `restored version ${version}`, restoredFrom: version });
      this.skills.reload();
      return { version: restored, changed: true };
    });
  }

  // ---- internals -----------------------------------------------------------------------------

  private load(id: string): { path: string; content: string; hash: string; record: ProposalRecord } {
    if (typeof id !== 'string' || !ID_RE.test(id)) {
      throw new InvalidInputError(`"${String(id).slice(0, 40)}" is not a proposal id; proposals are named SEP-001, SEP-002, …`, [
        { path: ['id'], message: 'expected SEP-NNN' },
      ]);
    }
    const path = proposalPath(id);
    const info = this.fs.recordInfo(path);
    if (!info) throw new NotFoundError(`There is no proposal ${id}; list the proposals to see them.`);
    const content = this.fs.readFile(path);
    return { path, content, hash: info.contentHash, record: parseProposal(content) };
  }

  /** Every proposal record matching `query`, newest first. */
  private records(query?: string): ProposalRecord[] {
    const out: ProposalRecord[] = [];
    for (let offset = 0; ; offset += MAX_LIST_LIMIT) {
      const page = this.fs.listDir('/memory/proposals/', query, { limit: MAX_LIST_LIMIT, offset });
      for (const e of page.entries) if (e.id) out.push(parseProposal(this.fs.readFile(e.path)));
      if (offset + MAX_LIST_LIMIT >= page.total) break;
    }
    const n = (id: string) => Number(id.slice(4));
    return out.sort((a, b) => n(b.id) - n(a.id));
  }

  private async rejectStale(): Promise<void> {
    for (const record of this.records('status:pending')) {
      const ev = this.evaluate(record);
      if (!ev.ok) await this.autoReject(record.id, ev.reason);
    }
  }

  /** Can the proposal still be applied as written? Never throws: every problem is a reason. */
  private evaluate(record: ProposalRecord): Evaluation {
    if (record.problems.length) return { ok: false, reason: `it is not a structured proposal: ${record.problems.join('; ')}`, current: null };
    try {
      const file = checkTargetFile(record.targetFile);
      const entry = this.skills.find(record.skill!);
      if (!entry) return { ok: false, reason: `the skill "${record.skill}" is no longer installed`, current: null };
      const skillPath = `/skills/${basename(entry.dir)}/${file}`;
      if (!this.fs.exists(skillPath)) return { ok: false, reason: `${file} no longer exists in the ${entry.name} skill`, current: null };
      const current = this.fs.readFile(skillPath);
      const edit = applyEdit(current, record.oldText!, record.newText!);
      if (!edit.ok) return { ok: false, reason: `${edit.reason} (${file} of ${entry.name})`, current };
      if (Buffer.byteLength(edit.result, 'utf8') > MAX_RESOURCE_BYTES) {
        return { ok: false, reason: `the edited ${file} would exceed the ${MAX_RESOURCE_BYTES}-byte limit of a skill file`, current };
      }
      return { ok: true, dir: entry.dir, file, skillPath, current, proposed: edit.result };
    } catch (e) {
      if (isAppError(e)) return { ok: false, reason: e.message.replace(/\.$/, ''), current: null };
      throw e;
    }
  }

  private async autoReject(id: string, reason: string): Promise<void> {
    const path = proposalPath(id);
    const at = this.now().toISOString();
    await this.fs.transaction((tx) => {
      const content = tx.readFile(path);
      // Someone decided it meanwhile: their decision stands.
      if (parseProposal(content).status !== 'pending') return;
      const updated = withDecision(
        content,
        { status: 'rejected', rejected_by: AUTO_REJECTER, rejected_at: at, rejection_reason: headerLine(`stale: ${reason}`) },
        `Rejected automatically at ${at}: ${reason}. The skill was not changed.`,
      );
      tx.writeFile(path, updated, { actor: this.actor, operation: auditReject(`stale: ${reason}`) });
    });
  }

  private detail(id: string): ProposalDetail {
    const { content, hash, record } = this.load(id);
    const ev = record.status === 'pending' ? this.evaluate(record) : null;
    let currentText: string | null = ev ? ev.current : null;
    if (!ev) currentText = this.currentFileText(record);
    const proposedText = ev?.ok ? ev.proposed : null;
    return {
      proposal: record,
      currentText,
      proposedText,
      fileChanged: currentText !== null && record.baseHash !== null && sha256(currentText) !== record.baseHash,
      citedPk: record.pkIds.map((pk) => this.cited(pk)),
      recordHash: hash || sha256(content),
    };
  }

  private currentFileText(record: ProposalRecord): string | null {
    try {
      const entry = record.skill ? this.skills.find(record.skill) : null;
      if (!entry || !record.targetFile) return null;
      const p = `/skills/${basename(entry.dir)}/${checkTargetFile(record.targetFile)}`;
      return this.fs.exists(p) ? this.fs.readFile(p) : null;
    } catch (e) {
      if (isAppError(e)) return null;
      throw e;
    }
  }

  private cited(id: string): CitedPk {
    const pk = readPk(this.fs, id);
    if (!pk) return { id, title: '', weight: null, category: null, stance: null, evidence: [], summary: '', missing: true };
    const section = extractSection(this.fs.readFile(`/memory/pk/${id}.md`), 'SUMMARY');
    const summary = section ? section.split('\n').slice(1).join('\n').trim() : '';
    return { id, title: pk.title, weight: pk.weight, category: pk.category, stance: pk.stance, evidence: pk.evidence, summary, missing: false };
  }

  private skillEntry(skill: string) {
    const entry = this.skills.find(skill);
    if (!entry) {
      throw new NotFoundError(
        `There is no skill named "${skill}". Installed skills: ${
          this.skills
            .list()
            .map((e) => e.name)
            .join(', ') || 'none'
        }.`,
      );
    }
    return entry;
  }
}

/** The name a decision is recorded under: one line, never empty. */
/** The audit operation of a rejection: `reject: <reason>` (one line, at most 300 characters). */
export function auditReject(reason: string): string {
  return `reject: ${headerLine(reason, 300)}`;
}

function decider(by: string): string {
  return headerLine(by ?? '', 80) || 'pm';
}
