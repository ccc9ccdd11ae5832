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
