import { mkdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { Page } from '@playwright/test';
import { expect, screenshotDir, test } from './fixtures';
import { screenshotsInBothThemes } from './shots';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');

test.beforeAll(() => mkdirSync(screenshotDir, { recursive: true }));

function watchProblems(page: Page): string[] {
  const problems: string[] = [];
  page.on('pageerror', (e) => problems.push(`page error: ${e.message}`));
  page.on('console', (m) => {
    if (m.type() === 'error') problems.push(`console: ${m.text()}`);
  });
  return problems;
}

async function openMcp(page: Page, url: string) {
  await page.goto(url);
  await page.getByTestId('nav-mcp').click();
  await expect(page.getByTestId('screen-mcp')).toBeVisible();
  await expect(page.getByTestId('mcp-http-state')).toHaveText('HTTP running');
}

/** The fields of a client configuration snippet these tests read (stdio, HTTP and Cursor formats). */
interface SnippetJson {
  mcpServers: { forge: { command: string; args: string[]; url: string; headers: Record<string, string> } };
}

async function snippetJson(page: Page): Promise<SnippetJson> {
  return JSON.parse((await page.getByTestId('mcp-snippet-text').textContent()) ?? '');
}

async function connect(url: string, token: string): Promise<Client> {
  const client = new Client({ name: 'forge-e2e-ide', version: '1.2.3' });
  await client.connect(new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers: { authorization: `Bearer ${token}` } } }));
  return client;
}

test('the MCP screen shows the HTTP endpoint, the tool catalogue and valid Claude Desktop configuration, and rotates the token', async ({ page, forge }) => {
  const problems = watchProblems(page);
  await openMcp(page, forge.url);

  const url = (await page.getByTestId('mcp-http-url').textContent())!;
  expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/mcp$/);
  await expect(page.getByTestId('mcp-port')).toHaveText(new URL(url).port);
  await expect(page.getByTestId('mcp-stdio-command')).toHaveText(`${process.execPath} ${join(root, 'bin', 'forge.mjs')} mcp --data ${forge.dataDir}`);
  await expect(page.getByTestId('mcp-mode')).toHaveText('Local folder');
  await expect(page.getByTestId('mcp-source')).toHaveText(/contracts$/);

  // The catalogue: forge_get_contract is there and read-only; the deprecated shortcuts are not listed.
  const contract = page.locator('[data-testid="mcp-tool"][data-name="forge_get_contract"]');
  await expect(contract).toBeVisible();
  await expect(contract).toHaveAttribute('data-read-only', 'true');
  await expect(contract.getByTestId('mcp-badge-read-only')).toHaveText('read-only');
  await expect(contract.getByTestId('mcp-badge-destructive')).toHaveCount(0);
  await expect(page.locator('[data-testid="mcp-tool"][data-name="forge_clear_artifacts"]').getByTestId('mcp-badge-destructive')).toBeVisible();
  const listed = await page.getByTestId('mcp-tool').evaluateAll((els) => els.map((e) => e.getAttribute('data-name')));
  expect(listed.length).toBeGreaterThanOrEqual(18);
  for (const gone of ['forge_get_boundaries', 'forge_get_physics', 'forge_get_directive', 'forge_get_stack']) expect(listed).not.toContain(gone);

  // Claude Desktop, stdio: valid JSON with an mcpServers entry that runs `forge mcp` on this workspace.
  await page.getByTestId('mcp-client-claude_desktop').click();
  await page.getByTestId('mcp-transport-stdio').click();
  await expect(page.getByTestId('mcp-snippet')).toHaveAttribute('data-transport', 'stdio');
  const stdio = await snippetJson(page);
  expect(stdio.mcpServers.forge).toEqual({ command: process.execPath, args: [join(root, 'bin', 'forge.mjs'), 'mcp', '--data', forge.dataDir] });

  // Claude Desktop, HTTP: valid JSON pointing at the URL shown, with the token shortened until revealed.
  await page.getByTestId('mcp-transport-http').click();
  await expect(page.getByTestId('mcp-snippet')).toHaveAttribute('data-transport', 'http');
  const http = await snippetJson(page);
  expect(http.mcpServers.forge.args).toContain(url);
  const preview = (await page.getByTestId('mcp-token-preview').textContent())!;
  expect(preview).toMatch(/^\S{4}…\S{4}$/);
  expect(JSON.stringify(http)).toContain(`Bearer ${preview}`);
  await expect(page.getByTestId('mcp-snippet-text')).toHaveAttribute('data-revealed', 'false');

  // Arrow keys move between clients like tabs.
  await page.getByTestId('mcp-client-claude_desktop').focus();
  await page.keyboard.press('ArrowRight');
  await expect(page.getByTestId('mcp-client-cursor')).toBeFocused();
  await expect(page.getByTestId('mcp-client-cursor')).toHaveAttribute('aria-selected', 'true');

  // Rotation asks first, then issues a new token: the preview changes everywhere.
  await page.getByTestId('mcp-rotate').click();
  await page.getByTestId('mcp-rotate-confirm').click();
  await expect(page.getByTestId('mcp-rotated')).toBeVisible();
  await expect(page.getByTestId('mcp-token-preview')).not.toHaveText(preview);
  const rotated = (await page.getByTestId('mcp-token-preview').textContent())!;
  expect(rotated).toMatch(/^\S{4}…\S{4}$/);
  await expect(page.getByTestId('mcp-rotated')).toContainText(rotated);
  await expect(page.getByTestId('mcp-snippet-text')).toContainText(`Bearer ${rotated}`);

  expect(problems).toEqual([]);
  await screenshotsInBothThemes(page, 'mcp');
});

