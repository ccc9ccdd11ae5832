import { expect, test } from './fixtures';
import { screenshotsInBothThemes } from './shots';

/**
 * Craft details a PM notices in the first hour: edits in Settings are not thrown away without a
 * prompt, the theme override survives a reload, a too-long filter is explained in plain words
 * with a counter, and the MCP screen scrolls inside its panels instead of growing the page.
 */

// Strings, not functions: the e2e files type-check without the DOM library.
const documentHeight = 'document.documentElement.scrollHeight';
const theme = 'document.documentElement.dataset.theme';

test('leaving Settings with unsaved edits asks first: Keep editing keeps them, Discard leaves', async ({ page, forge }) => {
  await page.goto(`${forge.url}#/settings`);
  const name = page.getByTestId('setting-displayName');
  await expect(name).toBeVisible();
  await name.fill('Desk PM (unsaved)');

  // Sidebar click: the prompt opens and the PM stays on Settings.
  await page.getByTestId('nav-home').click();
  const prompt = page.getByTestId('unsaved-prompt');
  await expect(prompt).toBeVisible();
  await expect(prompt).toContainText('Discard unsaved changes?');
  await screenshotsInBothThemes(page, 'craft-unsaved-prompt');
  await page.getByTestId('unsaved-keep').click();
  await expect(prompt).toBeHidden();
  await expect(page.getByTestId('screen-settings')).toBeVisible();
  await expect(name).toHaveValue('Desk PM (unsaved)');
  expect(page.url()).toContain('#/settings');

  // A hash typed in the address bar is held the same way.
  await page.evaluate("window.location.hash = '#/chat'");
  await expect(prompt).toBeVisible();
  await page.getByTestId('unsaved-discard').click();
  await expect(page.getByTestId('screen-settings')).toBeHidden();
  expect(page.url()).toContain('#/chat');

  // Back on Settings the edit is gone (it was discarded, not saved).
  await page.getByTestId('nav-settings').click();
  await expect(page.getByTestId('setting-displayName')).toHaveValue('');
  // With nothing unsaved the sidebar works without a prompt.
  await page.getByTestId('nav-home').click();
  await expect(page.getByTestId('unsaved-prompt')).toBeHidden();
  expect(page.url()).toContain('#/home');
});

test('a saved setting shows a toast, and the dark theme chosen in Settings survives a reload', async ({ page, forge }) => {
  await page.emulateMedia({ colorScheme: 'light' });
  await page.goto(`${forge.url}#/settings`);
  await page.getByTestId('setting-theme').selectOption('dark');
  await page.getByTestId('settings-save').click();
  await expect(page.getByTestId('toast').filter({ hasText: 'Settings saved' })).toBeVisible();
  await expect.poll(() => page.evaluate(theme)).toBe('dark');
  await page.reload();
  await expect(page.getByTestId('screen-settings')).toBeVisible();
  // The system is light; only the saved override can make it dark.
  await expect.poll(() => page.evaluate(theme)).toBe('dark');
  await expect(page.getByTestId('setting-theme')).toHaveValue('dark');
  // Saved: leaving asks nothing.
  await page.getByTestId('nav-home').click();
  await expect(page.getByTestId('unsaved-prompt')).toBeHidden();
});

test('a too-long filter is explained in plain words, with a counter, and nothing is cut', async ({ page, forge }) => {
  await page.goto(`${forge.url}#/views`);
  const filter = page.getByTestId('memory-query');
  await expect(filter).toBeVisible();
  const long = `status:active ${'x'.repeat(1990)}`;
  await filter.fill(long);
  await expect(filter).toHaveValue(long);
  await expect(page.getByTestId('q-views-count')).toHaveText('2,004 / 2,000');
  await expect(page.getByTestId('memory-query-error')).toHaveText('The filter can be at most 2,000 characters.');
  await expect(page.getByText(/Too big|<=2000/)).toHaveCount(0);
  await screenshotsInBothThemes(page, 'craft-long-filter');
  // Back under the limit: the message goes, the counter stays honest.
  await filter.fill('status:active');
  await expect(page.getByTestId('memory-query-error')).toBeHidden();
});

test('the MCP screen fits the window: its tool catalogue and call log scroll inside their panels', async ({ page, forge }) => {
  await page.setViewportSize({ width: 1400, height: 900 });
  await page.goto(`${forge.url}#/mcp`);
  const tools = page.getByTestId('mcp-tools-scroll');
  await expect(tools).toBeVisible();
  await expect(page.getByTestId('mcp-tool').first()).toBeVisible();
  const height = (await page.evaluate(documentHeight)) as number;
  expect(height).toBeLessThan(1.5 * 900);
  // The panel scrolls by keyboard: it takes focus and has a name.
  await expect(tools).toHaveAttribute('tabindex', '0');
  await expect(tools).toHaveAttribute('aria-label', /Tools offered/);
  const box = await tools.boundingBox();
  expect(box!.height).toBeLessThanOrEqual(421);
  await screenshotsInBothThemes(page, 'craft-mcp');
});

