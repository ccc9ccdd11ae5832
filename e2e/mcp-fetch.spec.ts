import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { expect, screenshotDir, test } from './fixtures';

test.beforeAll(() => mkdirSync(screenshotDir, { recursive: true }));

/**
 * The PM lets attached IDEs fetch from one source: off by default on its card, an IDE's forge_fetch
 * is refused with the setting named; switched on (and still on after a reload), the same call
 * answers through Forge, framed as outside data.
 */
test('a source is shared with attached IDEs only after the PM ticks it on its Data card', async ({ page, forge }) => {
  const problems: string[] = [];
  page.on('pageerror', (e) => problems.push(`page error: ${e.message}`));

  const api = async <T>(name: string, input: unknown): Promise<T> => {
    const r = await fetch(`${forge.baseURL}/api/${name}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${forge.token}` },
      body: JSON.stringify(input),
    });
    return ((await r.json()) as { value: T }).value;
  };
  // What the MCP screen shows a developer: the HTTP address, and the token in the copy-ready configuration.
  const status = await api<{ transports: { http: { url: string } } }>('mcp/status', {});
  const snippets = await api<{ snippets: { transport: string; text: string }[] }>('mcp/config-snippets', { revealToken: true });
  const mcpToken = /Bearer ([A-Za-z0-9_-]+)/.exec(snippets.snippets.find((s) => s.transport === 'http')!.text)![1]!;
  const ide = new Client({ name: 'forge-e2e-ide', version: '1.0.0' });
  await ide.connect(
    new StreamableHTTPClientTransport(new URL(status.transports.http.url), { requestInit: { headers: { authorization: `Bearer ${mcpToken}` } } }),
  );
  const price = async () => {
    const r = (await ide.callTool({
      name: 'forge_fetch',
      arguments: { source: 'analytics', params: { calc: 'option_price', type: 'call', underlying: 100, strike: 100, expiry_years: 1, rate: 0.05, vol: 0.2 } },
    })) as { content: { text: string }[]; isError?: boolean };
    return { text: r.content.map((c) => c.text).join(''), isError: r.isError === true };
  };

  try {
    await page.goto(forge.url);
    await page.getByTestId('nav-data').click();
    const card = page.getByTestId('provider-analytics');
    const share = card.getByTestId('provider-share-mcp');
    await expect(share).not.toBeChecked();
    await expect(card).toContainText('Attached IDEs may fetch from this source');

    const refused = await price();
    expect(refused.isError).toBe(true);
    expect(refused.text).toContain('Settings → Data → analytics → "Attached IDEs may fetch from this source"');

    await share.check();
    await expect(share).toBeChecked();
    await page.reload();
    await expect(page.getByTestId('provider-analytics').getByTestId('provider-share-mcp')).toBeChecked();
    await page.getByTestId('provider-analytics').screenshot({ path: join(screenshotDir, 'data-share-mcp.png') });

    const answered = await price();
    expect(answered.isError, answered.text).toBe(false);
    expect(answered.text.startsWith('<untrusted_data>')).toBe(true);
    expect(answered.text).toContain('10.45');

    await page.getByTestId('provider-analytics').getByTestId('provider-share-mcp').uncheck();
    await expect(page.getByTestId('provider-analytics').getByTestId('provider-share-mcp')).not.toBeChecked();
    expect((await price()).isError).toBe(true);
  } finally {
    await ide.close();
  }
  expect(problems).toEqual([]);
});
