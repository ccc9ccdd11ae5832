import { createHash } from 'node:crypto';
import { mkdirSync, mkdtempSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { walkFiles } from './markdown';

/** A real folder on disk holding `files` (path → text), as a user's repository would. */
export function makePackage(files: Record<string, string>): string {
  const root = mkdtempSync(join(tmpdir(), 'forge-specs-'));
  for (const [rel, text] of Object.entries(files)) {
    mkdirSync(dirname(join(root, rel)), { recursive: true });
    writeFileSync(join(root, rel), text);
  }
  return root;
}

/** Every file with its content hash and modification time: equal before and after a read means nothing was written. */
export function snapshot(root: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const f of walkFilesAll(root)) {
    const st = statSync(f);
    out[f] = `${createHash('sha256').update(readFileSync(f)).digest('hex')}:${st.mtimeMs}:${st.size}`;
  }
  return out;
}

function walkFilesAll(root: string): string[] {
  // walkFiles skips hidden folders (.specify, .kiro): a snapshot must include them.
  const out = walkFiles(root);
  for (const hidden of ['.specify', '.kiro']) out.push(...walkFiles(join(root, hidden)));
  return out.sort();
}
