import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { writeFileAtomic } from '../common/atomic-file';
import { InvalidInputError, NotFoundError } from '../common/errors';

/**
 * The builder's notes that outlive context compaction and restarts: a key-value file per working
 * directory (`Forge/.scratchpad.json`), written atomically on every change.
 */

export const SCRATCHPAD_FILE = join('Forge', '.scratchpad.json');
const MAX_VALUE_CHARS = 64 * 1024;

export type ScratchpadOperation = 'read' | 'write' | 'append' | 'list';

export class Scratchpad {
  readonly path: string;
  private entries: Record<string, string> | undefined;

  constructor(readonly workDir: string) {
    this.path = join(workDir, SCRATCHPAD_FILE);
  }

  private load(): Record<string, string> {
    if (this.entries) return this.entries;
    try {
      const raw = JSON.parse(readFileSync(this.path, 'utf8')) as unknown;
      this.entries = raw && typeof raw === 'object' && !Array.isArray(raw) ? (raw as Record<string, string>) : {};
    } catch {
      this.entries = {};
    }
    return this.entries;
  }

  private save(): void {
    writeFileAtomic(this.path, JSON.stringify(this.entries, null, 2), 0o644);
  }

  run(op: ScratchpadOperation, key?: string, value?: string): Record<string, unknown> {
    const entries = this.load();
    if (op === 'list') {
      return { keys: Object.keys(entries).sort(), sizes: Object.fromEntries(Object.entries(entries).map(([k, v]) => [k, v.length])) };
    }
    if (!key) throw new InvalidInputError(`"${op}" needs a key, e.g. "architecture_decisions". Call with operation "list" to see the keys.`);
    if (op === 'read') {
      if (!(key in entries)) throw new NotFoundError(`The scratchpad has no key "${key}". Keys: ${Object.keys(entries).sort().join(', ') || '(none yet)'}.`);
      return { key, value: entries[key] };
    }
    if (value === undefined) throw new InvalidInputError(`"${op}" needs a value to ${op === 'write' ? 'store' : 'add'}.`);
    const next = op === 'append' && key in entries ? `${entries[key]}\n${value}` : value;
    if (next.length > MAX_VALUE_CHARS) throw new InvalidInputError(`The scratchpad entry "${key}" would exceed ${MAX_VALUE_CHARS} characters; summarise it and write it again.`);
    entries[key] = next;
    this.save();
    return { key, operation: op, length: next.length };
  }
}
