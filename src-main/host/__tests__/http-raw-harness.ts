import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * A real `forge serve` in a child process (the CLI itself, through tsx) on a fresh workspace, with
 * its MCP listener on a free port, for tests that must see whether the process survives.
 */
export interface ServeChild {
  readonly port: number;
  readonly token: string;
  readonly mcpPort: number;
  readonly mcpToken: string;
  readonly stdout: () => string;
  readonly stderr: () => string;
  /** null while running; the exit code or signal once it ended. */
  readonly exited: () => string | null;
  /** Resolves with the exit code (or signal) once the process has ended. */
  readonly ended: Promise<string>;
  kill(signal: NodeJS.Signals): void;
  stop(): Promise<void>;
}

const repoRoot = fileURLToPath(new URL('../../..', import.meta.url));

export async function startServeChild(options: { preload?: string; env?: Record<string, string> } = {}): Promise<ServeChild> {
  const dataDir = mkdtempSync(join(tmpdir(), 'forge-http-raw-'));
  // A known MCP token (the token file the MCP listener reads) so the test can make a good request.
  const mcpToken = `mcp-${'t'.repeat(40)}`;
  writeFileSync(join(dataDir, 'mcp-token'), mcpToken, { mode: 0o600 });
  const args = [
    '--import',
    'tsx',
    ...(options.preload ? ['--import', options.preload] : []),
    'src-main/host/cli.ts',
    'serve',
    '--port',
    '0',
    '--data',
    dataDir,
  ];
  const child: ChildProcess = spawn(process.execPath, args, {
    cwd: repoRoot,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, FORGE_MCP_PORT: '0', FORGE_SCHEDULER: 'off', ANTHROPIC_API_KEY: '', ...options.env },
  });
  let out = '';
  let err = '';
  let exited: string | null = null;
  child.stdout?.on('data', (d) => (out += String(d)));
  child.stderr?.on('data', (d) => (err += String(d)));
  const ended = new Promise<string>((resolve) =>
    child.on('exit', (code, signal) => {
      exited = String(code ?? signal);
      resolve(exited);
    }),
  );
  const ready = await new Promise<RegExpMatchArray>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`forge serve did not start in 90 s:\n${out}\n${err.slice(-2000)}`)), 90_000);
    const check = () => {
      const m = out.match(/Open: http:\/\/127\.0\.0\.1:(\d+)\/\?token=(\S+)/);
      if (m) {
        clearTimeout(timer);
        resolve(m);
      }
    };
    child.stdout?.on('data', check);
    void ended.then(() => {
      clearTimeout(timer);
      reject(new Error(`forge serve exited (${exited}) before serving:\n${err.slice(-2000)}`));
    });
  });
  const mcp = out.match(/MCP \(for IDEs\): http:\/\/127\.0\.0\.1:(\d+)\/mcp/);
  return {
    port: Number(ready[1]),
    token: decodeURIComponent(ready[2]!),
    mcpPort: mcp ? Number(mcp[1]) : 0,
    mcpToken,
    stdout: () => out,
    stderr: () => err,
    exited: () => exited,
    ended,
    kill: (signal) => child.kill(signal),
    async stop() {
      if (exited === null) {
        child.kill('SIGTERM');
        const killer = setTimeout(() => child.kill('SIGKILL'), 20_000);
        await ended;
        clearTimeout(killer);
      }
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

export interface RawAnswer {
  /** The HTTP status of the first response line, if one came. */
  status?: number;
  /** The socket closed (or was reset) without any answer. */
  closed: boolean;
  /** No answer and no close within the wait: the request hung. */
  hung: boolean;
}

/** Sends bytes over a plain TCP socket and reads the status line of whatever comes back. */
export function rawExchange(port: number, bytes: Buffer | string, waitMs = 20_000): Promise<RawAnswer> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    let got = '';
    let done = false;
    const finish = (answer: RawAnswer) => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      socket.destroy();
      resolve(answer);
    };
    const timer = setTimeout(() => finish({ closed: false, hung: true }), waitMs);
    socket.on('data', (d) => {
      got += d.toString('latin1');
      const m = got.match(/^HTTP\/1\.[01] (\d{3})[^\r\n]*\r\n/);
      if (m) finish({ status: Number(m[1]), closed: false, hung: false });
      else if (got.length > 64 && !got.startsWith('HTTP/')) finish({ closed: false, hung: false, status: -1 });
    });
    // The server may close while we are still writing a huge request: a reset is a close.
    socket.on('error', () => finish({ closed: true, hung: false }));
    socket.on('close', () => finish({ closed: true, hung: false }));
    socket.write(bytes);
  });
}

/** An ordinary HTTP request (node:http) for the "still serving" checks. */
export function httpRequest(
  port: number,
  opts: { method: string; path: string; headers: Record<string, string>; body?: string },
): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, method: opts.method, path: opts.path, headers: opts.headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8') }));
    });
    req.on('error', reject);
    req.end(opts.body);
  });
}

/** POST /api/app/health with the run's token: what any page or script of the PM's does first. */
export async function healthOk(child: ServeChild): Promise<boolean> {
  const r = await httpRequest(child.port, {
    method: 'POST',
    path: '/api/app/health',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${child.token}` },
    body: '{}',
  });
  return r.status === 200 && JSON.parse(r.body).ok === true;
}
