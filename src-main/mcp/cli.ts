import { parseArgs } from 'node:util';
import { resolve } from 'node:path';
import { installCrashPolicy } from '../common/crash-policy';
import { resolveDataDir } from '../config/paths';
import { routerFor, defaultModelRouting } from '../config/models';
import type { Model, ModelCallRequest, ModelResult, ModelStreamEvent } from '../llm';
import { createMcpService, type McpService } from './service';
import { serveStdio } from './stdio';

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
  let service: McpService;
  try {
    service = createMcpService({
      dataDir,
      contractsDir: values.contracts ? resolve(values.contracts) : undefined,
      workDir: values.workdir ? resolve(values.workdir) : undefined,
      mode: values.contracts ? 'local' : values.remote ? 'remote' : 'auto',
      remoteUrl: values.remote,
      model: () => (process.env.ANTHROPIC_API_KEY ? new LazyAnthropicModel() : undefined),
    });
  } catch (e) {
    process.stderr.write(`forge mcp: ${(e as Error).message}\n`);
    return 1;
  }
  process.stderr.write(`forge mcp: ${service.mode} mode, contracts from ${service.source.location}\n`);
  // Serving now: a stray throw or unhandled rejection is logged to stderr (never stdout, which
  // carries JSON-RPC) and the IDE keeps its server; closing stdin still ends the process.
  installCrashPolicy({ name: 'forge mcp' });
  try {
    await serveStdio(service, { version });
  } finally {
    service.close();
  }
  return 0;
}

/** Claude, with the SDK loaded on the first planner call rather than at start-up (IDEs time the spawn). */
class LazyAnthropicModel implements Model {
  readonly id = 'anthropic:routed';
  readonly isScripted = false;
  private model?: Promise<Model>;

  private get(): Promise<Model> {
    this.model ??= import('../llm').then(
      ({ AnthropicModel }) => new AnthropicModel({ router: routerFor(defaultModelRouting), baseURL: process.env.ANTHROPIC_BASE_URL }),
    );
    return this.model;
  }
  async call(request: ModelCallRequest): Promise<ModelResult> {
    return (await this.get()).call(request);
  }
  async stream(request: ModelCallRequest, onEvent: (e: ModelStreamEvent) => void): Promise<ModelResult> {
    return (await this.get()).stream(request, onEvent);
  }
}
