import { join } from 'node:path';
import { expect, screenshotDir, test } from './fixtures';
import { screenshotsInBothThemes } from './shots';

test('the app loads and the status bar shows mode, version and health from the API', async ({ page, forge }) => {
  await page.goto(forge.url);
  await expect(page.getByTestId('app-frame')).toBeVisible();
  // With no screen in the address, the app opens on Home.
  await expect(page.getByTestId('screen-home')).toBeVisible();
  await expect(page.getByTestId('status-mode')).toContainText(/headless/i);
  await expect(page.getByTestId('status-version')).toContainText(/\d+\.\d+\.\d+/);
  await expect(page.getByTestId('status-health')).toContainText(/ok|degraded/i);
  // The token leaves the address bar once the page has it.
  expect(page.url()).not.toContain('token=');
  await page.screenshot({ path: join(screenshotDir, 'home.png'), fullPage: true });
  await screenshotsInBothThemes(page, 'app');
});

test('a setting survives a reload and a server restart', async ({ page, forge }) => {
  await page.goto(forge.url);
  await page.getByTestId('nav-settings').click();
  const name = page.getByTestId('setting-displayName');
  await name.fill('Global Macro Desk');
  await page.getByTestId('settings-save').click();
  await expect(page.getByTestId('settings-saved')).toBeVisible();
  await page.reload();
  await page.getByTestId('nav-settings').click();
  await expect(page.getByTestId('setting-displayName')).toHaveValue('Global Macro Desk');

  await forge.restart();
  await page.goto(forge.url);
  await page.getByTestId('nav-settings').click();
  await expect(page.getByTestId('setting-displayName')).toHaveValue('Global Macro Desk');
  await page.screenshot({ path: join(screenshotDir, 'settings-saved.png'), fullPage: true });
});

test('a request without the token is refused with 401', async ({ request, forge }) => {
  const r = await request.post(`${forge.baseURL}/api/app/health`, { data: {} });
  expect(r.status()).toBe(401);
  expect((await r.json()).error.code).toBe('unauthorized');
  const page = await request.get(`${forge.baseURL}/`);
  expect(page.status()).toBe(401);
});

test('a request from a foreign Origin is refused with 403, even with the token', async ({ request, forge }) => {
  const r = await request.post(`${forge.baseURL}/api/settings/get`, {
    data: {},
    headers: { authorization: `Bearer ${forge.token}`, origin: 'http://evil.example' },
  });
  expect(r.status()).toBe(403);
  const ok = await request.post(`${forge.baseURL}/api/settings/get`, { data: {}, headers: { authorization: `Bearer ${forge.token}` } });
  expect(ok.status()).toBe(200);
});
