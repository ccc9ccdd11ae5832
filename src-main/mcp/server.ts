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
import { CONTRACT_BRIEFS, CONTRACT_MAP, CONTRACT_NAMES, isContractName, SERVER_NAME } from './config';
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

export function createGovernanceServer(service: McpService, options: { transport: string; version?: string }): Server {
  const server = new Server(
    { name: SERVER_NAME, version: options.version ?? '0.1.0', title: 'Forge governance' },
    {
      capabilities: { tools: { listChanged: false }, resources: { listChanged: false }, prompts: { listChanged: false } },
      instructions:
        'Forge governance contracts for this project. Start with forge_summary; read one phase at a time with forge_get_phase_window; keep notes with forge_scratchpad.',
    },
  );
  const session = new McpSession();
  // The folder the client's IDE has open (MCP roots). Over HTTP a request the server starts on its
  // own may find no open stream, so roots are asked for within a tool call (relatedRequestId), once
  // and again after roots/list_changed; stdio and in-memory clients are asked as soon as they connect.
  const folder = service.connectionFolder();
  const syncRoots = (relatedRequestId?: string | number) =>
    server.getClientCapabilities()?.roots
      ? folder.ensure(() => server.listRoots(undefined, { timeout: 15_000, ...(relatedRequestId !== undefined ? { relatedRequestId } : {}) }))
      : Promise.resolve();
  const connectionId = randomUUID();
  const connect = server.connect.bind(server);
  server.connect = (transport) => connect(withBareErrorMessages(transport));

  server.oninitialized = () => {
    const c = server.getClientVersion();
    service.connections.set(connectionId, {
      transport: options.transport,
      client: c ? `${c.name} ${c.version}` : undefined,
      since: new Date().toISOString(),
      project: () => folder.describe(session.get().project_id),
    });
    if (options.transport !== 'http') void syncRoots();
  };
  server.setNotificationHandler(RootsListChangedNotificationSchema, () => {
    folder.markStale();
    if (options.transport !== 'http') void syncRoots();
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

  return server;
}
