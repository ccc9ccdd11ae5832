import { createGovernanceServer } from './server';
import type { McpService } from './service';
import { redirectConsoleToStderr, serveStdioFront } from './stdio-front';

/**
 * The stdio transport for a service that is already built: JSON-RPC only on stdout. Anything else
 * that would print there (a stray console.log in a dependency) is sent to stderr instead, so a
 * client never reads a broken frame. `forge mcp` itself starts through cli.ts, which builds the
 * service only once a request needs it (see stdio-front.ts).
 */
export async function serveStdio(service: McpService, options: { version?: string } = {}): Promise<void> {
  redirectConsoleToStderr();
  await serveStdioFront({
    version: options.version,
    load: async () => createGovernanceServer(service, { transport: 'stdio', version: options.version }),
  });
}
