import { spawn } from 'node:child_process';
import { EventEmitter } from 'node:events';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { describeError, FATAL_EXIT_CODE, installCrashPolicy, isFatal, redact } from '../../common/crash-policy';
import { healthOk, type ServeChild, startServeChild } from './http-raw-harness';

/**
 * The process policy for errors nothing caught. Without it, one stray throw in a timer or one
 * promise nobody awaited ends `forge serve`: the PM's page goes blank mid-session and every IDE
 * attached over MCP loses its server. With it, the error is logged with its stack (and without
 * the run's token), counted, and the same process answers the next request. Only an
 * out-of-memory error still ends it, with a status a supervisor can act on.
 */

const faults = fileURLToPath(new URL('./crash-policy-faults.ts', import.meta.url));
const scratch = mkdtempSync(join(tmpdir(), 'forge-crash-policy-'));
const children: ServeChild[] = [];

afterAll(async () => {
  for (const c of children) await c.stop();
  rmSync(scratch, { recursive: true, force: true });
});

async function serveWithFaults(name: string): Promise<{ serve: ServeChild; faultFile: string }> {
  const faultFile = join(scratch, `${name}.json`);
  const serve = await startServeChild({ preload: faults, env: { FORGE_TEST_FAULTS: faultFile } });
  children.push(serve);
  return { serve, faultFile };
}

async function until(what: string, check: () => boolean, log: () => string, ms = 30_000): Promise<void> {
  for (const stop = Date.now() + ms; Date.now() < stop; ) {
    if (check()) return;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`waited ${ms} ms for ${what}; stderr:\n${log().slice(-3000)}`);
}

describe('forge serve under errors nothing caught', () => {
  it('logs a throwing timer, a throwing listener, an unhandled error event and an unhandled rejection, and keeps serving', { timeout: 180_000 }, async () => {
    const { serve, faultFile } = await serveWithFaults('stray');
    writeFileSync(faultFile, JSON.stringify({ kind: 'stray', secret: serve.token }));
    expect(await healthOk(serve)).toBe(true);
    serve.kill('SIGUSR2');
    await until('four logged errors', () => (serve.stderr().match(/unexpected error \d+/g) ?? []).length >= 4 || serve.exited() !== null, serve.stderr);

    expect(serve.exited()).toBeNull();
    const log = serve.stderr();
    // Each one logged with what it was, that it was survived, and where it came from (the stack).
    expect(log).toMatch(/forge serve: unexpected error \d \(uncaughtException\), logged; still serving: Error: fault-injection: a timer threw/);
    expect(log).toMatch(/\(uncaughtException\), logged; still serving: TypeError: fault-injection: a listener threw/);
    expect(log).toMatch(/\(uncaughtException\), logged; still serving: Error: fault-injection: an unhandled error event/);
    expect(log).toMatch(
      /forge serve: unexpected error \d \(unhandledRejection\), logged; still serving: Error: fault-injection: a promise rejected with no handler\n\s+at .*crash-policy-faults\.ts/,
    );
    // Counted: four distinct numbers.
    expect(new Set(log.match(/unexpected error \d+/g))).toEqual(
      new Set(['unexpected error 1', 'unexpected error 2', 'unexpected error 3', 'unexpected error 4']),
    );
    // The token never reaches the log, however the error spelled it.
    expect(log).not.toContain(serve.token);
    expect(log).toContain('token=[redacted]');
    expect(log).toContain('Bearer [redacted]');

    // The same process still answers an authenticated request, twice over to be sure it is not a last gasp.
    expect(await healthOk(serve)).toBe(true);
    await new Promise((r) => setTimeout(r, 500));
    expect(await healthOk(serve)).toBe(true);
    expect(serve.exited()).toBeNull();
  });

  it('ends on an out-of-memory error, with a log line and exit status 70, rather than serving on from a broken heap', { timeout: 180_000 }, async () => {
    const { serve, faultFile } = await serveWithFaults('fatal');
    writeFileSync(faultFile, JSON.stringify({ kind: 'fatal', secret: serve.token }));
    serve.kill('SIGUSR2');
    expect(await serve.ended).toBe(String(FATAL_EXIT_CODE));
    expect(serve.stderr()).toMatch(
      /forge serve: unexpected error 1 \(uncaughtException\), fatal \(out of memory\), exiting with status 70: Error: fault-injection: spawn failed/,
    );
  });
});

