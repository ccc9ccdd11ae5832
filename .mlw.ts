import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { startMcpHttpServer } from './src-main/mcp/http';
import { createMcpService } from './src-main/mcp/service';
const service = createMcpService({ dataDir: '/tmp/mlw', contractsDir: '/work/main/contracts', workDir: '/tmp', mode: 'local', env: {} });
const http = await startMcpHttpServer({ service });
const clients = await Promise.all(Array.from({ length: 20 }, async () => {
  const c = new Client({ name: 'x', version: '1' });
  await c.connect(new StreamableHTTPClientTransport(new URL(http.url), { requestInit: { headers: { authorization: `Bearer ${service.token.get()}` } } }));
  return c;
}));
await Promise.all(clients.map(async (c) => { for (let i = 0; i < 150; i++) await c.callTool({ name: 'forge_get_contract', arguments: { name: 'stack' } }); }));
console.log('done');
await http.close(); service.close(); process.exit(0);
