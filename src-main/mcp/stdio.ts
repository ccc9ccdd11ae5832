import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { createGovernanceServer } from './server';
import type { McpService } from './service';

/**
 * The stdio transport: JSON-RPC only on stdout. Anything else that would print there (a stray
 * console.log in a dependency) is sent to stderr instead, so a client never reads a broken frame.
 */
export async function serveStdio(service: McpService, options: { version?: string } = {}): Promise<void> {
  console.log = console.error;
  console.info = console.error;
  console.debug = console.error;
  const server = createGovernanceServer(service, { transport: 'stdio', version: options.version });
  const transport = new StdioServerTransport();
  const closed = new Promise<void>((resolve) => {
    server.onclose = ((prev) => () => {
      prev?.();
      resolve();
    })(server.onclose);
    process.stdin.once('end', resolve);
    process.stdin.once('close', resolve);
  });
  await server.connect(transport);
  await closed;
  await server.close().catch(() => undefined);
}
