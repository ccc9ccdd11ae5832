import { spawn } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDeskStore } from './desk-store';
import { skipWithoutPostgres } from './test-server';
import { type PostgresWorkspaces, startPostgresWorkspaces } from './test-workspaces';

const here = dirname(fileURLToPath(import.meta.url));

/** One child process = one Forge server with its own store on the desk's database. */
function server(url: string, times: number) {
  const p = spawn(process.execPath, ['--import', 'tsx', join(here, '__tests__', 'counter.child.ts'), url, String(times)], { stdio: ['pipe', 'pipe', 'pipe'] });
  let out = '';
  let err = '';
  p.stderr.on('data', (d: Buffer) => (err += d.toString()));
  const ready = new Promise<void>((resolve, reject) => {
    p.stdout.on('data', (d: Buffer) => {
      out += d.toString();
      if (out.includes('READY')) resolve();
    });
    p.on('close', (code) => reject(new Error(`the server ended before READY (${code}): ${err}`)));
  });
  const done = new Promise<void>((resolve, reject) =>
    p.on('close', (code) => (code === 0 && out.includes('DONE') ? resolve() : reject(new Error(`the server failed (${code}): ${err}`)))),
  );
  return { ready, done, go: () => p.stdin.end('go\n') };
}

describe.skipIf(skipWithoutPostgres())("the store's write lock on a desk: two servers, one workspace", { timeout: 180_000 }, () => {
  let workspaces: PostgresWorkspaces;
  beforeAll(async () => {
    workspaces = await startPostgresWorkspaces();
  }, 120_000);
  afterAll(async () => {
    await workspaces?.stop();
  });

  it("read-modify-writes from two servers never lose an update (as SQLite's one-writer lock guarantees on one machine)", async () => {
    const url = workspaces.freshUrl();
    const times = 60;
    const a = server(url, times);
    const b = server(url, times);
    await Promise.all([a.ready, b.ready]);
    a.go();
    b.go();
    await Promise.all([a.done, b.done]);
    const store = openDeskStore(url);
    try {
      // Without the lock, both servers read the same value and one of the two increments is lost.
      expect(store.getMeta('race_counter')).toBe(String(2 * times));
    } finally {
      store.close();
    }
  });
});
