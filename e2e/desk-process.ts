import { type ChildProcess, spawn } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const root = join(here, '..');

/**
 * A desk for an e2e spec: a setup script (run by tsx — Playwright's loader does not compile the
 * core) starts a PostgreSQL cluster, makes a desk in it and prints `{"url": …}`; closing its stdin
 * stops the cluster. One copy of that handshake for every desk spec.
 */
export interface DeskProcess {
  /** The desk's database URL, once the setup printed it. */
  url: Promise<string>;
  /** Stops the cluster (closing stdin is the script's signal), killing the script after 30 s. */
  stop(): Promise<void>;
}

export function startDeskProcess(script: string, password: string): DeskProcess {
  const child: ChildProcess = spawn(join(root, 'node_modules', '.bin', 'tsx'), [join(here, script)], {
    cwd: root,
    env: { ...process.env, FORGE_DESK_E2E_PASSWORD: password },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let output = '';
  const url = new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`the desk was not ready in 120 s:\n${output}`)), 120_000);
    child.stdout!.on('data', (d: Buffer) => {
      output += d.toString();
      const line = output.split('\n').find((l) => l.startsWith('{"url"'));
      if (line) {
        clearTimeout(timer);
        resolve((JSON.parse(line) as { url: string }).url);
      }
    });
    child.stderr!.on('data', (d: Buffer) => {
      output += d.toString();
    });
    child.once('exit', (code) => reject(new Error(`the desk setup exited (${code}):\n${output}`)));
  });
  return {
    url,
    async stop() {
      if (child.exitCode !== null) return;
      const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
      child.stdin!.end();
      await Promise.race([exited, new Promise((r) => setTimeout(r, 30_000))]);
      if (child.exitCode === null) child.kill('SIGKILL');
    },
  };
}
