import AxeBuilder from '@axe-core/playwright';
import type { Page } from '@playwright/test';
import { expect, test } from './fixtures';
import { screenshotsInBothThemes } from './shots';

/**
 * The Views and Expressions tables as a PM drives them: filter, sort by a column (and back), walk
 * the rows with the keyboard and open one in the right pane. Demo workspace: V-001..V-006 and
 * E-001..E-003, whose confidences and sizes fix the expected orders below.
 */

const ids = (page: Page) => page.getByTestId('memory-row').evaluateAll((els) => els.map((e) => e.getAttribute('data-id')));

test('filter the Views and sort them by confidence, then reverse the sort', async ({ page, forge }) => {
  await page.goto(`${forge.url}#/views`);
  const table = page.getByTestId('memory-list');
  await expect(table).toHaveAttribute('role', 'grid');
  await expect(page.getByTestId('memory-row')).toHaveCount(6);

  const header = page.getByRole('columnheader', { name: 'Conf.' });
  await expect(header).toHaveAttribute('aria-sort', 'none');
  await page.getByTestId('sort-confidence').click();
  await expect(header).toHaveAttribute('aria-sort', 'descending');
  await expect.poll(() => ids(page)).toEqual(['V-001', 'V-004', 'V-002', 'V-003', 'V-005', 'V-006']);
  await expect(page.getByRole('columnheader', { name: 'Updated' })).toHaveAttribute('aria-sort', 'none');

  // Figures line up: right-aligned, digits of equal width.
  const conf = page.locator('[data-testid="memory-row"][data-id="V-004"] [role="gridcell"]').nth(3);
  await expect(conf).toHaveText('0.65');
  await expect(conf).toHaveCSS('text-align', 'right');
  await expect(conf).toHaveCSS('font-variant-numeric', 'tabular-nums');
  await screenshotsInBothThemes(page, 'views-table-sorted');

  // The second click reverses.
  await page.getByTestId('sort-confidence').click();
  await expect(header).toHaveAttribute('aria-sort', 'ascending');
  await expect.poll(() => ids(page)).toEqual(['V-006', 'V-005', 'V-003', 'V-002', 'V-004', 'V-001']);

  // The filter box still drives the table, and the sort holds.
  await page.getByTestId('memory-query').fill('status:active');
  await expect.poll(() => ids(page)).toEqual(['V-003', 'V-002', 'V-004', 'V-001']);
  await expect(page.locator('.list-summary')).toContainText('4 matches');
  await screenshotsInBothThemes(page, 'views-table-filtered');

  const scan = await new AxeBuilder({ page }).include('[data-testid="memory-list"]').analyze();
  const bad = scan.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
  expect(bad.map((v) => `${v.id}: ${v.help}`)).toEqual([]);
});

test('the keyboard walks the table and Enter opens the record in the right pane', async ({ page, forge }) => {
  await page.goto(`${forge.url}#/views`);
  await page.getByTestId('sort-id').click();
  await expect.poll(() => ids(page)).toEqual(['V-001', 'V-002', 'V-003', 'V-004', 'V-005', 'V-006']);
  const table = page.getByTestId('memory-list');
  await table.focus();

  await page.keyboard.press('Home');
  await page.keyboard.press('ArrowDown');
  await page.keyboard.press('ArrowDown');
  // The cursor moved (aria-activedescendant) but nothing opened yet.
  await expect(table).toHaveAttribute('aria-activedescendant', 'rt-views-2');
  await expect(page.getByTestId('record-view')).toHaveCount(0);
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(/#\/views\/V-003\.md$/);
  await expect(page.getByTestId('record-view').locator('.record-id')).toHaveText('V-003');
  await expect(page.locator('[data-testid="memory-row"][data-id="V-003"]')).toHaveAttribute('aria-selected', 'true');

  await page.keyboard.press('End');
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('record-view').locator('.record-id')).toHaveText('V-006');
  await page.keyboard.press('PageUp');
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('record-view').locator('.record-id')).toHaveText('V-001');
  await screenshotsInBothThemes(page, 'views-table-open');

  // A click opens too.
  await page.locator('[data-testid="memory-row"][data-id="V-005"]').click();
  await expect(page).toHaveURL(/#\/views\/V-005\.md$/);
});

