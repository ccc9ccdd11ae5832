import { readHostLock, removeHostLock, writeHostLock } from '../mcp';
import type { Core } from './core';
import { startMcpHttp } from './handlers/mcp';

/** The MCP HTTP port an IDE's saved configuration points at; FORGE_MCP_PORT overrides it. */
export const DEFAULT_MCP_PORT = 47821;

export interface AttachedServices {
  /** http://127.0.0.1:<port>/mcp, or null when it could not start. */
  mcpUrl: string | null;
  notice?: string;
  close(): Promise<void>;
}

/**
 * What a running app offers other programs on this machine: the MCP server over Streamable HTTP
 * (on a stable port when it is free, so IDE configurations keep working across restarts), and a
 * lock file that lets `forge mcp --remote` find the running app's HTTP API and token.
 */
export async function startAttachedServices(core: Core, app?: { url: string; token: string }): Promise<AttachedServices> {
  const { dataDir } = core.context;
  const wanted = Number(process.env.FORGE_MCP_PORT ?? DEFAULT_MCP_PORT);
  let mcpUrl: string | null = null;
  let notice: string | undefined;
  try {
    mcpUrl = (await startMcpHttp(core.context, { port: Number.isInteger(wanted) ? wanted : DEFAULT_MCP_PORT })).url;
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'EADDRINUSE') throw e;
    mcpUrl = (await startMcpHttp(core.context, { port: 0 })).url;
    notice = `MCP port ${wanted} is in use (another Forge?); this run serves MCP at ${mcpUrl} — update HTTP IDE configurations or use the stdio command.`;
  }
  // A live app already serving this workspace keeps its lock (readHostLock ignores dead ones);
  // removeHostLock only ever removes this process's own lock.
  if (app && !readHostLock(dataDir)) writeHostLock(dataDir, { url: app.url, token: app.token });
  return {
    mcpUrl,
    notice,
    async close() {
      removeHostLock(dataDir);
    },
  };
}
