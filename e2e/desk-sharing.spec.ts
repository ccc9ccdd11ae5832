import type { ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import AxeBuilder from '@axe-core/playwright';
import type { Browser, Page } from '@playwright/test';
import { type DeskProcess, startDeskProcess } from './desk-process';
import { expect, type ForgeServer, startServer, stop, test } from './fixtures';

/**
 * Sharing a View on a desk from its page: its owner sees "Private", shares it with a colleague by
 * name, and the colleague's page says whose it is and who reads it, with no control to change it.
 * What a user would see go wrong if this failed: research that cannot be shared from the app, a
 * page that says private for a View the desk can read, or a control offered to someone who is not
 * the owner. (The desk here is served as the database's superuser, as in desk.spec.ts: who reads
 * what under row-level security is src-main/host/__tests__/desk-sharing.test.ts's.)
 */

const here = dirname(fileURLToPath(import.meta.url));
const _root = join(here, '..');
const PASSWORD = 'correct horse battery staple';
const postgresMissing = !existsSync('/usr/lib/postgresql') && process.env.FORGE_REQUIRE_POSTGRES !== '1';

test.describe.configure({ mode: 'serial', timeout: 180_000 });
test.skip(postgresMissing, "no PostgreSQL here (Debian's postgresql package puts it in /usr/lib/postgresql); FORGE_REQUIRE_POSTGRES=1 makes this a failure");

let setup: DeskProcess | undefined;
let server: ChildProcess | undefined;
let dataDir: string | undefined;
let forge: Omit<ForgeServer, 'restart'>;

test.beforeAll(async () => {
  setup = startDeskProcess('desk-setup.ts', PASSWORD);
  const url = await setup.url;
  dataDir = mkdtempSync(join(tmpdir(), 'forge-e2e-desk-sharing-'));
  // `forge serve` reads FORGE_DB as it reads --db.
  process.env.FORGE_DB = url;
  try {
    const started = await startServer(dataDir);
    forge = started.server;
    server = started.child;
  } finally {
    delete process.env.FORGE_DB;
  }
});

test.afterAll(async () => {
  if (server) await stop(server);
  await setup?.stop();
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
});

/** A call to the server as a person (their desk session in the header the page's client uses). */
async function api<T>(name: string, input: unknown, session?: string): Promise<T> {
  const r = await fetch(`${forge.baseURL}/api/${name}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${forge.token}`, ...(session ? { 'x-forge-session': session } : {}) },
    body: JSON.stringify(input),
  });
  const body = (await r.json()) as { ok: boolean; value: T; error?: { message: string } };
  if (!body.ok) throw new Error(`${name}: ${body.error?.message}`);
  return body.value;
}

/** A person's own browser context, signed in, on a View's page (by its hash: a reload would sign them out of this window). */
async function openViewAs(browser: Browser, userId: string, viewId: string): Promise<Page> {
  const page = await (await browser.newContext()).newPage();
  await page.goto(`${forge.url}#/desk`);
  await expect(page.getByTestId('desk-sign-in')).toBeVisible({ timeout: 30_000 });
  await page.getByLabel('User id').fill(userId);
  await page.getByLabel('Password').fill(PASSWORD);
  await page.getByTestId('desk-sign-in-submit').click();
  await expect(page.getByTestId('desk-role')).toBeVisible({ timeout: 30_000 });
  // (A string: this file is type-checked without the DOM's types.)
  await page.evaluate(`location.hash = '#/views/${viewId}'`);
  await expect(page.getByTestId('view-page')).toBeVisible({ timeout: 30_000 });
  return page;
}

test("a View's owner shares it with a colleague from its page; the colleague's page says whose it is, with nothing to change", async ({ browser }) => {
  const { session } = await api<{ session: string }>('desk/sign-in', { userId: 'alice', password: PASSWORD });
  const content = '# new — Sharing curve view\nstatus: active\nconfidence: 0.6\nscope: US rates\n---\n## SUMMARY\nAlice expects the 2s10s curve to steepen.\n';
  // desk-setup.ts seeds V-001 as the database's superuser (no owner row, the id counter not
  // advanced); new Views skip past it. The second is the one the test shares: hers and private.
  await api('memory/write', { path: '/memory/views/new.md', content: content.replace('Sharing curve view', 'Seeded id taken') }, session);
  const { path } = await api<{ path: string }>('memory/write', { path: '/memory/views/new.md', content }, session);
  const id = /([VE]-\d+)\.md$/.exec(path)![1]!;

  const alice = await openViewAs(browser, 'alice', id);
  await expect(alice.getByTestId('record-sharing-line')).toHaveText('Yours. Private: only its owner (and risk) can read it.');
  await alice.getByRole('button', { name: 'Change who can read it' }).click();
  await alice.getByRole('radio', { name: 'Shared with the people I pick' }).check();
  // Save waits for a name: a shared View read by nobody is not a choice.
  await expect(alice.getByTestId('record-sharing-save')).toBeDisabled();
  await alice.getByRole('checkbox', { name: /Bob/ }).check();
  // The form, open, is named and reachable for a screen reader, in both themes.
  for (const theme of ['light', 'dark'] as const) {
    await alice.emulateMedia({ colorScheme: theme });
    const scan = await new AxeBuilder({ page: alice }).include('[data-testid="record-sharing"]').analyze();
    expect(scan.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => `${theme} ${v.id}`)).toEqual([]);
  }
  await alice.getByTestId('record-sharing-save').click();
  await expect(alice.getByTestId('record-sharing-line')).toHaveText('Yours. Shared with Bob.');
  expect((await api<{ visibility: string }>('memory/access', { path }, session)).visibility).toBe('shared');

  const bob = await openViewAs(browser, 'bob', id);
  await expect(bob.getByTestId('record-sharing-line')).toHaveText('Alice’s. Shared with Bob.');
  await expect(bob.getByTestId('record-sharing-change')).toHaveCount(0);

  // Made desk-wide by its owner, bob's open page follows without a reload (the desk's change event).
  await alice.getByRole('button', { name: 'Change who can read it' }).click();
  await alice.getByRole('radio', { name: /Desk-wide/ }).check();
  await alice.getByTestId('record-sharing-save').click();
  await expect(alice.getByTestId('record-sharing-line')).toHaveText('Yours. Desk-wide: everyone on the desk can read it.');
  await expect(bob.getByTestId('record-sharing-line')).toHaveText('Alice’s. Desk-wide: everyone on the desk can read it.', { timeout: 30_000 });
});
