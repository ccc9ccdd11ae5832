import { StringDecoder } from 'node:string_decoder';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { SERVER_CAPABILITIES, SERVER_INSTRUCTIONS, SERVER_NAME, SERVER_TITLE } from './config';

/**
 * The front of `forge mcp` on stdio. An IDE spawns the server for every session and times it until
 * `initialize` is answered; loading the MCP SDK (zod, ajv), the tools and the service costs several
 * hundred ms, several times Node's own start. So this front, which imports nothing heavy, reads
 * stdin itself, answers `initialize` (and `tools/list` and `ping`) at once, and loads the real
 * server only when a request arrives that it cannot answer. It then hands over: the server is
 * replayed everything received so far (the `initialize` first, so it knows the client's
 * capabilities; its answer is dropped, the client already has one) and gets every later message.
 * After the hand-over the SDK server answers everything, `tools/list` included.
 */

/** What the SDK server answers `initialize` with, copied so it need not be loaded (a test compares them). */
export const SUPPORTED_PROTOCOL_VERSIONS = ['2025-11-25', '2025-06-18', '2025-03-26', '2024-11-05', '2024-10-07'];
const LATEST_PROTOCOL_VERSION = SUPPORTED_PROTOCOL_VERSIONS[0];

/**
 * The tools/list answer computed at build time (electron.vite.config.ts defines it from
 * `listTools()`), so answering needs neither zod nor the tool modules. Undefined when running
 * from source: the front then leaves tools/list to the server.
 */
declare const __FORGE_MCP_TOOLS__: string | undefined;
export const BUILT_TOOLS_LIST: string | undefined = typeof __FORGE_MCP_TOOLS__ === 'string' ? __FORGE_MCP_TOOLS__ : undefined;

/** The real server, loaded on demand: something an SDK transport can be connected to. */
export interface LoadedServer {
  connect(transport: Transport): Promise<void>;
  close(): Promise<void>;
}

export interface StdioFrontOptions {
  version?: string;
  /** Loads and builds the real server (the first request the front cannot answer calls it, once). */
  load: () => Promise<LoadedServer>;
  /** The JSON text of `tools/list`'s `tools` array, when it is known without loading the tools. */
  toolsList?: string;
  stdin?: NodeJS.ReadableStream;
  stdout?: NodeJS.WritableStream;
}

type Raw = { jsonrpc?: unknown; id?: unknown; method?: unknown; params?: unknown; result?: unknown; error?: unknown };

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const isId = (v: unknown): v is string | number => typeof v === 'string' || (typeof v === 'number' && Number.isInteger(v));

/**
 * Serves the MCP server on stdio behind the front; resolves once stdin closes (or the server
 * closes) and every request already handed over has been answered.
 */
export async function serveStdioFront(options: StdioFrontOptions): Promise<void> {
  const stdin = options.stdin ?? process.stdin;
  const stdout = options.stdout ?? process.stdout;
  let buffer = '';
  /** Lines received before the hand-over, replayed to the server in order. */
  const queued: string[] = [];
  /** Ids of client requests the front already answered but the server is replayed (its answer is dropped). */
  const answered = new Set<string | number>();
  let initialized = false;
  let transport: FrontTransport | undefined;
  let server: Promise<LoadedServer> | undefined;
  let serverClosed!: () => void;
  const closedByServer = new Promise<void>((resolve) => (serverClosed = resolve));
  let loadFailed!: (e: unknown) => void;
  // Without its server this process can answer nothing more: serving ends with the reason (the CLI prints it to stderr, the IDE's log).
  const failed = new Promise<never>((_, reject) => (loadFailed = reject));

  const write = (message: object) => new Promise<void>((resolve) => (stdout.write(`${JSON.stringify(message)}\n`) ? resolve() : stdout.once('drain', resolve)));

  const handOver = (): Promise<LoadedServer> => {
    server ??= (async () => {
      const [loaded, { deserializeMessage }] = await Promise.all([options.load(), import('@modelcontextprotocol/sdk/shared/stdio.js')]);
      const t = new FrontTransport(write, answered, deserializeMessage, serverClosed);
      await loaded.connect(t);
      transport = t;
      for (const line of queued.splice(0)) t.receive(line);
      return loaded;
    })();
    server.catch(loadFailed);
    return server;
  };

  /** Handles one line before the hand-over: answers it, or queues it and starts loading the server. */
  const front = (line: string) => {
    let m: Raw;
    try {
      m = JSON.parse(line) as Raw;
    } catch {
      queued.push(line); // the server's own parser reports it, as it always has
      return;
    }
    if (!isObject(m) || m.jsonrpc !== '2.0' || typeof m.method !== 'string' || !isId(m.id)) {
      queued.push(line); // notifications and anything unusual: the server's to handle, when it loads
      return;
    }
    if (m.method === 'initialize' && !initialized && validInitialize(m.params)) {
      initialized = true;
      answered.add(m.id);
      queued.push(line);
      void write({ result: initializeResult(m.params.protocolVersion, options.version), jsonrpc: '2.0', id: m.id });
      return;
    }
    if (m.method === 'ping') {
      void write({ result: {}, jsonrpc: '2.0', id: m.id });
      return;
    }
    if (m.method === 'tools/list' && initialized && options.toolsList !== undefined) {
      stdout.write(`{"result":{"tools":${options.toolsList}},"jsonrpc":"2.0","id":${JSON.stringify(m.id)}}\n`);
      return;
    }
    queued.push(line);
    void handOver().catch(() => undefined);
  };

  // A chunk may end inside a multi-byte character (a non-ASCII argument): the decoder keeps the partial bytes for the next one.
  const decoder = new StringDecoder('utf8');
  const ondata = (chunk: Buffer | string) => {
    buffer += typeof chunk === 'string' ? chunk : decoder.write(chunk);
    for (let i = buffer.indexOf('\n'); i !== -1; i = buffer.indexOf('\n')) {
      const line = buffer.slice(0, i).replace(/\r$/, '');
      buffer = buffer.slice(i + 1);
      if (transport) transport.receive(line);
      else front(line);
    }
  };

  const ended = new Promise<void>((resolve) => {
    stdin.once('end', resolve);
    stdin.once('close', resolve);
  });
  stdin.on('data', ondata);
  try {
    await Promise.race([ended, closedByServer, failed]);
    // What the client asked before closing stdin is still answered (a script may pipe requests and close).
    const loaded = server && (await Promise.race([server, failed]));
    await Promise.race([transport?.drained(), closedByServer, failed]);
    await loaded?.close().catch(() => undefined);
  } finally {
    stdin.off('data', ondata);
  }
}

