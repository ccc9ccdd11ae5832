import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import {
  CallToolRequestSchema,
  GetPromptRequestSchema,
  ListPromptsRequestSchema,
  ListResourcesRequestSchema,
  ListResourceTemplatesRequestSchema,
  ListToolsRequestSchema,
  McpError,
  ErrorCode,
  ReadResourceRequestSchema,
  RootsListChangedNotificationSchema,
} from '@modelcontextprotocol/sdk/types.js';
import { randomUUID } from 'node:crypto';
import { BUILDER_PROMPT_NAME, builderSystemPrompt } from './builder-prompt';
import { CONTRACT_BRIEFS, CONTRACT_MAP, CONTRACT_NAMES, isContractName, SERVER_CAPABILITIES, SERVER_INSTRUCTIONS, SERVER_NAME, SERVER_TITLE } from './config';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { McpService } from './service';
import { McpSession } from './session';
import { dispatch, listTools, UnknownToolError, type ToolContext } from './tools';

/**
 * The MCP wiring for one connection. It uses the SDK's low-level Server so that tools/list
 * advertises only the current catalogue while tools/call goes through `dispatch` for every name,
 * deprecated shortcuts included. Contracts are also resources; the builder prompt is a prompt.
 */

const RESOURCE_PREFIX = 'forge://contracts/';

/**
 * The SDK's McpError puts "MCP error <code>: " into its own message, sends that message, and the
 * client's McpError adds the prefix again ("MCP error -32602: MCP error -32602: …"). Errors leave
 * this server with the bare message, so a client shows the prefix once — ours and the SDK's own
 * (e.g. "Invalid tools/call request") alike.
 */
const PREFIX = /^(?:MCP error -?\d+: )+/;
export function withBareErrorMessages(transport: Transport): Transport {
  const send = transport.send.bind(transport);
  transport.send = (message, options) => {
    if ('error' in message && message.error && typeof message.error.message === 'string' && PREFIX.test(message.error.message)) {
      message = { ...message, error: { ...message.error, message: message.error.message.replace(PREFIX, '') } };
    }
    return send(message, options);
  };
  return transport;
}

/** The connection's server, plus the hook a transport calls once it can carry a request the server starts itself. */
export type GovernanceServer = Server & {
  /** Asks the client for its roots now if it declared them and they are stale (the HTTP transport calls this when the client's event stream opens). */
  askForRoots(): void;
};

export interface GovernanceServerOptions {
  transport: string;
  version?: string;
  /**
   * Whether a request the server starts on its own can reach the client right now. Over Streamable
   * HTTP that needs the client's open GET event stream: without one the SDK drops the request and
   * it would only time out. Default: always (stdio, in-memory).
   */
  canReachClient?: () => boolean;
}

