/**
 * The baseline for `npm run bench -- mcp`: a bare SDK server on stdio with no Forge logic.
 * `echo` returns its argument; `payload` returns the file named by ECHO_PAYLOAD (read once at
 * start), so the baseline answers with exactly the bytes forge_get_contract answers with.
 */
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { readFileSync } from 'node:fs';
import { z } from 'zod';

const payload = process.env.ECHO_PAYLOAD ? readFileSync(process.env.ECHO_PAYLOAD, 'utf8') : '';
const server = new McpServer({ name: 'echo', version: '1.0.0' });
server.registerTool('echo', { description: 'Echo the text back.', inputSchema: { text: z.string() } }, ({ text }) => ({
  content: [{ type: 'text', text }],
}));
server.registerTool('payload', { description: 'Return the preloaded payload.', inputSchema: { name: z.string() } }, () => ({
  content: [{ type: 'text', text: payload }],
}));
await server.connect(new StdioServerTransport());
process.stdin.once('end', () => process.exit(0));