describe('forge mcp (stdio) under errors nothing caught', () => {
  it('logs them to stderr, keeps stdout pure JSON-RPC, still answers the IDE, and still exits when stdin closes', { timeout: 120_000 }, async () => {
    const dataDir = join(scratch, 'mcp-data');
    const faultFile = join(scratch, 'mcp.json');
    writeFileSync(faultFile, JSON.stringify({ kind: 'stray', secret: 'not-used-here' }));
    const child = spawn(process.execPath, ['--import', 'tsx', '--import', faults, 'src-main/host/cli.ts', 'mcp', '--data', dataDir], {
      cwd: fileURLToPath(new URL('../../..', import.meta.url)),
      stdio: ['pipe', 'pipe', 'pipe'],
      env: { ...process.env, FORGE_TEST_FAULTS: faultFile, FORGEGUARD_LOCAL: '1', ANTHROPIC_API_KEY: '' },
    });
    let out = '';
    let err = '';
    let exited: number | null = null;
    child.stdout.on('data', (d) => (out += String(d)));
    child.stderr.on('data', (d) => (err += String(d)));
    const ended = new Promise<number | null>((resolve) =>
      child.on('exit', (code) => {
        exited = code;
        resolve(code);
      }),
    );
    try {
      const send = (m: object) => child.stdin.write(`${JSON.stringify(m)}\n`);
      // forge mcp answers initialize before loading its server; the first request it cannot answer
      // itself (resources/list) loads the server, which then says which mode it runs in.
      send({
        jsonrpc: '2.0',
        id: 1,
        method: 'initialize',
        params: { protocolVersion: '2025-03-26', capabilities: {}, clientInfo: { name: 'ide', version: '1' } },
      });
      await until(
        'the initialize answer',
        () => out.includes('"id":1') || exited !== null,
        () => err,
        90_000,
      );
      send({ jsonrpc: '2.0', method: 'notifications/initialized' });
      send({ jsonrpc: '2.0', id: 2, method: 'resources/list', params: {} });
      await until(
        'forge mcp to load its server',
        () => (/forge mcp: \w+ mode/.test(err) && out.includes('"id":2')) || exited !== null,
        () => err,
        90_000,
      );
      child.kill('SIGUSR2');
      await until(
        'four logged errors',
        () => (err.match(/unexpected error \d+/g) ?? []).length >= 4 || exited !== null,
        () => err,
      );
      expect(exited).toBeNull();
      expect(err).toMatch(/forge mcp: unexpected error \d \(unhandledRejection\), logged; still serving: Error: fault-injection: a promise rejected/);

      // Still answering after the errors.
      send({ jsonrpc: '2.0', id: 3, method: 'ping' });
      await until(
        'the ping answer',
        () => out.includes('"id":3') || exited !== null,
        () => err,
      );
      // Every stdout line is a JSON-RPC frame: no log line broke the IDE's stream.
      const frames = out
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l) as { id?: number; result?: { serverInfo?: unknown } });
      expect(frames.find((f) => f.id === 1)?.result?.serverInfo).toBeTruthy();

      child.stdin.end();
      expect(await ended).toBe(0);
    } finally {
      if (exited === null) child.kill('SIGKILL');
    }
  });
});

describe('the crash policy itself', () => {
  it('counts every error but stops writing each one after a hundred, so a timer throwing every tick cannot fill the disk', () => {
    const lines: string[] = [];
    const exits: number[] = [];
    // Its own emitter in place of process: the test runner keeps its own handlers on the real one.
    const source = new EventEmitter();
    const policy = installCrashPolicy({ name: 'test', write: (l) => lines.push(l), exit: (c) => exits.push(c), source });
    for (let i = 0; i < 250; i++) source.emit('uncaughtException', new Error(`tick ${i}`));
    source.emit('unhandledRejection', 'a bare string');
    expect(policy.count).toBe(251);
    // The first hundred in full, then every hundredth.
    expect(lines).toHaveLength(101);
    expect(lines[100]).toMatch(/^test: unexpected error 200 \(uncaughtException\), logged; still serving: Error: tick 199/);
    expect(exits).toEqual([]);
    // A fatal one is always written, however many came before.
    source.emit('uncaughtException', Object.assign(new Error('no memory'), { code: 'ENOMEM' }));
    expect(lines.at(-1)).toMatch(/^test: unexpected error 252 \(uncaughtException\), fatal \(out of memory\), exiting with status 70: Error: no memory/);
    expect(exits).toEqual([70]);
    policy.uninstall();
    expect(source.listenerCount('uncaughtException') + source.listenerCount('unhandledRejection')).toBe(0);
  });

  it('logs the stack and the cause, never the other fields of an error (they can hold request headers)', () => {
    const e = Object.assign(new Error('upstream failed', { cause: new Error('socket hang up') }), {
      headers: { authorization: 'x-api-key-value-1234' },
      code: 'ECONNRESET',
    });
    const text = describeError(e);
    expect(text).toMatch(/^Error: upstream failed\n\s+at /);
    expect(text).toContain('[ECONNRESET]');
    expect(text).toContain('Caused by: Error: socket hang up');
    expect(text).not.toContain('x-api-key-value-1234');
    expect(describeError('just a string')).toContain('has no stack');
    expect(redact('key sk-ant-api03-abcdefghijkl and hunter2hunter2', ['hunter2hunter2'])).toBe('key sk-[redacted] and [redacted]');
  });

  it('treats only out-of-memory errors as fatal', () => {
    expect(isFatal(Object.assign(new Error('x'), { code: 'ENOMEM' }))).toBe(true);
    expect(isFatal(new RangeError('Array buffer allocation failed'))).toBe(true);
    expect(isFatal(new RangeError('Maximum call stack size exceeded'))).toBe(false);
    expect(isFatal(new TypeError('undefined is not a function'))).toBe(false);
    expect(isFatal(Object.assign(new Error('x'), { code: 'EPIPE' }))).toBe(false);
    expect(isFatal('a string')).toBe(false);
  });
});
