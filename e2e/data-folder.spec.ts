import { copyFileSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from '@playwright/test';
import { expect, screenshotDir, test } from './fixtures';

test.beforeAll(() => mkdirSync(screenshotDir, { recursive: true }));

const STOOQ = join(import.meta.dirname, '..', 'src-main', 'providers', 'fixtures', 'spy.us.csv');

async function openData(page: Page, url: string) {
  await page.goto(url);
  await page.getByTestId('nav-data').click();
  await expect(page.getByTestId('screen-data')).toBeVisible();
}

test('a Stooq CSV written into the data folder of a running forge serve is listed with its dialect; a bad file beside it says why in one sentence', async ({
  page,
  forge,
}) => {
  await openData(page, forge.url);
  const section = page.getByTestId('data-folder');
  const folder = join(forge.dataDir, 'datasets');
  // The default folder exists from the first start: the PM has somewhere to drop files before configuring anything.
  await expect(section.getByTestId('data-folder-path')).toHaveText(folder);
  await expect(section.getByTestId('data-folder-files')).toContainText('No data files in the folder yet.');

  // Written while the screen is open: the list follows the folder without a reload.
  copyFileSync(STOOQ, join(folder, 'spy.us.csv'));
  writeFileSync(join(folder, 'broken.csv'), 'Date,x\n2024-01-01,1\n2024-02-30,2\n');
  const spy = section.locator('[data-testid="data-file"][data-file="spy.us.csv"]');
  await expect(spy).toBeVisible({ timeout: 20_000 });
  await expect(spy.getByTestId('data-file-dialect')).toHaveText('Read as: comma delimited, decimal point, dates YYYY-MM-DD, header row, UTF-8, CRLF');
  await expect(spy.getByTestId('data-file-dataset')).toContainText('spy.us: 6 rows, 2024-01-29 to 2024-02-05');
  await expect(spy.getByTestId('data-file-dataset')).toContainText('spy.us.Close');
  const broken = section.locator('[data-testid="data-file"][data-file="broken.csv"]');
  await expect(broken.getByTestId('data-file-problem')).toHaveText('Row 3, column 1 "Date": "2024-02-30" is not a calendar date.');
  await section.screenshot({ path: join(screenshotDir, 'data-folder.png') });

  // Deleted on disk: gone from the list.
  rmSync(join(folder, 'broken.csv'));
  await expect(broken).toHaveCount(0, { timeout: 20_000 });
  await expect(spy).toBeVisible();
});

test('the PM points Forge at another folder by path; a path that is not a folder is refused in words', async ({ page, forge }) => {
  const exports = mkdtempSync(join(tmpdir(), 'forge-e2e-exports-'));
  try {
    writeFileSync(join(exports, 'dax.csv'), '\uFEFFDatum;Kurs\r\n30.01.2024;16.941,71\r\n31.01.2024;16.903,76\r\n');
    await openData(page, forge.url);
    const section = page.getByTestId('data-folder');
    const input = section.getByTestId('data-folder-input');

    await input.fill(join(exports, 'nowhere'));
    await section.getByTestId('data-folder-save').click();
    await expect(section.getByTestId('data-folder-input-error')).toContainText(`There is no folder ${join(exports, 'nowhere')}.`);
    await expect(section.getByTestId('data-folder-path')).toHaveText(join(forge.dataDir, 'datasets'));

    await input.fill(exports);
    await section.getByTestId('data-folder-save').click();
    await expect(section.getByTestId('data-folder-path')).toHaveText(exports);
    const dax = section.locator('[data-testid="data-file"][data-file="dax.csv"]');
    await expect(dax.getByTestId('data-file-dialect')).toHaveText(
      'Read as: semicolon delimited, decimal comma, dates DD.MM.YYYY (inferred: 30.01.2024 has day first), header row, UTF-8 with BOM, CRLF',
    );

    await section.getByTestId('data-folder-reset').click();
    await expect(section.getByTestId('data-folder-path')).toHaveText(join(forge.dataDir, 'datasets'));
    await expect(dax).toHaveCount(0);
  } finally {
    rmSync(exports, { recursive: true, force: true });
  }
});
