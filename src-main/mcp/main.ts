/**
 * A lean entry for `forge mcp`: IDEs spawn it and time the start, so it loads the MCP server and
 * nothing else of the app. (The full CLI loads the whole core first; bin/forge.mjs can route the
 * `mcp` command here.)
 */
import { runMcpCli } from './cli';

runMcpCli(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (e) => {
    process.stderr.write(`forge mcp: ${(e as Error).message}\n`);
    process.exit(1);
  },
);
