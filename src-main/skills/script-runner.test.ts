import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { permissionFlag, runSkillScript, SkillScriptError } from './script-runner';

let skillDir: string;
let outside: string;

const IO = `let raw = ''; for await (const c of process.stdin) raw += c; const input = JSON.parse(raw);\n`;
function script(name: string, code: string) {
  fs.writeFileSync(path.join(skillDir, 'scripts', name), code);
}
async function failure(p: Promise<unknown>): Promise<SkillScriptError> {
  try {
    await p;
  } catch (e) {
    if (e instanceof SkillScriptError) return e;
    throw e;
  }
  throw new Error('expected the script run to fail');
}
async function code(p: Promise<unknown>): Promise<string> {
  try {
    await p;
    return 'ok';
  } catch (e) {
    return (e as { code: string }).code;
  }
}

/** Alive and not a zombie (a killed orphan stays a zombie until PID 1 reaps it, which in containers may be never). */
function isRunning(pid: number): boolean {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2)[0] !== 'Z';
  } catch {
    try {
      process.kill(pid, 0);
      return !fs.existsSync('/proc');
    } catch {
      return false;
    }
  }
}

beforeAll(() => {
  const base = fs.mkdtempSync(path.join(os.tmpdir(), 'forge-script-'));
  skillDir = path.join(base, 'demo-skill');
  fs.mkdirSync(path.join(skillDir, 'scripts'), { recursive: true });
  fs.writeFileSync(path.join(skillDir, 'references.txt'), 'inside');
  outside = path.join(base, 'outside.txt');
  fs.writeFileSync(outside, 'outside');

  script('echo.mjs', `${IO}process.stdout.write(JSON.stringify({ doubled: input.x * 2, cwd: process.cwd() }));`);
  script('spin.mjs', `${IO}for (;;) {}`);
  script(
    'orphan.mjs',
    `import { spawn } from 'node:child_process';\nconst c = spawn('sleep', ['30'], { stdio: 'ignore' });\nprocess.stderr.write('PID ' + c.pid + '\\n');\nsetInterval(() => {}, 1000);`,
  );
  script('flood.mjs', `process.stdout.write('x'.repeat(1024 * 1024));`);
  script('env.mjs', `process.stdout.write(JSON.stringify(Object.keys(process.env).sort()));`);
  script('prose.mjs', `console.log('The Kelly fraction is 0.2');`);
  script('crash.mjs', `console.error('fitting the curve'); throw new Error('curve fit exploded');`);
  script('refuse.mjs', `console.log(JSON.stringify({ error: 'probabilities sum to 0.9; they must sum to 1' })); process.exitCode = 2;`);
  script(
    'snoop.mjs',
    `import fs from 'node:fs';\n${IO}const r = {};\n` +
      `try { fs.readFileSync(input.outside); r.outside = 'read'; } catch (e) { r.outside = e.code; }\n` +
      `try { r.inside = fs.readFileSync('references.txt', 'utf8'); } catch (e) { r.inside = e.code; }\n` +
      `try { fs.writeFileSync('written.txt', 'x'); r.write = 'wrote'; } catch (e) { r.write = e.code; }\n` +
      `console.log(JSON.stringify(r));`,
  );
  script(
    'phone-home.mjs',
    `import net from 'node:net';\nimport dgram from 'node:dgram';\n${IO}const r = {};\n` +
      `try { await fetch(input.url); r.fetch = 'reached'; } catch (e) { r.fetch = e.code ?? e.cause?.code ?? String(e); }\n` +
      `try { net.connect(input.port, '127.0.0.1'); r.net = 'attempted'; } catch (e) { r.net = e.code; }\n` +
      `try { new dgram.Socket('udp4').send('x', input.port, '127.0.0.1'); r.udp = 'sent'; } catch (e) { r.udp = e.code; }\n` +
      `console.log(JSON.stringify(r));`,
  );
  script('notes.txt', 'not a script');
});

afterAll(() => {
  fs.rmSync(path.dirname(skillDir), { recursive: true, force: true });
});

