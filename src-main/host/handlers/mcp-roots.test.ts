import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ListRootsRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mcpProcedures, mcpStatus } from '../../api/mcp';
import { SPEC_KIT, writePackage } from '../../mcp/__tests__/packages';
import { tempCore } from '../testing';
import { closeMcp, mcpHandlers, mcpStateFor, startMcpHttp } from './mcp';

/** The MCP screen's status names the project each IDE attached to the app is on, or why its folder was not used. */

const mcpCallsOutput = mcpProcedures['mcp/calls'].output;

let app: ReturnType<typeof tempCore>;
let pkg: ReturnType<typeof writePackage>;
const clients: Client[] = [];

beforeAll(() => {
  app = tempCore();
  pkg = writePackage(SPEC_KIT, 'photo-albums');
});
afterAll(async () => {
  for (const c of clients) await c.close().catch(() => undefined);
  await closeMcp(app.core.context);
  await app.dispose();
  pkg.dispose();
});

async function ideWithRoot(uri: string, url: string, token: string): Promise<Client> {
  const c = new Client({ name: 'cursor-like', version: '2.0.0' }, { capabilities: { roots: { listChanged: true } } });
  c.setRequestHandler(ListRootsRequestSchema, () => ({ roots: [{ uri }] }));
  await c.connect(new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers: { authorization: `Bearer ${token}` } } }));
  clients.push(c);
  return c;
}

describe('mcp/status shows the project per client', () => {
  it("lists each attached IDE with its open folder's project and format, or the sentence saying why it has none", async () => {
    // Failing, the PM's MCP screen would list two anonymous clients and not say that one of them points at a folder that is not there.
    const ctx = app.core.context;
    const http = await startMcpHttp(ctx);
    const token = mcpStateFor(ctx).service.token.get();
    const on = await ideWithRoot(pathToFileURL(pkg.dir).href, http.url, token);
    await on.callTool({ name: 'forge_get_project_context', arguments: {} });
    const gone = await ideWithRoot(pathToFileURL(`${pkg.dir}-moved`).href, http.url, token);
    await gone.callTool({ name: 'forge_list_project_contracts', arguments: {} });

    const status = mcpStatus.parse(await mcpHandlers['mcp/status']({}, ctx));
    const byProject = status.clients.map((c) => ({ client: c.client, project: c.project ?? null, rootsError: c.rootsError ?? null }));
    expect(byProject).toEqual(
      expect.arrayContaining([
        {
          client: 'cursor-like 2.0.0',
          project: { id: 'photo-albums', name: 'photo-albums', folder: pkg.dir, via: 'roots', format: 'spec-kit' },
          rootsError: null,
        },
        { client: 'cursor-like 2.0.0', project: null, rootsError: expect.stringContaining(`does not exist on this machine (${pkg.dir}-moved)`) },
      ]),
    );
    // The call log says which project each call was about.
    const calls = mcpCallsOutput.parse(await mcpHandlers['mcp/calls']({ limit: 10 }, ctx)).calls;
    expect(calls.map((c) => [c.tool, c.project ?? null])).toEqual([
      ['forge_list_project_contracts', null],
      ['forge_get_project_context', 'photo-albums'],
    ]);
  }, 60_000);
});
