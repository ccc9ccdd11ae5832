import { resolve } from 'node:path';
import { defaultModelRouting, routerFor } from '../config/models';
import type { Model, ModelCallRequest, ModelResult, ModelStreamEvent } from '../llm';
import { createGovernanceServer } from './server';
import { createMcpService } from './service';
import type { LoadedServer } from './stdio-front';

/**
 * The heavy half of `forge mcp` (the MCP SDK, zod, the tools, the service), loaded by cli.ts
 * through `import()` when the first request the stdio front cannot answer arrives.
 */

export interface McpCliOptions {
  dataDir: string;
  contracts?: string;
  remote?: string;
  workdir?: string;
  version: string;
}

/** Builds the service `forge mcp`'s options describe and its server; closing the server closes the service. */
export function openMcpCliServer(o: McpCliOptions): LoadedServer {
  const service = createMcpService({
    dataDir: o.dataDir,
    contractsDir: o.contracts ? resolve(o.contracts) : undefined,
    workDir: o.workdir ? resolve(o.workdir) : undefined,
    mode: o.contracts ? 'local' : o.remote ? 'remote' : 'auto',
    remoteUrl: o.remote,
    model: () => (process.env.ANTHROPIC_API_KEY ? new LazyAnthropicModel() : undefined),
  });
  process.stderr.write(`forge mcp: ${service.mode} mode, contracts from ${service.source.location}\n`);
  const server = createGovernanceServer(service, { transport: 'stdio', version: o.version });
  return {
    connect: (transport) => server.connect(transport),
    close: async () => {
      try {
        await server.close();
      } finally {
        service.close();
      }
    },
  };
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
