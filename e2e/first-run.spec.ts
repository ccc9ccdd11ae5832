import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { expect, test } from './fixtures';

const root = join(import.meta.dirname, '..');

// A PM on a fresh install who cannot find where the key goes, or is not told the model's size before a
// download on a hotel line, gives up on day one; a support desk that cannot name the build cannot help.
test('first launch: a missing API key is one click from Settings, the model is offered with its size, About names the exact build', async ({ page, forge }) => {
  const problems: string[] = [];
  page.on('pageerror', (e) => problems.push(`page error: ${e.message}`));
  await page.goto(forge.url);

  const card = page.getByTestId('home-first-run');
  await expect(card).toBeVisible();
  // The size comes from the pinned manifest (~23 MB for all-MiniLM-L6-v2 int8), not from text in the UI.
  await expect(card.getByTestId('first-run-model-size')).toHaveText('~23 MB');

  // One click: Settings opens at API keys with the cursor in the key field.
  await card.getByTestId('first-run-key-link').click();
  await expect(page.getByTestId('screen-settings')).toBeVisible();
  await expect(page).toHaveURL(/#\/settings\/keys$/);
  await expect(page.locator('#keys-title')).toBeInViewport();
  await expect(page.locator('#secret-anthropicApiKey')).toBeFocused();

  // About: the commit and date baked in by the build (the same as `forge version`), platform, and the optional parts.
  const version = spawnSync(process.execPath, [join(root, 'bin', 'forge.mjs'), 'version', '--data', forge.dataDir], { encoding: 'utf8' });
  const commit = /commit (\S+), built (\S+)/.exec(version.stdout);
  expect(commit, version.stdout + version.stderr).not.toBeNull();
  await expect(page.getByTestId('about-build')).toHaveText(`Commit ${commit![1]}, built ${commit![2]}`);
  await expect(page.getByTestId('about-platform')).toContainText('Node ');
  await expect(page.getByTestId('about-part')).toHaveCount(3);
  await expect(page.locator('[data-testid="about-part"][data-part="search model"]')).toHaveAttribute('data-active', 'false');

  // Once the key is set the key prompt goes; "Not now" puts the model offer away, and with both done the card is gone.
  await page.locator('#secret-anthropicApiKey').fill('sk-ant-test-key');
  await page.getByTestId('secret-save-anthropicApiKey').click();
  await expect(page.locator('section[aria-labelledby="keys-title"]')).toContainText('Key saved');
  await page.getByTestId('nav-home').click();
  await expect(page.getByTestId('first-run-key')).toHaveCount(0);
  await page.getByTestId('first-run-model-dismiss').click();
  await expect(page.getByTestId('home-first-run')).toHaveCount(0);
  await page.reload();
  await expect(page.getByTestId('screen-home')).toBeVisible();
  await expect(page.getByTestId('home-first-run')).toHaveCount(0);
  expect(problems).toEqual([]);
});

// A PM who wants their own book is not made to delete six made-up Views by hand; a PM who clicks
// Start empty by mistake is asked first, and the sample positions stay until they import their own.
test('first launch: the sample workspace is offered, and Start empty (after a confirmation) empties Views', async ({ page, forge }) => {
  const problems: string[] = [];
  page.on('pageerror', (e) => problems.push(`page error: ${e.message}`));
  await page.goto(`${forge.url}#/views`);
  await expect(page.getByTestId('memory-row')).toHaveCount(6);

  await page.getByTestId('nav-home').click();
  const card = page.getByTestId('home-sample');
  await expect(card).toBeVisible();
  await expect(card).toContainText('This is a sample workspace');
  // Start empty asks first; Cancel leaves everything as it was.
  await card.getByTestId('home-sample-start-empty').click();
  await expect(card.getByTestId('home-sample-confirm')).toContainText('Remove the 15 sample records?');
  await card.getByTestId('home-sample-confirm-no').click();
  await expect(card.getByTestId('home-sample-confirm')).toHaveCount(0);
  await card.getByTestId('home-sample-start-empty').click();
  await card.getByTestId('home-sample-confirm-yes').click();
  await expect(page.getByTestId('home-sample-cleared')).toContainText('The sample positions and limits stay until you import your own or edit them.');
  await page.getByTestId('home-sample-cleared-close').click();
  await expect(page.getByTestId('home-sample-cleared')).toHaveCount(0);
  await expect(page.getByTestId('home-sample')).toHaveCount(0);

  await page.goto(`${forge.url}#/views`);
  await expect(page.getByTestId('screen-views')).toBeVisible();
  await expect(page.getByTestId('memory-row')).toHaveCount(0);
  // The card does not come back: the workspace is no longer the sample.
  await page.getByTestId('nav-home').click();
  await expect(page.getByTestId('screen-home')).toBeVisible();
  await expect(page.getByTestId('home-sample')).toHaveCount(0);
  expect(problems).toEqual([]);
});

test('first launch: "Keep it" hides the sample card for good and removes nothing', async ({ page, forge }) => {
  await page.goto(forge.url);
  await page.getByTestId('home-sample-keep').click();
  await expect(page.getByTestId('home-sample')).toHaveCount(0);
  // After a reload the card stays away even once Home has the answer that the sample is untouched.
  const answered = page.waitForResponse((r) => r.url().includes('/api/workspace/sample') && r.ok());
  await page.reload();
  await answered;
  await expect(page.getByTestId('screen-home')).toBeVisible();
  await expect(page.getByTestId('home-sample')).toHaveCount(0);
  await page.goto(`${forge.url}#/views`);
  await expect(page.getByTestId('memory-row')).toHaveCount(6);
});

test('Settings → Search shows the model download with its size from the pinned manifest', async ({ page, forge }) => {
  // A PM on a hotel line sees what "Download the model" costs before clicking it.
  await page.goto(`${forge.url}#/settings/search`);
  await expect(page.getByTestId('search-model-download')).toBeVisible();
  await expect(page.getByTestId('search-model-download-size')).toHaveText(' (~23 MB)');
});
