import { SUPPORTED_PROTOCOL_VERSIONS as SDK_VERSIONS } from '@modelcontextprotocol/sdk/types.js';
import { PassThrough } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fixture, type Fixture } from './__tests__/fixtures';
import { createGovernanceServer } from './server';
import { createMcpService } from './service';
import { type LoadedServer, SUPPORTED_PROTOCOL_VERSIONS, serveStdioFront } from './stdio-front';
import { listTools } from './tools';

/**
 * The stdio front in one process, on stream pairs: what it answers itself must be what the SDK
 * server answers, and nothing a client sent may be lost in the hand-over.
 */
let f: Fixture;
beforeAll(() => {
  f = fixture();
});
afterAll(() => f.dispose());

interface Run {
  stdin: PassThrough;
  send(...messages: object[]): void;
  end(): void;
  /** Every line written to stdout, parsed. */
  out: Record<string, unknown>[];
  loads: () => number;
  done: Promise<void>;
}

function run(options: { toolsList?: string; load?: () => Promise<LoadedServer> } = {}): Run {
  const stdin = new PassThrough();
  const stdout = new PassThrough();
  const out: Record<string, unknown>[] = [];
  let buf = '';
  stdout.on('data', (d) => {
    buf += String(d);
    for (let i = buf.indexOf('\n'); i !== -1; i = buf.indexOf('\n')) {
      out.push(JSON.parse(buf.slice(0, i)));
      buf = buf.slice(i + 1);
    }
  });
  let loads = 0;
  const service = createMcpService({ dataDir: f.dataDir, contractsDir: f.contractsDir, workDir: f.workDir, mode: 'local', env: {}, watch: false });
  const done = serveStdioFront({
    version: '9.9.9',
    toolsList: options.toolsList,
    stdin,
    stdout,
    load:
      options.load ??
      (async () => {
        loads++;
        return createGovernanceServer(service, { transport: 'stdio', version: '9.9.9' });
      }),
  }).finally(() => service.close());
  return {
    stdin,
    send: (...messages) => stdin.write(messages.map((m) => `${JSON.stringify(m)}\n`).join('')),
    end: () => stdin.end(),
    out,
    loads: () => loads,
    done,
  };
}

const init = (id: number, protocolVersion: string) => ({
  jsonrpc: '2.0',
  id,
  method: 'initialize',
  params: { protocolVersion, capabilities: {}, clientInfo: { name: 'front-test', version: '1' } },
});
const until = async (cond: () => boolean) => {
  for (let i = 0; i < 2400 && !cond(); i++) await new Promise((r) => setTimeout(r, 25));
};

describe('the stdio front of forge mcp', () => {
  // If these drift, a client would negotiate a protocol version the server does not speak.
  it('knows the protocol versions the SDK server supports', () => {
    expect(SUPPORTED_PROTOCOL_VERSIONS).toEqual(SDK_VERSIONS);
  });

  // A client would see a different server (name, capabilities, version) before and after the first tool call.
  it('answers initialize as the SDK server does, for a known and an unknown protocol version, without loading it', async () => {
    for (const version of ['2025-06-18', '2024-11-05', '1999-01-01']) {
      const front = run();
      front.send(init(1, version));
      await until(() => front.out.length === 1);
      expect(front.loads()).toBe(0);
      const [ours] = front.out;
      front.end();
      await front.done;

      // The SDK server itself, behind the front: a request the front does not answer hands over.
      const real = run();
      real.send({ jsonrpc: '2.0', id: 1, method: 'resources/list' });
      await until(() => real.out.length === 1);
      real.send(init(2, version));
      await until(() => real.out.length === 2);
      real.end();
      await real.done;
      expect(real.loads()).toBe(1);
      expect(ours).toEqual({ ...real.out.find((m) => m.id === 2), id: 1 });
    }
  }, 60_000);

  // An IDE would see its tool list, then silence: the requests sent while the server loaded must all be answered, once.
  it('hands every request received while loading to the server, in order, and answers each once', async () => {
    const front = run({ toolsList: JSON.stringify(listTools()) });
    front.send(
      init(1, '2025-06-18'),
      { jsonrpc: '2.0', method: 'notifications/initialized' },
      { jsonrpc: '2.0', id: 2, method: 'tools/list' },
      { jsonrpc: '2.0', id: 3, method: 'tools/call', params: { name: 'forge_get_contract', arguments: { name: 'physics' } } },
      { jsonrpc: '2.0', id: 4, method: 'prompts/list' },
      { jsonrpc: '2.0', id: 5, method: 'ping' },
    );
    // A script may pipe its requests and close stdin at once: they are still answered.
    front.end();
    await front.done;
    expect(front.out.map((m) => m.id).sort()).toEqual([1, 2, 3, 4, 5]);
    expect(front.loads()).toBe(1);
    const byId = (id: number) => front.out.find((m) => m.id === id) as { result: Record<string, unknown> };
    expect(byId(2).result.tools).toEqual(listTools());
    expect(JSON.stringify(byId(3).result)).toContain('yaml');
    expect(byId(4).result.prompts).toBeInstanceOf(Array);
  }, 60_000);

  // A scratchpad note in French or a € sign would arrive garbled (or the request be dropped) when a pipe splits its bytes.
  it('keeps a multi-byte character that stdin splits across two chunks', async () => {
    const front = run();
    const note = 'prime de terme élevée: 10 €';
    const bytes = Buffer.from(
      [
        init(1, '2025-06-18'),
        { jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'forge_scratchpad', arguments: { operation: 'write', key: 'n', value: note } } },
        { jsonrpc: '2.0', id: 3, method: 'tools/call', params: { name: 'forge_scratchpad', arguments: { operation: 'read', key: 'n' } } },
      ]
        .map((m) => `${JSON.stringify(m)}\n`)
        .join(''),
    );
    const cut = bytes.indexOf(Buffer.from('é')) + 1; // inside the two bytes of é
    front.stdin.write(bytes.subarray(0, cut));
    await new Promise((r) => setTimeout(r, 50));
    front.stdin.write(bytes.subarray(cut));
    front.end();
    await front.done;
    const read = front.out.find((m) => m.id === 3) as { result: { content: { text: string }[] } };
    expect(JSON.parse(read.result.content[0]!.text).value).toBe(note);
  }, 60_000);

  // With the server unable to start (say a bad data folder), the IDE must get a reason on stderr and a process that ends, not a hang.
  it('ends serving with the reason when the server cannot be loaded', async () => {
    const front = run({ load: async () => Promise.reject(new Error('the data folder is not writable')) });
    front.send(init(1, '2025-06-18'), { jsonrpc: '2.0', id: 2, method: 'tools/list' });
    await expect(front.done).rejects.toThrow('the data folder is not writable');
    expect(front.out.map((m) => m.id)).toEqual([1]);
  }, 60_000);
});
