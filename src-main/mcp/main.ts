/**
 * A lean entry for `forge mcp`: IDEs spawn it and time the start, so it loads the MCP server and
 * nothing else of the app. (The full CLI loads the whole core first; bin/forge.mjs can route the
 * `mcp` command here.)
 */
import { runMcpCli } from './cli';

// Accepts both `main.js --data X` and `main.js mcp --data X` (when bin/forge.mjs routes `forge mcp` here).
const args = process.argv.slice(2);
runMcpCli(args[0] === 'mcp' ? args.slice(1) : args).then(
  (code) => process.exit(code),
  (e) => {
    process.stderr.write(`forge mcp: ${(e as Error).message}\n`);
    process.exit(1);
  },
);