/** stdout carries JSON-RPC only: a stray console.log (ours or a dependency's) goes to stderr, so a client never reads a broken frame. */
export function redirectConsoleToStderr(): void {
  console.log = console.error;
  console.info = console.error;
  console.debug = console.error;
}

function validInitialize(params: unknown): params is { protocolVersion: string } {
  if (!isObject(params) || typeof params.protocolVersion !== 'string' || !isObject(params.capabilities)) return false;
  const info = params.clientInfo;
  return isObject(info) && typeof info.name === 'string' && typeof info.version === 'string';
}

/** The SDK server's answer to `initialize` (Server._oninitialize), for this server's identity. */
export function initializeResult(requested: string, version = '0.1.0') {
  return {
    protocolVersion: SUPPORTED_PROTOCOL_VERSIONS.includes(requested) ? requested : LATEST_PROTOCOL_VERSION,
    capabilities: SERVER_CAPABILITIES,
    serverInfo: { name: SERVER_NAME, version, title: SERVER_TITLE },
    instructions: SERVER_INSTRUCTIONS,
  };
}

/**
 * The transport the SDK server is connected to after the hand-over: lines come from the front,
 * answers go to stdout, except the server's answer to a request the front already answered.
 */
class FrontTransport implements Transport {
  onmessage?: Transport['onmessage'];
  onclose?: () => void;
  onerror?: (error: Error) => void;
  private readonly pending = new Set<string | number>();
  private idle?: () => void;

  constructor(
    private readonly write: (message: object) => Promise<void>,
    private readonly answered: Set<string | number>,
    private readonly parse: (line: string) => JSONRPCMessage,
    private readonly onClosed: () => void,
  ) {}

  async start(): Promise<void> {}

  /** One line from stdin, parsed and checked the way the SDK's StdioServerTransport does. */
  receive(line: string): void {
    let message: JSONRPCMessage;
    try {
      message = this.parse(line);
    } catch (e) {
      this.onerror?.(e as Error);
      return;
    }
    if ('method' in message && 'id' in message && !this.answered.has(message.id)) this.pending.add(message.id);
    this.onmessage?.(message);
  }

  async send(message: JSONRPCMessage): Promise<void> {
    if (!('method' in message) && 'id' in message && message.id !== undefined && message.id !== null) {
      this.pending.delete(message.id);
      if (this.pending.size === 0) this.idle?.();
      if (this.answered.delete(message.id)) return;
    }
    await this.write(message);
  }

  /** Resolves once every request handed to the server has had its answer. */
  drained(): Promise<void> {
    return this.pending.size === 0 ? Promise.resolve() : new Promise((resolve) => (this.idle = resolve));
  }

  async close(): Promise<void> {
    this.onclose?.();
    this.onClosed();
  }
}