describe('runSkillScript', () => {
  it('passes JSON in and reads JSON out, with the skill folder as working directory', async () => {
    const r = await runSkillScript({ skillDir, script: 'echo.mjs', input: { x: 21 } });
    expect(r.output).toEqual({ doubled: 42, cwd: fs.realpathSync(skillDir) });
    expect(r.sandboxed).toBe(permissionFlag() !== null);
  });

  it('stops a script that runs past its timeout instead of hanging the sub-agent', async () => {
    const t0 = Date.now();
    const e = await failure(runSkillScript({ skillDir, script: 'spin.mjs', input: {}, timeoutMs: 400 }));
    expect(e.failure).toBe('timeout');
    expect(e.code).toBe('unavailable');
    expect(e.message).toContain('400 ms');
    expect(Date.now() - t0).toBeLessThan(5000);
  });

  it('kills the whole process group on timeout, so no grandchild outlives the script', async () => {
    const e = await failure(runSkillScript({ skillDir, script: 'orphan.mjs', input: {}, timeoutMs: 800, sandbox: false }));
    expect(e.failure).toBe('timeout');
    const pid = Number(/PID (\d+)/.exec(e.stderrTail)?.[1]);
    expect(pid).toBeGreaterThan(0);
    await new Promise((r) => setTimeout(r, 100));
    expect(isRunning(pid)).toBe(false); // the sleep died with its parent (a zombie left to init counts as dead)
  });

  it('stops a script that floods stdout beyond the cap', async () => {
    const e = await failure(runSkillScript({ skillDir, script: 'flood.mjs', input: {}, maxOutputBytes: 64 * 1024 }));
    expect(e.failure).toBe('too_large');
    expect(e.code).toBe('too_large');
  });

  it('never lets API keys or other parent variables reach the script', async () => {
    process.env.ANTHROPIC_API_KEY = 'sk-ant-test-should-not-leak';
    process.env.FORGE_SESSION_SECRET = 'hunter2';
    try {
      const r = await runSkillScript({ skillDir, script: 'env.mjs', input: {} });
      const keys = r.output as string[];
      expect(keys).not.toContain('ANTHROPIC_API_KEY');
      expect(keys).not.toContain('FORGE_SESSION_SECRET');
      expect(keys.filter((k) => !['HOME', 'LANG', 'PATH', 'TMPDIR', 'TZ'].includes(k))).toEqual([]);
    } finally {
      delete process.env.ANTHROPIC_API_KEY;
      delete process.env.FORGE_SESSION_SECRET;
    }
    expect(await code(runSkillScript({ skillDir, script: 'env.mjs', input: {}, env: { OPENAI_API_KEY: 'x' } }))).toBe('invalid_input');
  });

  it('reports a script that prints prose instead of JSON, quoting what it printed', async () => {
    const e = await failure(runSkillScript({ skillDir, script: 'prose.mjs', input: {} }));
    expect(e.failure).toBe('bad_json');
    expect(e.message).toContain('The Kelly fraction is 0.2');
  });

  it('reports a crash with the exit code and the tail of stderr', async () => {
    const e = await failure(runSkillScript({ skillDir, script: 'crash.mjs', input: {} }));
    expect(e.failure).toBe('exit');
    expect(e.exitCode).toBe(1);
    expect(e.message).toContain('curve fit exploded');
    expect(e.stderrTail).toContain('fitting the curve');
  });

  it("turns a script's own input refusal (exit 2 with an error object) into an invalid-input error with its words", async () => {
    const e = await failure(runSkillScript({ skillDir, script: 'refuse.mjs', input: {} }));
    expect(e.code).toBe('invalid_input');
    expect(e.message).toBe('demo-skill/scripts/refuse.mjs: probabilities sum to 0.9; they must sum to 1');
  });

  it.skipIf(permissionFlag() === null)('lets a script read its own folder but nothing outside it, and write nothing', async () => {
    const r = await runSkillScript({ skillDir, script: 'snoop.mjs', input: { outside } });
    expect(r.output).toEqual({ outside: 'ERR_ACCESS_DENIED', inside: 'inside', write: 'ERR_ACCESS_DENIED' });
    expect(fs.existsSync(path.join(skillDir, 'written.txt'))).toBe(false);
  });

  it('blocks network access from scripts (fetch and raw sockets never reach a local server)', async () => {
    let hits = 0;
    const server = http.createServer((_req, res) => {
      hits++;
      res.end('{}');
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const port = (server.address() as { port: number }).port;
    try {
      const r = await runSkillScript({ skillDir, script: 'phone-home.mjs', input: { url: `http://127.0.0.1:${port}/`, port } });
      expect(r.output).toEqual({ fetch: 'ERR_NETWORK_DISABLED', net: 'ERR_NETWORK_DISABLED', udp: 'ERR_NETWORK_DISABLED' });
      await new Promise((res) => setTimeout(res, 50));
      expect(hits).toBe(0);
    } finally {
      server.close();
    }
  });

  it('stops the script when the task is cancelled', async () => {
    const ac = new AbortController();
    setTimeout(() => ac.abort(), 150);
    const t0 = Date.now();
    const e = await failure(runSkillScript({ skillDir, script: 'spin.mjs', input: {}, signal: ac.signal }));
    expect(e.failure).toBe('cancelled');
    expect(Date.now() - t0).toBeLessThan(3000);
  });

  it('refuses scripts outside scripts/, non-Node files, missing files and inputs that are not JSON', async () => {
    expect(await code(runSkillScript({ skillDir, script: '../../outside.txt', input: {} }))).toBe('invalid_input');
    expect(await code(runSkillScript({ skillDir, script: 'notes.txt', input: {} }))).toBe('invalid_input');
    expect(await code(runSkillScript({ skillDir, script: 'missing.mjs', input: {} }))).toBe('not_found');
    expect(await code(runSkillScript({ skillDir, script: 'echo.mjs', input: { big: 1n } }))).toBe('invalid_input');
  });
});
