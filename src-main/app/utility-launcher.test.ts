import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { NodeScriptLaunch, StartedProcess } from '../host';
import { createUtilityNodeLauncher, type UtilityChild, type UtilityFork } from './utility-launcher';

/**
 * The desktop app's `.mjs` runner: utility-launcher.ts forks skill-script-host.ts, posts it the
 * script and its JSON input, and shapes the utility process as a child the spawn helper can drive.
 * There is no Electron binary here, so `fork` starts plain Node running a stand-in that behaves as a
 * utility process does where it matters (no stdin, one posted message, no exit when idle); the
 * script host and the skill scripts are the real ones.
 */

const root = path.join(__dirname, '..', '..');
const standIn = path.join(__dirname, '__tests__', 'utility-process-standin.mjs');
const hostModule = path.join(__dirname, 'skill-script-host.ts');
const tsx = pathToFileURL(createRequire(import.meta.url).resolve('tsx')).href;
const kelly = path.join(root, 'skills', 'expression-design', 'scripts', 'kelly.mjs');
const forks: string[] = [];

const forkWith =
  (flags: string[]): UtilityFork =>
  (modulePath, args, options) => {
    forks.push(modulePath);
    const child = spawn(process.execPath, ['--no-warnings', `--import=${tsx}`, standIn, modulePath, ...flags, ...args], {
      cwd: options.cwd,
      env: options.env,
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    const utility: UtilityChild = {
      get pid() {
        return child.pid;
      },
      stdout: child.stdout,
      stderr: child.stderr,
      kill: () => child.kill('SIGKILL'),
      postMessage: (message) => child.stdin.end(JSON.stringify(message)),
      once: ((event: 'spawn' | 'exit', listener: (code?: number) => void) => {
        if (event === 'exit') child.once('exit', (code) => listener(code ?? 137));
        else child.once('spawn', () => listener());
      }) as UtilityChild['once'],
    };
    return utility;
  };

const launcher = createUtilityNodeLauncher({ fork: forkWith([]), hostModule });
const windowsLauncher = createUtilityNodeLauncher({ fork: forkWith(['--windows-stdin']), hostModule });
const NETWORK_BLOCK = `data:text/javascript,${encodeURIComponent('globalThis.fetch = async () => { throw Object.assign(new Error("blocked"), { code: "ERR_NETWORK_DISABLED" }); };')}`;

let dir: string;
const env = () => ({ PATH: '/usr/local/bin:/usr/bin:/bin', HOME: os.tmpdir(), LANG: 'C.UTF-8', TZ: 'UTC' });

/** Drives the started process the way the spawn helper does: input on stdin, then read until close. */
function run(p: StartedProcess, input: unknown): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    let stdout = '';
    let stderr = '';
    p.stdout?.on('data', (b: Buffer) => (stdout += b.toString('utf8')));
    p.stderr?.on('data', (b: Buffer) => (stderr += b.toString('utf8')));
    p.on('error', reject);
    p.on('close', (code) => resolve({ code, stdout, stderr }));
    p.stdin?.end(JSON.stringify(input));
  });
}

function launch(script: string, over: Partial<NodeScriptLaunch> = {}): StartedProcess {
  return launcher.launch({ script, args: [], execArgv: ['--no-warnings', `--import=${NETWORK_BLOCK}`], env: env(), cwd: dir, ...over });
}

beforeAll(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'forge-utility-'));
  fs.writeFileSync(
    path.join(dir, 'echo.mjs'),
    `let raw = ''; for await (const c of process.stdin) raw += c;\nconst input = JSON.parse(raw);\n` +
      `setTimeout(() => console.log(JSON.stringify({ doubled: input.x * 2, argv: process.argv.slice(2), cwd: process.cwd() })), 50);`,
  );
  fs.writeFileSync(
    path.join(dir, 'fetch.mjs'),
    `try { await fetch('http://127.0.0.1:9/'); console.log('"reached"'); } catch (e) { console.log(JSON.stringify(e.code)); }`,
  );
  fs.writeFileSync(path.join(dir, 'crash.mjs'), `throw new TypeError('curve fit exploded');`);
  fs.writeFileSync(path.join(dir, 'hang.mjs'), `setInterval(() => {}, 1000);`);
});

afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

describe('the desktop app runs .mjs skill scripts in a utility process', () => {
  it("runs Forge's own Kelly script: JSON in through the posted message, JSON out on stdout", { timeout: 60_000 }, async () => {
    // If this failed, the analyst's position sizing would not work in the installed app.
    const input = { probability: 0.6, win: 0.04, loss: 0.02 };
    const r = await run(launch(kelly, { cwd: path.dirname(kelly) }), input);
    expect(r.code).toBe(0);
    const out = JSON.parse(r.stdout);
    expect(out.full_kelly).toBeCloseTo(0.6 / 0.02 - 0.4 / 0.04, 6);
    // The same answer plain Node gives (what `forge serve` and the dev build run).
    const plain = spawnSync(process.execPath, [kelly], { input: JSON.stringify(input), encoding: 'utf8' });
    expect(out).toEqual(JSON.parse(plain.stdout));
    expect(forks).toContain(hostModule);
  });

  it('hands the input over on Windows too, where Electron fixes process.stdin to an ended stream', { timeout: 60_000 }, async () => {
    const input = { probability: 0.6, win: 0.04, loss: 0.02 };
    const p = windowsLauncher.launch({ script: kelly, args: [], execArgv: [], env: env(), cwd: dir });
    const r = await run(p, input);
    expect(r.stderr).toBe('');
    expect(JSON.parse(r.stdout).full_kelly).toBeCloseTo(20, 6);
  });

  it("keeps the script's exit code and its own refusal (exit 2 with an error object)", { timeout: 60_000 }, async () => {
    const r = await run(launch(kelly), { probability: 2, win: 0.04, loss: 0.02 });
    expect(r.code).toBe(2);
    expect(JSON.parse(r.stdout).error).toMatch(/probabilit/);
  });

  it('ends the process once the script is done, timers included, with argv and cwd as in Node', { timeout: 60_000 }, async () => {
    // The stand-in never ends by itself (as a utility process does not): only the host's exit ends it.
    const r = await run(launch(path.join(dir, 'echo.mjs'), { args: ['--fast', 'x.csv'] }), { x: 21 });
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toEqual({ doubled: 42, argv: ['--fast', 'x.csv'], cwd: fs.realpathSync(dir) });
  });

  it('imports the network block before the script', { timeout: 60_000 }, async () => {
    const r = await run(launch(path.join(dir, 'fetch.mjs')), {});
    expect(JSON.parse(r.stdout)).toBe('ERR_NETWORK_DISABLED');
  });

  it('reports a crash as Node does: exit code 1 and the error line on stderr', { timeout: 60_000 }, async () => {
    const r = await run(launch(path.join(dir, 'crash.mjs')), {});
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('TypeError: curve fit exploded');
  });

  it('is stopped by kill (the timeout path) and still reports close', { timeout: 60_000 }, async () => {
    const p = launch(path.join(dir, 'hang.mjs'));
    const done = run(p, {});
    await new Promise((r) => setTimeout(r, 300));
    expect(p.kill()).toBe(true);
    const r = await done;
    expect(r.code).not.toBe(0);
  });

  it('refuses Node options it cannot apply (a permission flag) instead of dropping them silently', () => {
    expect(() => launch(path.join(dir, 'echo.mjs'), { execArgv: ['--permission', `--allow-fs-read=${dir}/`] })).toThrow(
      /cannot apply the Node option "--permission"/,
    );
    // It claims no permission model, so the runner never asks it for one and reports `sandboxed: false`.
    expect(launcher.permissionFlag()).toBeNull();
  });
});
