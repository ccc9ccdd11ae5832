import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { racingServer } from './racing-server';
import { openDeskStore } from './desk-store';
import { skipWithoutPostgres } from './test-server';
import { type PostgresWorkspaces, startPostgresWorkspaces } from './test-workspaces';

const here = dirname(fileURLToPath(import.meta.url));

/** One child process = one Forge server with its own store on the desk's database. */
function server(url: string, times: number) {
  return racingServer<string>(join(here, '__tests__', 'counter.child.ts'), [url, String(times)]);
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
