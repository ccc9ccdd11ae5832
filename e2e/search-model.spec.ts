import { join } from 'node:path';
import { writeTinyModel } from '../src-main/search/semantic/testing/tiny-model';
import { expect, test } from './fixtures';
import { screenshotsInBothThemes } from './shots';

/**
 * Settings → Search, the local model: with nothing installed it says so and search stays on the
 * keyword-like embedder; pointing at a model folder (an air-gapped desk) switches the index to it
 * and rebuilds with progress; choosing "keyword-like" switches back. No weights can be downloaded
 * here, so the folder holds the tiny model the unit tests build.
 */
test('a PM points Settings → Search at a model folder and the index moves to it', async ({ page, forge }) => {
  await page.goto(`${forge.url}#/settings`);
  const card = page.getByTestId('search-model');
  await expect(page.getByTestId('search-model-status')).toContainText('not installed');
  await expect(card).toContainText('keyword-like (no download)');
  await expect(page.getByTestId('search-model-active')).toHaveText('hash-ngram-384');
  // The model's files are pinned by checksum, so Download is offered (this machine cannot reach it).
  await expect(page.getByTestId('search-model-download')).toBeEnabled();
  await card.scrollIntoViewIfNeeded();
  await screenshotsInBothThemes(page, 'settings-search-model-not-installed');

  await page.getByTestId('search-model-folder').fill(join(forge.dataDir, 'nowhere'));
  await card.getByRole('button', { name: 'Use folder' }).click();
  await expect(card).toContainText('is not a model folder');

  const folder = join(forge.dataDir, 'offline', 'minilm');
  writeTinyModel(folder, { words: ['sales', 'rising'], synonyms: [['car', 'automobile']] });
  await page.getByTestId('search-model-folder').fill(folder);
  await card.getByRole('button', { name: 'Use folder' }).click();
  await expect(page.getByTestId('search-model-status')).toContainText(`installed from ${folder}`);
  await expect(page.getByTestId('search-model-active')).toHaveText('local-minilm-384');
  // Switching embedders rebuilds the index at once.
  await expect(page.getByTestId('search-index')).toContainText('✓ Rebuilt', { timeout: 30_000 });
  await expect(page.getByTestId('search-index')).toContainText('local-minilm-384');
  await card.scrollIntoViewIfNeeded();
  await screenshotsInBothThemes(page, 'settings-search-model-folder');

  await page.getByTestId('search-embedder').selectOption('hash');
  await expect(page.getByTestId('search-model-active')).toHaveText('hash-ngram-384');
});
