import AxeBuilder from '@axe-core/playwright';
import type { Page } from '@playwright/test';
import { expect, test } from './fixtures';
import { screenshotsInBothThemes } from './shots';

/**
 * An automated accessibility scan (axe) of every screen and the open states a PM meets all day,
 * in both themes. A serious or critical finding fails the run: for a PM it means text too faint
 * to read, a control a screen reader cannot name, or a panel the keyboard cannot reach.
 */

const screens = [
  'home',
  'chat',
  'views',
  'expressions',
  'tasks',
  'proposals',
  'calibration',
  'schedule',
  'builds',
  'contracts',
  'skills',
  'portfolio',
  'data',
  'mcp',
  'settings',
] as const;

const themes = ['light', 'dark'] as const;
type Theme = (typeof themes)[number];

/** One line per failing element: where, which rule, which element, and why, so the fix needs no rerun. */
interface Finding {
  where: string;
  theme: Theme;
  rule: string;
  impact: string;
  target: string;
  summary: string;
}

async function useTheme(page: Page, theme: Theme): Promise<void> {
  await page.emulateMedia({ colorScheme: theme });
  await expect(page.locator('html')).toHaveAttribute('data-theme', theme);
}

/** Scans the page as it stands and returns only the serious and critical findings. */
async function scan(page: Page, where: string, theme: Theme, within?: string): Promise<Finding[]> {
  const axe = new AxeBuilder({ page });
  if (within) axe.include(within);
  const result = await axe.analyze();
  const findings: Finding[] = [];
  for (const v of result.violations) {
    if (v.impact !== 'serious' && v.impact !== 'critical') continue;
    for (const node of v.nodes) {
      findings.push({
        where,
        theme,
        rule: v.id,
        impact: v.impact,
        target: node.target.join(' '),
        summary: (node.failureSummary ?? v.help).replace(/\s+/g, ' ').slice(0, 240),
      });
    }
  }
  return findings;
}

/** `within` narrows the scan to an overlay, so the screen behind it is not reported twice. */
async function scanBothThemes(page: Page, where: string, within?: string): Promise<Finding[]> {
  const all: Finding[] = [];
  for (const theme of themes) {
    await useTheme(page, theme);
    all.push(...(await scan(page, where, theme, within)));
  }
  await page.emulateMedia({ colorScheme: null });
  return all;
}

function report(findings: Finding[]): string[] {
  return findings.map((f) => `${f.where} [${f.theme}] ${f.rule} (${f.impact}) at ${f.target}: ${f.summary}`);
}

/** Lists, health and badges settle first, so the scan sees the screen a PM sees, not a spinner. */
async function settle(page: Page): Promise<void> {
  await expect(page.getByTestId('status-health')).not.toContainText(/checking/i);
  await page.waitForLoadState('networkidle').catch(() => undefined);
}

/**
 * Opens a screen from the sidebar; undefined when it renders, else what went wrong. One reload
 * before calling a screen broken: a rebuild of the app while this runs swaps the lazy chunks under
 * the open page. A screen that still does not render is reported with its page errors.
 */
async function openScreen(page: Page, screen: string): Promise<string | undefined> {
  const errors: string[] = [];
  const onError = (e: Error) => errors.push(e.message);
  page.on('pageerror', onError);
  const rendered = () =>
    expect(page.getByTestId(`screen-${screen}`))
      .toBeVisible()
      .then(() => true)
      .catch(() => false);
  try {
    await page.getByTestId(`nav-${screen}`).click();
    if (await rendered()) return undefined;
    await page.reload();
    if (await rendered()) return undefined;
    return `screen ${screen} did not render: ${errors.join(' | ') || 'no page error'}`;
  } finally {
    page.off('pageerror', onError);
  }
}

test('every screen passes the accessibility scan in light and dark', async ({ page, forge }) => {
  // Thirty full-page scans on a shared CI machine: generous, but a hang still fails.
  test.setTimeout(600_000);
  await page.goto(forge.url);
  await expect(page.getByTestId('app-frame')).toBeVisible();
  const findings: Finding[] = [];
  const missing: string[] = [];
  for (const screen of screens) {
    // A screen that does not render is reported, and the scan goes on to the others.
    const problem = await openScreen(page, screen);
    if (problem) missing.push(problem);
    await settle(page);
    findings.push(...(await scanBothThemes(page, `screen ${screen}`)));
    await screenshotsInBothThemes(page, `a11y-${screen}`);
  }
  expect([...missing, ...report(findings)]).toEqual([]);
});

