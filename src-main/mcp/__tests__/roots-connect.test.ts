import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ListRootsRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startMcpHttpServer, type McpHttpServer } from '../http';
import { createMcpService, type McpService } from '../service';
import { fixture, jsonOf, type Fixture } from './fixtures';
import { KIRO, SPEC_KIT, writePackage } from './packages';

/**
 * An IDE attached over loopback HTTP shows up on the MCP screen with the project it has open as
 * soon as it connects — before it calls any tool — and the screen follows it when its roots change.
 * A real SDK client against the real Streamable HTTP server on 127.0.0.1.
 */

let f: Fixture;
let service: McpService;
let http: McpHttpServer;
let specKit: ReturnType<typeof writePackage>;
let kiro: ReturnType<typeof writePackage>;
const open: Client[] = [];

beforeAll(async () => {
  f = fixture();
  specKit = writePackage(SPEC_KIT, 'photo-albums');
  kiro = writePackage(KIRO, 'order-export');
  service = createMcpService({ dataDir: f.dataDir, contractsDir: f.contractsDir, workDir: f.workDir, mode: 'local', env: {} });
  http = await startMcpHttpServer({ service });
});
afterAll(async () => {
  for (const c of open) await c.close().catch(() => undefined);
  await http.close();
  service.close();
  f.dispose();
  specKit.dispose();
  kiro.dispose();
});

/** A real SDK client declaring roots; counts how often the server asked for them. */
async function ide(name: string, roots: { uri: string }[]): Promise<{ client: Client; asked: () => number }> {
  let asked = 0;
  const client = new Client({ name, version: '1.0.0' }, { capabilities: { roots: { listChanged: true } } });
  client.setRequestHandler(ListRootsRequestSchema, () => {
    asked += 1;
    return { roots: [...roots] };
  });
  const transport = new StreamableHTTPClientTransport(new URL(http.url), { requestInit: { headers: { authorization: `Bearer ${service.token.get()}` } } });
  await client.connect(transport);
  open.push(client);
  return { client, asked: () => asked };
}

/** What the MCP screen's status shows for the client of this name. */
const statusOf = (name: string) => [...service.connections.values()].find((c) => c.client === `${name} 1.0.0`)?.project?.();

describe('the project of an IDE attached over HTTP', () => {
  it('is on the MCP screen as soon as the client connects, before any tool call', async () => {
    // Failing, the PM would see "No project yet" for an IDE that has a repository open until its first tool call.
    const { client, asked } = await ide('ide-connect', [{ uri: pathToFileURL(specKit.dir).href }]);
    await expect
      .poll(() => statusOf('ide-connect')?.project, { timeout: 30_000, interval: 100 })
      .toEqual({ id: 'photo-albums', name: 'photo-albums', folder: specKit.dir, via: 'roots', format: 'spec-kit' });
    expect(asked()).toBe(1);

    // The first tool call uses the roots already taken: it does not ask again.
    const ctx = jsonOf<{ folder: string; format: string }>(await client.callTool({ name: 'forge_get_project_context', arguments: {} }));
    expect(ctx).toMatchObject({ folder: specKit.dir, format: 'spec-kit' });
    expect(asked()).toBe(1);
  }, 60_000);

  it('follows the client to another folder when its roots change, without a tool call', async () => {
    // Failing, the screen would keep naming the repository the IDE has since closed.
    const roots = [{ uri: pathToFileURL(specKit.dir).href }];
    const { client } = await ide('ide-switch', roots);
    await expect.poll(() => statusOf('ide-switch')?.project?.format, { timeout: 30_000, interval: 100 }).toBe('spec-kit');

    roots.splice(0, 1, { uri: pathToFileURL(kiro.dir).href });
    await client.sendRootsListChanged();
    await expect
      .poll(() => statusOf('ide-switch')?.project, { timeout: 30_000, interval: 100 })
      .toMatchObject({ folder: kiro.dir, via: 'roots', format: 'kiro' });
    expect(statusOf('ide-switch')?.roots).toEqual([pathToFileURL(kiro.dir).href]);
  }, 60_000);
});