test('the Expressions table shows instrument, size, max loss and View, sortable by size', async ({ page, forge }) => {
  await page.goto(`${forge.url}#/expressions`);
  await expect(page.getByTestId('memory-row')).toHaveCount(3);
  await page.getByTestId('sort-notional').click();
  await expect.poll(() => ids(page)).toEqual(['E-001', 'E-003', 'E-002']);
  const e1 = page.locator('[data-testid="memory-row"][data-id="E-001"]');
  await expect(e1).toContainText('USD 2y SOFR swap');
  await expect(e1).toContainText('12.0');
  await expect(e1).toContainText('1.20%');
  await expect(e1).toContainText('V-001');
  await screenshotsInBothThemes(page, 'expressions-table');
});

test('figures line up in the Portfolio too: right-aligned, tabular digits', async ({ page, forge }) => {
  await page.goto(`${forge.url}#/portfolio`);
  const figure = page.getByTestId('book-open').locator('td.num').first();
  await expect(figure).toBeVisible();
  await expect(figure).toHaveCSS('text-align', 'right');
  await expect(figure).toHaveCSS('font-variant-numeric', 'tabular-nums');
  await expect(page.getByTestId('book-open').locator('th.num').first()).toHaveCSS('text-align', 'right');
});

test('with nothing open the table takes the width: titles and status chips are whole, and Title sorts', async ({ page, forge }) => {
  await page.setViewportSize({ width: 1440, height: 800 });
  // Strings, not functions: the e2e files type-check without the DOM library.
  const cut = `[...document.querySelectorAll('[data-testid="memory-row"] [role="gridcell"]:nth-child(2), [data-testid="memory-row"] .chip')]
    .filter((c) => c.scrollWidth > c.clientWidth + 1).map((c) => c.textContent)`;
  for (const screen of ['views', 'expressions'] as const) {
    await page.goto(`${forge.url}#/${screen}`);
    // A lazy screen can take a while to open on a busy machine.
    await expect(page.getByTestId('memory-row').first()).toBeVisible({ timeout: 45_000 });
    // An empty detail pane gives its room to the table instead of a third of the screen.
    const pane = await page.locator('.detail-pane').boundingBox();
    expect(pane!.width).toBeLessThan(1440 / 5);
    // No title and no status chip ends in an ellipsis.
    expect(await page.evaluate(cut)).toEqual([]);
    // The longest status a record can carry fits its chip too.
    const longest = `(() => { const c = document.querySelector('[data-testid="memory-row"] .chip'); c.textContent = 'review_required'; return c.scrollWidth <= c.clientWidth + 1; })()`;
    expect(await page.evaluate(longest)).toBe(true);
  }

  // The Title header sorts A to Z, then Z to A.
  await page.reload();
  await expect(page.getByTestId('memory-row')).toHaveCount(3);
  await page.getByTestId('sort-title').click();
  await expect(page.getByRole('columnheader', { name: 'Title' })).toHaveAttribute('aria-sort', 'ascending');
  await expect.poll(() => ids(page)).toEqual(['E-002', 'E-001', 'E-003']);
  await page.getByTestId('sort-title').click();
  await expect.poll(() => ids(page)).toEqual(['E-003', 'E-001', 'E-002']);

  // Opening a record brings the detail pane back at full size.
  await page.getByTestId('memory-row').first().click();
  await expect(page.getByTestId('record-view')).toBeVisible();
  expect((await page.locator('.detail-pane').boundingBox())!.width).toBeGreaterThan(400);
});