test('a real MCP client attached with the configuration shown appears on the screen, and its call is logged with its duration', async ({
  page,
  forge,
  context,
}) => {
  const problems = watchProblems(page);
  await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: forge.baseURL });
  await openMcp(page, forge.url);
  await expect(page.getByTestId('mcp-calls-empty')).toBeVisible();

  // Cursor over HTTP, token revealed: the URL and the token a developer would paste.
  await page.getByTestId('mcp-client-cursor').click();
  await page.getByTestId('mcp-transport-http').click();
  await page.getByTestId('mcp-reveal').click();
  await expect(page.getByTestId('mcp-snippet-text')).toHaveAttribute('data-revealed', 'true');
  const cursor = await snippetJson(page);
  const url: string = cursor.mcpServers.forge.url;
  const token = /^Bearer (\S+)$/.exec(cursor.mcpServers.forge.headers.Authorization)![1]!;
  await expect(page.getByTestId('mcp-http-url')).toHaveText(url);
  expect(token).not.toContain('…');
  expect(token.length).toBeGreaterThanOrEqual(32);

  // Hidden again, Copy still copies the real token, not the preview on screen.
  await page.getByTestId('mcp-reveal').click();
  await expect(page.getByTestId('mcp-snippet-text')).toHaveAttribute('data-revealed', 'false');
  await expect(page.getByTestId('mcp-snippet-text')).not.toContainText(token);
  await page.getByTestId('mcp-copy-snippet').click();
  await expect(page.getByTestId('mcp-snippet').getByText('Copied')).toBeVisible();
  const copied = JSON.parse(
    await page.evaluate(() => (globalThis as unknown as { navigator: { clipboard: { readText(): Promise<string> } } }).navigator.clipboard.readText()),
  );
  expect(copied.mcpServers.forge.headers.Authorization).toBe(`Bearer ${token}`);

  const client = await connect(url, token);
  try {
    const result = await client.callTool({ name: 'forge_get_contract', arguments: { name: 'stack' } });
    expect(result.isError).toBeFalsy();
    const text = (result.content as { type: string; text: string }[])[0]!.text;
    expect(text.length).toBeGreaterThan(100);
    // A blocked contract is a tool error the log must show with its message.
    const blocked = await client.callTool({ name: 'forge_get_contract', arguments: { name: 'phases' } });
    expect(blocked.isError).toBe(true);

    const log = page.getByTestId('mcp-calls');
    const ok = log.locator('[data-testid="mcp-call"][data-tool="forge_get_contract"][data-ok="true"]');
    await expect(ok).toHaveCount(1);
    await expect(ok.getByTestId('mcp-call-duration')).toHaveText(/^\d+(\.\d+)? (ms|s)$/);
    await expect(ok).toContainText('http');
    const failed = log.locator('[data-testid="mcp-call"][data-tool="forge_get_contract"][data-ok="false"]');
    await expect(failed).toHaveCount(1);
    await expect(failed).toContainText('forge_get_phase_window');

    // The attached client, the live session and the calls per tool show in the status and catalogue.
    await expect(page.getByTestId('mcp-client')).toContainText('forge-e2e-ide 1.2.3');
    await expect(page.getByTestId('mcp-sessions')).toHaveText('1');
    await expect(page.getByTestId('mcp-total-calls')).toHaveText('2');
    await expect(page.getByTestId('mcp-total-errors')).toHaveText('1');
    await expect(page.locator('[data-testid="mcp-tool"][data-name="forge_get_contract"]').getByTestId('mcp-tool-calls')).toHaveText('2');
    await page.getByTestId('mcp-calls-errors-only').click();
    await expect(log.getByTestId('mcp-call')).toHaveCount(1);
    await page.getByTestId('mcp-calls-all').click();
    await expect(log.getByTestId('mcp-call')).toHaveCount(2);
    // A tall window, so the screenshot shows the status, configuration, call log and the start of the catalogue at once.
    await page.setViewportSize({ width: 1400, height: 1400 });
    await page.screenshot({ path: join(screenshotDir, 'mcp.png') });
    await page.emulateMedia({ colorScheme: 'dark' });
    await page.reload();
    await expect(log.getByTestId('mcp-call')).toHaveCount(2);
    await page.screenshot({ path: join(screenshotDir, 'mcp-dark.png') });
    await page.emulateMedia({ colorScheme: 'light' });
    await page.setViewportSize({ width: 1400, height: 900 });
  } finally {
    await client.close();
  }

  // Rotating locks the old token out at once.
  await page.getByTestId('mcp-rotate').click();
  await page.getByTestId('mcp-rotate-confirm').click();
  await expect(page.getByTestId('mcp-rotated')).toBeVisible();
  await expect(connect(url, token)).rejects.toThrow();

  expect(problems).toEqual([]);
});

test('offering the analyst’s tools is off by default and the choice survives a reload', async ({ page, forge }) => {
  const problems = watchProblems(page);
  await openMcp(page, forge.url);
  const toggle = page.getByTestId('mcp-expose-analyst');
  await expect(toggle).not.toBeChecked();
  await page.locator('.mcp-switch').click();
  await expect(toggle).toBeChecked();
  // Either the analyst's tools join the catalogue, or the screen says plainly that none are connected.
  await expect(page.getByTestId('mcp-analyst-offered').or(page.getByTestId('mcp-analyst-unavailable'))).toBeVisible();
  await page.reload();
  await expect(page.getByTestId('mcp-expose-analyst')).toBeChecked();
  await page.locator('.mcp-switch').click();
  await expect(page.getByTestId('mcp-expose-analyst')).not.toBeChecked();
  await expect(page.getByTestId('mcp-analyst-unavailable')).toHaveCount(0);
  expect(problems).toEqual([]);
});
