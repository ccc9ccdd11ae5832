import { parseArgs } from 'node:util';
import { installCrashPolicy } from '../common/crash-policy';
import { resolveDataDir } from '../config/paths';
import { BUILT_TOOLS_LIST, redirectConsoleToStderr, serveStdioFront } from './stdio-front';

/**
 * `forge mcp`: the governance server on stdio for an IDE to spawn. Local mode unless a running
 * Forge app is found (or --remote is given); --contracts forces local mode on that folder.
 */
export const MCP_USAGE = `Usage: forge mcp [options]

Runs Forge's governance MCP server on stdio (for Claude Desktop, Cursor, VS Code, Claude Code).
  --data DIR        workspace folder (default: $FORGE_HOME or ~/.forge)
  --contracts DIR   read contracts from this folder (local mode)
  --remote URL      proxy to a running Forge app at URL (token from its lock file or FORGEGUARD_TOKEN)
  --workdir DIR     where the scratchpad lives (default: the current folder)
Environment: FORGEGUARD_LOCAL=1 forces local mode; FORGEGUARD_URL selects remote mode.
  On a desk (forge serve --db), FORGE_DESK_TOKEN=<an API token of yours from the Desk screen>
  makes every remote call as you.
The desktop app is its own entry point: \`Forge --mcp [options]\` (default --data: the app's workspace).
`;

export async function runMcpCli(args: string[], version = '0.1.0'): Promise<number> {
  let values: { data?: string; contracts?: string; remote?: string; workdir?: string; help?: boolean };
  try {
    ({ values } = parseArgs({
      args,
      options: {
        data: { type: 'string' },
        contracts: { type: 'string' },
        remote: { type: 'string' },
        workdir: { type: 'string' },
        help: { type: 'boolean', short: 'h' },
      },
      strict: true,
    }));
  } catch (e) {
    process.stderr.write(`forge mcp: ${(e as Error).message}\n\n${MCP_USAGE}`);
    return 2;
  }
  if (values.help) {
    process.stderr.write(MCP_USAGE);
    return 0;
  }
  if (values.contracts && values.remote) {
    process.stderr.write('forge mcp: choose --contracts (local) or --remote (a running app), not both.\n');
    return 2;
  }
  const dataDir = resolveDataDir(values.data);
  const cli = { dataDir, contracts: values.contracts, remote: values.remote, workdir: values.workdir, version };
  redirectConsoleToStderr();
  // Serving now: a stray throw or unhandled rejection is logged to stderr (never stdout, which
  // carries JSON-RPC) and the IDE keeps its server; closing stdin still ends the process.
  installCrashPolicy({ name: 'forge mcp' });
  try {
    // IDEs time the spawn until `initialize` is answered: the front answers it (and tools/list) at
    // once, and the service, the tools and the MCP SDK load on the first request that needs them.
    await serveStdioFront({
      version,
      toolsList: BUILT_TOOLS_LIST,
      load: async () => (await import('./stdio-serve')).openMcpCliServer(cli),
    });
  } catch (e) {
    process.stderr.write(`forge mcp: ${(e as Error).message}\n`);
    return 1;
  }
  return 0;
}
