import { spawn } from 'node:child_process';

/** A child process playing one Forge server, started paused so that several race from the same instant. */
export interface RacingServer<T> {
  /** Resolves when the child has connected and printed READY. */
  ready: Promise<void>;
  /** The JSON value on the child's last line of output, once it exits 0 (rejects with its stderr otherwise). */
  done: Promise<T>;
  /** Lets it go (it waits for a line on stdin). */
  go(): void;
}

/**
 * Starts `script` (TypeScript, run by tsx) with `args` as one server of a desk: its own process,
 * its own connection to the database. The script prints READY, waits for a line on stdin, does its
 * work, and prints its result as JSON on its last line. What the desk's race tests share: two of
 * these, both READY, then both let go.
 */
export function racingServer<T>(script: string, args: string[], what = 'the server process'): RacingServer<T> {
  const p = spawn(process.execPath, ['--import', 'tsx', script, ...args], { stdio: ['pipe', 'pipe', 'pipe'] });
  let out = '';
  let err = '';
  p.stderr.on('data', (d: Buffer) => (err += d.toString()));
  const ready = new Promise<void>((resolve, reject) => {
    p.stdout.on('data', (d: Buffer) => {
      out += d.toString();
      if (out.includes('READY')) resolve();
    });
    p.on('close', (code) => reject(new Error(`${what} ended before READY (${code}): ${err}`)));
  });
  const done = new Promise<T>((resolve, reject) =>
    p.on('close', (code) =>
      code === 0 ? resolve(JSON.parse(out.split('\n').filter(Boolean).pop() as string) as T) : reject(new Error(`${what} failed (${code}): ${err}`)),
    ),
  );
  return { ready, done, go: () => p.stdin.end('go\n') };
}
