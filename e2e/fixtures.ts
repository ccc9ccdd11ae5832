import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { test as base, expect } from '@playwright/test';

const here = dirname(fileURLToPath(import.meta.url));

export interface ForgeServer {
  /** Open this: it carries the token. */
  url: string;
  baseURL: string;
  token: string;
  dataDir: string;
  /** Stop and start the server on the same data folder (a new token, a new port). */
  restart(): Promise<ForgeServer>;
}

const root = join(here, '..');

/** Start the real `forge serve` (the built app) on a free port with its own data folder. */
export async function startServer(dataDir: string): Promise<{ server: Omit<ForgeServer, 'restart'>; child: ChildProcess }> {
  const child = spawn(process.execPath, [join(root, 'bin', 'forge.mjs'), 'serve', '--port', '0', '--data', dataDir], {
    cwd: root,
    // Scheduled jobs off: a test crossing the hour must not see the hourly monitoring close a demo trade.
    env: { ...process.env, ANTHROPIC_API_KEY: '', FORGE_HOME: '', FORGE_SCHEDULER: 'off' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`forge serve did not start in 30 s:\n${output}`)), 30_000);
    const onData = (d: Buffer) => {
      output += d.toString();
      const m = /Open: (http:\/\/127\.0\.0\.1:\d+\/\?token=\S+)/.exec(output);
      if (m) {
        clearTimeout(timer);
        resolve(m[1]);
      }
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', onData);
    child.once('exit', (code) => reject(new Error(`forge serve exited (${code}):\n${output}`)));
  });
  const parsed = new URL(url);
  return { server: { url, baseURL: parsed.origin, token: parsed.searchParams.get('token')!, dataDir }, child };
}

export async function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return;
  await new Promise<void>((resolve) => {
    child.once('exit', () => resolve());
    child.kill('SIGTERM');
    setTimeout(() => child.kill('SIGKILL'), 5_000).unref();
  });
}

export const test = base.extend<{ forge: ForgeServer }>({
  // biome-ignore lint/correctness/noEmptyPattern: Playwright reads a fixture's dependencies from this destructuring and rejects any other first parameter.
  forge: async ({}, use) => {
    const dataDir = mkdtempSync(join(tmpdir(), 'forge-e2e-'));
    let current = await startServer(dataDir);
    const api: ForgeServer = {
      ...current.server,
      async restart() {
        await stop(current.child);
        current = await startServer(dataDir);
        Object.assign(api, current.server);
        return api;
      },
    };
    await use(api);
    await stop(current.child);
    rmSync(dataDir, { recursive: true, force: true });
  },
});

export { expect };

/** Screenshots of each screen land here (git-ignored). */
export const screenshotDir = join(root, 'test-results', 'screens');
