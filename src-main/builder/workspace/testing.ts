import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

/** Test helpers: a real temporary project folder (real path) with files written from a map. */
export function tempProject(files: Record<string, string> = {}): string {
  const root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'forge-ws-')));
  writeFiles(root, files);
  return root;
}

export function writeFiles(root: string, files: Record<string, string>): void {
  for (const [rel, content] of Object.entries(files)) {
    const abs = path.join(root, rel);
    fs.mkdirSync(path.dirname(abs), { recursive: true });
    fs.writeFileSync(abs, content);
  }
}

/** The thrown error of a promise (or function), for asserting on its code, reason and message. */
export async function caught(fn: () => unknown): Promise<{ code?: string; reason?: string; message: string }> {
  try {
    await fn();
  } catch (e) {
    return e as { code?: string; reason?: string; message: string };
  }
  throw new Error('expected a refusal, but the call succeeded');
}