test('Chat names the Expression it wrote by id, as a link, and shows a blocked write as rule / value / limit', async ({ page, forge }) => {
  await page.goto(`${forge.url}#/chat`);
  await expect(page.getByTestId('screen-chat')).toBeVisible();
  await page.getByTestId('demo-speed').selectOption('fast');
  await page.getByRole('button', { name: 'Demo', exact: true }).click();
  const chat = page.getByTestId('screen-chat');

  // The demo's oversized trade is refused: each broken limit is a row, not a paragraph of tool output.
  const blocked = chat.getByTestId('chat-blocked-limits').first();
  await expect(blocked).toBeVisible({ timeout: 30_000 });
  await expect(blocked.locator('tbody tr').first()).toContainText('max_single_risk');
  await expect(blocked.locator('thead')).toContainText('Rule');
  await expect(blocked.locator('thead')).toContainText('Limit');

  // The compliant one is written: the link says E-00n (never new.md) and opens it.
  // (The demo also writes an Observation first: O-00n, linked the same way.)
  const link = chat
    .getByTestId('chat-record-link')
    .filter({ hasText: /^E-\d{3}$/ })
    .first();
  await expect(link).toBeVisible({ timeout: 30_000 });
  await expect(chat.getByTestId('chat-record-link').first()).toHaveText(/^[A-Z]+-\d{3}$/);
  // A write that landed names its record; only the refused one still shows the new.md it asked for.
  await expect(chat.locator('details.tool-call.is-ok .tool-arg', { hasText: 'new.md' })).toHaveCount(0);
  await expect(page.getByTestId('toast').filter({ hasText: /E-\d{3} awaits your approval/ })).toBeVisible();
  await screenshotsInBothThemes(page, 'craft-chat-record-link');
  const id = (await link.textContent())!;
  await link.click();
  await expect.poll(() => decodeURIComponent(page.url())).toMatch(new RegExp(`#/expressions/${id}(\\.md)?$`));
  await expect(page.getByRole('button', { name: `Approve ${id}` })).toBeVisible();
});

test('Settings refuses an unknown time zone and an ftp:// base URL at their fields, names fields by their labels, and forgets an error once fixed', async ({
  page,
  forge,
}) => {
  await page.goto(`${forge.url}#/settings`);
  await page.getByTestId('setting-timezone').fill('Mars/Olympus_Mons');
  await page.getByTestId('setting-anthropicBaseUrl').fill('ftp://gateway.example.com');
  await page.getByTestId('setting-models.agent').fill('');
  // The core answers 400 on purpose here: three fields are wrong.
  const refused = page.waitForResponse((r) => r.url().includes('settings') && r.status() === 400);
  await page.getByTestId('settings-save').click();
  await refused;
  await expect(page.getByTestId('setting-error-timezone')).toContainText('not a time zone Forge knows');
  await expect(page.getByTestId('setting-error-anthropicBaseUrl')).toContainText('https://');
  // The field is labelled "Analyst"; its error must not call it "Agent".
  await expect(page.getByTestId('setting-error-models.agent')).toContainText('Analyst');
  await expect(page.getByTestId('setting-error-models.agent')).not.toContainText('Agent');

  // Fixing one field clears its error at once; the others stay until they are fixed too.
  await page.getByTestId('setting-timezone').fill('Europe/London');
  await expect(page.getByTestId('setting-error-timezone')).toBeHidden();
  await expect(page.getByTestId('setting-error-anthropicBaseUrl')).toBeVisible();
});

test('the sticky Save bar never covers the field the PM is typing in', async ({ page, forge }) => {
  await page.setViewportSize({ width: 1280, height: 700 });
  await page.goto(`${forge.url}#/settings`);
  const last = page.getByTestId('setting-models.planner');
  await expect(last).toBeVisible();
  // Tabbing down brings each field in at the bottom edge of the page, as scrollIntoView does;
  // the field must land above the bar, not under it.
  await page.evaluate(`document.querySelector('[data-testid="setting-models.planner"]').scrollIntoView({ block: 'end' })`);
  const field = await last.boundingBox();
  const bar = await page.getByTestId('settings-form').locator('.form-actions').boundingBox();
  expect(field && bar).toBeTruthy();
  expect(field!.y + field!.height).toBeLessThanOrEqual(bar!.y);
});

test('headless Chat without a key says where a pasted key is kept, in the same words as Settings', async ({ page, forge }) => {
  await page.goto(`${forge.url}#/chat`);
  const card = page.getByTestId('chat-nokey');
  await expect(card).toBeVisible();
  // forge serve keeps a pasted key in memory for this run only; "stored encrypted" would be false.
  await expect(page.getByTestId('chat-nokey-storage')).toContainText('kept in memory for this run only');
  await expect(card).not.toContainText('encrypted');
  const storage = await page.getByTestId('chat-nokey-storage').innerText();
  await page.goto(`${forge.url}#/settings`);
  await expect(page.getByTestId('screen-settings')).toContainText(storage.trim());
});
