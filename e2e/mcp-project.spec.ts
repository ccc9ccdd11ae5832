import { cpSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ListRootsRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { expect, screenshotDir, test } from './fixtures';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');

test.beforeAll(() => mkdirSync(screenshotDir, { recursive: true }));

/**
 * An IDE with a Kiro repository open attaches to Forge over loopback HTTP, declaring that folder as
 * its MCP root: the MCP screen names the project under the client as soon as it connects, before any
 * tool call, and the call log then says which project each call was about.
 */
test('the MCP screen shows the project an attached IDE has open, on connect and on each call', async ({ page, forge }) => {
  // Serving the app, a real client and a browser on a shared, loaded machine.
  test.setTimeout(180_000);
  const problems: string[] = [];
  page.on('pageerror', (e) => problems.push(`page error: ${e.message}`));
  page.on('console', (m) => {
    if (m.type() === 'error') problems.push(`console: ${m.text()}`);
  });

  const copies = mkdtempSync(join(tmpdir(), 'forge-e2e-project-'));
  const dir = join(copies, 'password-reset');
  cpSync(join(root, 'resources', 'examples', 'specs', 'kiro'), dir, { recursive: true });

  const api = async <T>(name: string, input: unknown): Promise<T> => {
    const r = await fetch(`${forge.baseURL}/api/${name}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${forge.token}` },
      body: JSON.stringify(input),
    });
    return ((await r.json()) as { value: T }).value;
  };
  // The address and token the MCP screen gives a developer to paste into their IDE.
  const status = await api<{ transports: { http: { url: string } } }>('mcp/status', {});
  const snippets = await api<{ snippets: { transport: string; text: string }[] }>('mcp/config-snippets', { revealToken: true });
  const mcpToken = /Bearer ([A-Za-z0-9_-]+)/.exec(snippets.snippets.find((s) => s.transport === 'http')!.text)![1]!;

  await page.goto(forge.url);
  await page.getByTestId('nav-mcp').click();
  await expect(page.getByTestId('screen-mcp')).toBeVisible();
  await expect(page.getByTestId('mcp-no-clients')).toBeVisible();

  const ide = new Client({ name: 'kiro-e2e-ide', version: '0.9.0' }, { capabilities: { roots: { listChanged: true } } });
  ide.setRequestHandler(ListRootsRequestSchema, () => ({ roots: [{ uri: pathToFileURL(dir).href, name: 'password-reset' }] }));
  await ide.connect(
    new StreamableHTTPClientTransport(new URL(status.transports.http.url), { requestInit: { headers: { authorization: `Bearer ${mcpToken}` } } }),
  );
  try {
    // Failing, the PM would read "No project yet" under an IDE that has a repository open until it first called a tool.
    const client = page.getByTestId('mcp-client').filter({ hasText: 'kiro-e2e-ide 0.9.0' });
    await expect(client.getByTestId('mcp-client-project')).toHaveText(`On password-reset (Kiro) — its IDE's open folder, ${dir}`, { timeout: 20_000 });
    await expect(page.getByTestId('mcp-calls-empty')).toBeVisible();
    await expect(page.getByTestId('mcp-total-calls')).toHaveText('0');
    await page.getByTestId('mcp-clients').screenshot({ path: join(screenshotDir, 'mcp-project-client.png') });

    // A tool call answers from that folder, and its row in the call log names the project.
    const result = (await ide.callTool({ name: 'forge_get_project_context', arguments: {} })) as { content: { text: string }[]; isError?: boolean };
    expect(result.isError, result.content[0]?.text).toBeFalsy();
    expect(JSON.parse(result.content[0]!.text)).toMatchObject({ project_id: 'password-reset', format: 'kiro', folder: dir });
    const row = page.getByTestId('mcp-calls').locator('[data-testid="mcp-call"][data-tool="forge_get_project_context"][data-ok="true"]');
    await expect(row).toHaveCount(1, { timeout: 20_000 });
    await expect(row.getByTestId('mcp-call-project')).toHaveText('password-reset');
  } finally {
    await ide.close();
    rmSync(copies, { recursive: true, force: true });
  }
  expect(problems).toEqual([]);
});
