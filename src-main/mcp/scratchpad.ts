import { readFileSync, renameSync } from 'node:fs';
import { join } from 'node:path';
import { writeFileAtomic } from '../common/atomic-file';
import { InvalidInputError, NotFoundError } from '../common/errors';
import { withFileLock } from '../common/file-lock';

/**
 * The builder's notes that outlive context compaction and restarts: a key-value file per working
 * directory (`Forge/.scratchpad.json`). Several clients (an IDE's stdio server, the app) may
 * share one working directory, so every change re-reads the file under a lock, changes one key
 * and renames the new file into place: nobody's keys are lost. A damaged file is kept aside
 * (`.scratchpad.json.corrupt-<time>`) and the result says so; it is never silently replaced.
 */

export const SCRATCHPAD_FILE = join('Forge', '.scratchpad.json');
const MAX_VALUE_CHARS = 64 * 1024;

export type ScratchpadOperation = 'read' | 'write' | 'append' | 'list';

type Entries = Record<string, string>;

export class Scratchpad {
  readonly path: string;
  private readonly lockPath: string;

  constructor(readonly workDir: string) {
    this.path = join(workDir, SCRATCHPAD_FILE);
    this.lockPath = `${this.path}.lock`;
  }

  /** The file as it is now; a damaged one is moved aside and named in `notice`. Call under the lock. */
  private readFile(): { entries: Entries; notice?: string } {
    let text: string;
    try {
      text = readFileSync(this.path, 'utf8');
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code === 'ENOENT') return { entries: {} };
      throw e;
    }
    let problem: string | undefined;
    try {
      const raw = JSON.parse(text) as unknown;
      if (raw && typeof raw === 'object' && !Array.isArray(raw) && Object.values(raw).every((v) => typeof v === 'string')) {
        return { entries: raw as Entries };
      }
      problem = 'it is not an object of text notes';
    } catch (e) {
      problem = `it is not valid JSON (${(e as Error).message})`;
    }
    const aside = `${this.path}.corrupt-${new Date().toISOString().replace(/[:.]/g, '-')}`;
    renameSync(this.path, aside);
    return {
      entries: {},
      notice: `The scratchpad file was damaged (${problem}); it was kept as ${aside} and a new, empty scratchpad started. Recover notes from that file if you need them.`,
    };
  }

  private locked<T>(fn: () => T): Promise<T> {
    return withFileLock(this.lockPath, fn, { what: 'The scratchpad' });
  }

  async run(op: ScratchpadOperation, key?: string, value?: string): Promise<Record<string, unknown>> {
    if (op !== 'list' && !key) throw new InvalidInputError(`"${op}" needs a key, e.g. "architecture_decisions". Call with operation "list" to see the keys.`);
    if ((op === 'write' || op === 'append') && value === undefined)
      throw new InvalidInputError(`"${op}" needs a value to ${op === 'write' ? 'store' : 'add'}.`);
    // Reads take the lock too: a damaged file is moved aside by exactly one reader.
    const { result, notice } = await this.locked(() => {
      const { entries, notice } = this.readFile();
      return { notice, result: this.apply(entries, op, key as string, value) };
    });
    if (result instanceof Error) {
      if (notice) result.message = `${result.message} ${notice}`;
      throw result;
    }
    return notice ? { ...result, notice } : result;
  }

  /** One operation on the freshly read entries; a change is written before the lock is released. */
  private apply(entries: Entries, op: ScratchpadOperation, key: string, value: string | undefined): Record<string, unknown> | Error {
    if (op === 'list') {
      return { keys: Object.keys(entries).sort(), sizes: Object.fromEntries(Object.entries(entries).map(([k, v]) => [k, v.length])) };
    }
    if (op === 'read') {
      if (!Object.hasOwn(entries, key))
        return new NotFoundError(`The scratchpad has no key "${key}". Keys: ${Object.keys(entries).sort().join(', ') || '(none yet)'}.`);
      return { key, value: entries[key] };
    }
    const next = op === 'append' && Object.hasOwn(entries, key) ? `${entries[key]}\n${value}` : (value as string);
    if (next.length > MAX_VALUE_CHARS)
      return new InvalidInputError(`The scratchpad entry "${key}" would exceed ${MAX_VALUE_CHARS} characters; summarise it and write it again.`);
    writeFileAtomic(this.path, JSON.stringify({ ...entries, [key]: next }, null, 2), 0o600);
    return { key, operation: op, length: next.length };
  }
}
