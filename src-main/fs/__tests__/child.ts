import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const repoRoot = join(here, '..', '..', '..');

/**
 * Builds the writer child into one file (fast to start: tests spawn it dozens of times). Falls
 * back to running the TypeScript through tsx when esbuild is not installed.
 */
export async function writerCommand(): Promise<string[]> {
  const source = join(here, 'writer.child.ts');
  try {
    const esbuild = await import('esbuild');
    const outDir = join(repoRoot, 'node_modules', '.cache', 'forge-tests');
    mkdirSync(outDir, { recursive: true });
    const outfile = join(outDir, `writer-${process.pid}.mjs`);
    rmSync(outfile, { force: true }); // always rebuilt: the source may have changed
    if (!existsSync(outfile)) {
      esbuild.buildSync({
        entryPoints: [source],
        bundle: true,
        platform: 'node',
        format: 'esm',
        target: 'node20',
        outfile,
        external: ['better-sqlite3', 'sqlite-vec'],
        logLevel: 'silent',
      });
    }
    process.once('exit', () => rmSync(outfile, { force: true }));
    return [process.execPath, outfile];
  } catch {
    return [process.execPath, '--import', 'tsx', source];
  }
}

export function spawnWriter(cmd: string[], args: string[]): { child: ChildProcess; lines: string[]; done: Promise<number | null> } {
  const child = spawn(cmd[0], [...cmd.slice(1), ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
  const lines: string[] = [];
  let buf = '';
  child.stdout!.on('data', (d: Buffer) => {
    buf += d.toString('utf8');
    for (let nl = buf.indexOf('\n'); nl >= 0; nl = buf.indexOf('\n')) {
      lines.push(buf.slice(0, nl));
      buf = buf.slice(nl + 1);
    }
  });
  let err = '';
  child.stderr!.on('data', (d: Buffer) => (err += d.toString('utf8')));
  const done = new Promise<number | null>((resolve) =>
    child.on('close', (code) => {
      if (code && code !== 0 && err) process.stderr.write(`[writer] ${err}\n`);
      resolve(code);
    }),
  );
  return { child, lines, done };
}