export function createGovernanceServer(service: McpService, options: GovernanceServerOptions): GovernanceServer {
  const server = new Server(
    { name: SERVER_NAME, version: options.version ?? '0.1.0', title: SERVER_TITLE },
    // structuredClone: the SDK merges into the capabilities it is given; the shared constant stays as declared.
    { capabilities: structuredClone(SERVER_CAPABILITIES), instructions: SERVER_INSTRUCTIONS },
  );
  const session = new McpSession();
  const canReachClient = options.canReachClient ?? (() => true);
  // The folder the client's IDE has open (MCP roots), asked for as soon as the client has initialized
  // and can be reached, so the MCP screen shows its project on connect — over HTTP, once its event
  // stream opens — and again after roots/list_changed. A tool call that finds them still unknown asks
  // within itself (relatedRequestId), which reaches the client even without an event stream.
  const folder = service.connectionFolder();
  let initialized = false;
  const syncRoots = (relatedRequestId?: string | number) =>
    server.getClientCapabilities()?.roots
      ? folder.ensure(() => server.listRoots(undefined, { timeout: 15_000, ...(relatedRequestId !== undefined ? { relatedRequestId } : {}) }))
      : Promise.resolve();
  const askForRoots = () => {
    if (initialized && canReachClient()) void syncRoots();
  };
  const connectionId = randomUUID();
  const connect = server.connect.bind(server);
  server.connect = (transport) => connect(withBareErrorMessages(transport));

  server.oninitialized = () => {
    initialized = true;
    const c = server.getClientVersion();
    service.connections.set(connectionId, {
      transport: options.transport,
      client: c ? `${c.name} ${c.version}` : undefined,
      since: new Date().toISOString(),
      project: () => folder.describe(session.get().project_id),
    });
    askForRoots();
  };
  server.setNotificationHandler(RootsListChangedNotificationSchema, () => {
    folder.markStale();
    askForRoots();
  });
  server.onclose = () => {
    service.connections.delete(connectionId);
  };

  server.setRequestHandler(ListToolsRequestSchema, () => ({ tools: listTools(service.extraTools()) }));

  server.setRequestHandler(CallToolRequestSchema, async (request, extra) => {
    await syncRoots(extra.requestId);
    const progressToken = request.params._meta?.progressToken;
    const ctx: ToolContext = {
      source: service.source,
      projects: service.projects,
      artifacts: service.artifacts,
      session,
      folder,
      scratchpad: service.scratchpad,
      planner: service.planner,
      calls: service.calls,
      data: service.sharedData(),
      transport: options.transport,
      signal: extra.signal,
      ...(progressToken !== undefined
        ? {
            progress: (p) => {
              void extra
                .sendNotification({ method: 'notifications/progress', params: { progressToken, progress: p.progress, total: p.total, message: p.message } })
                .catch(() => undefined);
            },
          }
        : {}),
    };
    try {
      return await dispatch(request.params.name, request.params.arguments ?? {}, ctx, service.extraTools());
    } catch (e) {
      if (e instanceof UnknownToolError) throw new McpError(ErrorCode.InvalidParams, e.message);
      throw e;
    }
  });

  server.setRequestHandler(ListResourcesRequestSchema, () => ({
    resources: CONTRACT_NAMES.map((name) => ({
      uri: `${RESOURCE_PREFIX}${name}`,
      name,
      title: CONTRACT_MAP[name].file,
      description: CONTRACT_BRIEFS[name],
      mimeType: CONTRACT_MAP[name].format === 'markdown' ? 'text/markdown' : 'application/json',
    })),
  }));

  server.setRequestHandler(ListResourceTemplatesRequestSchema, () => ({
    resourceTemplates: [
      { uriTemplate: `${RESOURCE_PREFIX}{name}`, name: 'contract', description: `A governance contract by name: ${CONTRACT_NAMES.join(', ')}.` },
    ],
  }));

  server.setRequestHandler(ReadResourceRequestSchema, async (request) => {
    const uri = request.params.uri;
    const name = uri.startsWith(RESOURCE_PREFIX) ? uri.slice(RESOURCE_PREFIX.length) : '';
    if (!isContractName(name)) {
      throw new McpError(
        ErrorCode.InvalidParams,
        `No resource at ${uri.slice(0, 200)}. Contracts are at ${RESOURCE_PREFIX}<name>, e.g. ${RESOURCE_PREFIX}blueprint.`,
      );
    }
    try {
      const c = await service.source.loadContract(name);
      const markdown = c.format === 'markdown';
      return {
        contents: [{ uri, mimeType: markdown ? 'text/markdown' : 'application/json', text: markdown ? String(c.content) : JSON.stringify(c.content, null, 2) }],
      };
    } catch (e) {
      throw new McpError(ErrorCode.InvalidParams, (e as Error).message);
    }
  });

  server.setRequestHandler(ListPromptsRequestSchema, () => ({
    prompts: [
      {
        name: BUILDER_PROMPT_NAME,
        title: 'Forge builder',
        description: 'The builder system prompt: the phase-by-phase build loop and the rules that always apply.',
        arguments: [{ name: 'project_name', description: 'Shown in the title (optional).', required: false }],
      },
    ],
  }));

  server.setRequestHandler(GetPromptRequestSchema, (request) => {
    if (request.params.name !== BUILDER_PROMPT_NAME) {
      throw new McpError(ErrorCode.InvalidParams, `No prompt named "${request.params.name.slice(0, 80)}"; the one prompt is ${BUILDER_PROMPT_NAME}.`);
    }
    const projectName = request.params.arguments?.project_name;
    return {
      description: 'Forge builder system prompt',
      messages: [{ role: 'user', content: { type: 'text', text: builderSystemPrompt(projectName || undefined) } }],
    };
  });

  return Object.assign(server, { askForRoots });
}