test('the open states pass the scan: a record opened in Views, the command palette, the shortcuts help, a toast', async ({ page, forge }) => {
  test.setTimeout(300_000);
  await page.goto(`${forge.url}#/views`);
  const findings: Finding[] = [];

  const row = page.locator('[data-testid="memory-row"][data-id="V-001"]');
  await row.click();
  await expect(page.getByTestId('record-view')).toBeVisible();
  await settle(page);
  findings.push(...(await scanBothThemes(page, 'Views with V-001 open')));
  await screenshotsInBothThemes(page, 'a11y-views-record');

  await page.keyboard.press('Control+k');
  await expect(page.getByTestId('palette')).toBeVisible();
  findings.push(...(await scanBothThemes(page, 'command palette open', '[data-testid="palette"]')));
  await screenshotsInBothThemes(page, 'a11y-palette');
  // Typing an id narrows the list to that record: the filtered state is what a PM reads most.
  await page.getByTestId('palette-input').fill('E-00');
  findings.push(...(await scanBothThemes(page, 'command palette filtered', '[data-testid="palette"]')));
  await page.keyboard.press('Escape');
  await expect(page.getByTestId('palette')).toBeHidden();

  await page.getByTestId('nav-views').focus();
  await page.keyboard.press('?');
  const help = page.getByTestId('shortcuts-help');
  await expect(help).toBeVisible();
  findings.push(...(await scanBothThemes(page, 'shortcuts help open', '[data-testid="shortcuts-help"]')));
  await screenshotsInBothThemes(page, 'a11y-shortcuts-help');
  await page.keyboard.press('Escape');
  await expect(help).toBeHidden();

  // A toast after saving Settings: the notifications corner must be a valid, readable region.
  expect(await openScreen(page, 'settings')).toBeUndefined();
  // A toast leaves after 4 s, so each theme gets its own save and a scan of just the corner.
  for (const theme of themes) {
    await useTheme(page, theme);
    await page.getByTestId('setting-displayName').fill(`Rates Desk ${theme}`);
    await page.getByTestId('settings-save').click();
    await expect(page.getByTestId('toast').first()).toBeVisible();
    findings.push(...(await scan(page, 'Settings saved, toast showing', theme, '[data-testid="toasts"]')));
    await page.screenshot({ path: `test-results/screens/a11y-settings-toast-${theme}.png`, fullPage: true });
  }
  await page.emulateMedia({ colorScheme: null });

  expect(report(findings)).toEqual([]);
});

/** WCAG contrast of two computed `rgb(r, g, b)` colours. */
function contrastOf(a: string, b: string): number {
  const lum = (c: string) => {
    const [r, g, bl] = (c.match(/\d+(\.\d+)?/g) ?? []).slice(0, 3).map((v) => {
      const x = Number(v) / 255;
      return x <= 0.03928 ? x / 12.92 : ((x + 0.055) / 1.055) ** 2.4;
    }) as [number, number, number];
    return 0.2126 * r + 0.7152 * g + 0.0722 * bl;
  };
  const [hi, lo] = [lum(a), lum(b)].sort((x, y) => y - x) as [number, number];
  return (hi + 0.05) / (lo + 0.05);
}

/** The focus ring of an element against the surface it sits on (the nearest ancestor with a background). */
async function focusRing(page: Page, testId: string) {
  return page.getByTestId(testId).evaluate((el) => {
    // The e2e tsconfig has no DOM library: name just the browser pieces used here.
    interface Node {
      parentElement: Node | null;
    }
    const view = el.ownerDocument.defaultView as unknown as {
      getComputedStyle(e: unknown): { outlineStyle: string; outlineWidth: string; outlineColor: string; backgroundColor: string };
    };
    const s = view.getComputedStyle(el);
    let surface = (el as unknown as Node).parentElement;
    let bg = 'rgb(255, 255, 255)';
    while (surface) {
      const c = view.getComputedStyle(surface).backgroundColor;
      if (c && c !== 'rgba(0, 0, 0, 0)' && c !== 'transparent') {
        bg = c;
        break;
      }
      surface = surface.parentElement;
    }
    return { style: s.outlineStyle, width: Number.parseFloat(s.outlineWidth), color: s.outlineColor, bg };
  });
}

test('focus is visible in both themes: a sidebar link and the Save button reached by keyboard draw an outline', async ({ page, forge }) => {
  await page.goto(`${forge.url}#/settings`);
  await expect(page.getByTestId('screen-settings')).toBeVisible();
  for (const theme of themes) {
    await useTheme(page, theme);
    // Keyboard focus (Tab), not a click: :focus-visible is what a keyboard user sees.
    await page.getByTestId('nav-settings').focus();
    await page.keyboard.press('Tab');
    await page.keyboard.press('Shift+Tab');
    await expect(page.getByTestId('nav-settings')).toBeFocused();
    // After a key press Chromium treats programmatic focus as keyboard focus, as it does for Tab.
    for (const testId of ['nav-settings', 'settings-save']) {
      await page.getByTestId(testId).focus();
      const ring = await focusRing(page, testId);
      expect(ring.style, `${theme}: ${testId} shows no focus outline`).not.toBe('none');
      expect(ring.width, `${theme}: ${testId} focus outline is thinner than 2px`).toBeGreaterThanOrEqual(2);
      // A ring must stand out from its surface (WCAG non-text contrast, 3:1).
      expect(contrastOf(ring.color, ring.bg), `${theme}: ${testId} focus ring ${ring.color} on ${ring.bg}`).toBeGreaterThanOrEqual(3);
    }
  }
});
