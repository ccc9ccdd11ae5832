import { type ChildProcess, spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkBubblewrap, createProcessGroupLimit } from '../../sandbox';
import { type CommandRun, runCommand, runProjectTests } from '../workspace';
import { caught, tempProject } from '../workspace/testing';

/**
 * A hostile project folder, built the way a build runs it (run_tests' `npm test`, run_command):
 * each attack from issue #26 must fail, and each assertion names what stopped it. Real bubblewrap,
 * real processes, a real listener. Where it matters, the same attack is also run unconfined (the
 * PM's consent path) to show it would have worked — so these tests fail if the sandbox is removed.
 *
 * If these failed, a project the builder works on could read Forge's API key, write over the PM's
 * files, list their home folder, reach services on their machine, or take the computer down.
 */

const bwrap = await checkBubblewrap();
if (!bwrap.ok) console.warn(`hostile-project tests skipped: ${bwrap.reason} (CI installs bubblewrap)`);

const FAKE_KEY = `sk-ant-hostile-test-${process.pid}`;
const tag = `${process.pid}-${Date.now()}`;
let root: string;
let outside: string;
let decoy: ChildProcess;

/** A script file in the project, run by npm through a package.json script (as a test suite would be). */
function scripts(files: Record<string, string>, npmScripts: Record<string, string>): void {
  for (const [name, code] of Object.entries(files)) fs.writeFileSync(path.join(root, name), code);
  fs.writeFileSync(path.join(root, 'package.json'), JSON.stringify({ name: 'hostile', version: '1.0.0', scripts: npmScripts }, null, 2));
}

/** The JSON line a hostile script printed (npm prints its own banner around it). */
function report(run: { output: string }): Record<string, unknown> {
  const line = run.output.split('\n').find((l) => l.startsWith('{"attack"'));
  if (!line) throw new Error(`the hostile script printed no report:\n${run.output}`);
  return JSON.parse(line) as Record<string, unknown>;
}

const unconfined = { bwrapPath: null, askUnconfined: async () => true };

beforeAll(() => {
  root = tempProject({ 'Forge/Contracts/blueprint.md': '# Blueprint\n', '.git/HEAD': 'ref: refs/heads/main\n' });
  outside = tempProject({ 'keep.txt': 'the PM’s file\n' });
  // Forge holding its key: a host process whose environment (/proc/<pid>/environ) carries it.
  decoy = spawn('sleep', ['120'], { env: { ...process.env, ANTHROPIC_API_KEY: FAKE_KEY }, stdio: 'ignore' });
  process.env.ANTHROPIC_API_KEY = FAKE_KEY;
  scripts(
    {
      'environ.js': `const fs = require('fs');
const seen = []; const leaked = [];
for (const d of fs.readdirSync('/proc')) {
  if (!/^\\d+$/.test(d)) continue;
  seen.push(Number(d));
  try { if (fs.readFileSync('/proc/' + d + '/environ', 'utf8').includes('${FAKE_KEY}')) leaked.push(Number(d)); } catch {}
}
console.log(JSON.stringify({ attack: 'environ', seen, leaked, own: process.env.ANTHROPIC_API_KEY ?? null }));`,
      'write.js': `const fs = require('fs'); const r = {};
for (const [k, p] of Object.entries(${JSON.stringify({
        outside: path.join(outside, `pwned-${tag}.txt`),
        overwrite: path.join(outside, 'keep.txt'),
        home: path.join(os.homedir(), `pwned-${tag}.txt`),
        tmp: path.join(os.tmpdir(), `pwned-${tag}.txt`),
        forge: path.join(root, 'Forge', 'Contracts', 'blueprint.md'),
        git: path.join(root, '.git', 'HEAD'),
        project: path.join(root, `written-${tag}.txt`),
      })})) {
  try { fs.writeFileSync(p, 'pwned'); r[k] = 'written'; } catch (e) { r[k] = e.code; }
}
console.log(JSON.stringify({ attack: 'write', ...r }));`,
      'home.js': `const fs = require('fs');
let r; try { r = fs.readdirSync(${JSON.stringify(os.homedir())}).length + ' entries'; } catch (e) { r = e.code; }
console.log(JSON.stringify({ attack: 'home', home: r }));`,
      'connect.js': `const net = require('net');
const s = net.connect(Number(process.argv[2]), '127.0.0.1');
s.on('connect', () => { console.log(JSON.stringify({ attack: 'connect', result: 'connected' })); s.end(); });
s.on('error', (e) => console.log(JSON.stringify({ attack: 'connect', result: e.code })));`,
    },
    {
      test: 'node environ.js',
      write: 'node write.js',
      home: 'node home.js',
      connect: 'node connect.js',
      gitalias: `git -c alias.x='!touch ${path.join(os.tmpdir(), `pwned-git-${tag}`)}' x`,
      bomb: 'f() { f | f & }; f; sleep 60',
      flood: `yes hostile-flood-${tag}`,
    },
  );
});

afterAll(() => {
  decoy?.kill('SIGKILL');
  delete process.env.ANTHROPIC_API_KEY;
  for (const f of [path.join(os.homedir(), `pwned-${tag}.txt`), path.join(os.tmpdir(), `pwned-${tag}.txt`), path.join(os.tmpdir(), `pwned-git-${tag}`)]) {
    fs.rmSync(f, { force: true });
  }
});

describe.skipIf(!bwrap.ok)('a hostile project built by Forge (bubblewrap)', { timeout: 120_000 }, () => {
  it('cannot read Forge’s API key from another process’s /proc/<pid>/environ: the PID namespace hides every host process', async () => {
    const confined = await runProjectTests(root, {});
    const r = report(confined);
    expect(r.leaked, 'no process visible in the sandbox carries the key').toEqual([]);
    expect(r.own, 'the scrubbed environment drops ANTHROPIC_API_KEY').toBeNull();
    // The PID namespace: the sandbox sees only its own few processes, not the decoy (nor this test).
    expect((r.seen as number[]).length).toBeLessThan(10);
    expect(confined.output).not.toContain(FAKE_KEY);

    // The same suite unconfined finds the key: this test fails if the sandbox goes.
    const open = report(await runProjectTests(root, { sandbox: unconfined }));
    expect((open.leaked as number[]).length).toBeGreaterThan(0);
  });

  it('cannot write outside the project, nor into Forge/ or .git/: the read-only mounts stop it', async () => {
    const r = report(await runCommand(root, 'npm run write'));
    expect(r.outside, 'the rest of the disk is not mounted writable').toMatch(/^(EROFS|ENOENT|EACCES)$/);
    expect(r.overwrite).toMatch(/^(EROFS|ENOENT|EACCES)$/);
    expect(r.home).toMatch(/^(EROFS|ENOENT|EACCES)$/);
    expect(r.forge, 'Forge/ is mounted read-only over the project').toBe('EROFS');
    expect(r.git, '.git/ is mounted read-only for everything but git').toBe('EROFS');
    expect(r.project, 'the project folder itself stays writable').toBe('written');
    // /tmp inside is the sandbox's own: the write there never reaches the host's /tmp.
    expect(fs.existsSync(path.join(os.tmpdir(), `pwned-${tag}.txt`))).toBe(false);
    expect(fs.existsSync(path.join(outside, `pwned-${tag}.txt`))).toBe(false);
    expect(fs.readFileSync(path.join(outside, 'keep.txt'), 'utf8')).toBe('the PM’s file\n');
    expect(fs.readFileSync(path.join(root, 'Forge', 'Contracts', 'blueprint.md'), 'utf8')).toBe('# Blueprint\n');
  });

  it('cannot list the home folder of the user running Forge: it is not mounted', async () => {
    const r = report(await runCommand(root, 'npm run home'));
    expect(r.home).toBe('ENOENT');
    const open = report(await runCommand(root, 'npm run home', { sandbox: unconfined }));
    expect(open.home).toMatch(/entries$/);
  });

  it('cannot connect to a listener on 127.0.0.1: the network namespace has only a down loopback, unless the PM allows network', async () => {
    let connections = 0;
    const server = net.createServer((s) => {
      connections++;
      s.end();
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const port = (server.address() as net.AddressInfo).port;
    try {
      fs.writeFileSync(path.join(root, 'package.json'), JSON.stringify({ name: 'hostile', scripts: { connect: `node connect.js ${port}` } }));
      const r = report(await runCommand(root, 'npm run connect'));
      expect(r.result).toMatch(/^(ECONNREFUSED|ENETUNREACH|EADDRNOTAVAIL)$/);
      expect(connections).toBe(0);
      // "Allow network for this build" is honoured: the same command now reaches the listener.
      const allowed = report(await runCommand(root, 'npm run connect', { sandbox: { allowNetwork: true } }));
      expect(allowed.result).toBe('connected');
      expect(connections).toBe(1);
    } finally {
      server.close();
    }
  });

  it('cannot run a shell command through a git alias: -c and aliases are refused, and inside npm the alias only touches the sandbox’s /tmp', async () => {
    const pwned = path.join(os.tmpdir(), `pwned-git-${tag}`);
    const refused = await caught(() => runCommand(root, `git -c alias.x='!touch ${pwned}' x`));
    expect(refused.reason, 'git -c is refused before anything runs').toBe('git_config');
    expect((await caught(() => runCommand(root, 'git x'))).reason, 'an alias (not a git subcommand) is refused').toBe('git_alias');
    // Git settings arriving through the environment (GIT_CONFIG_*) are scrubbed, so core.fsmonitor never runs.
    await runCommand(root, 'git init -q');
    const marker = path.join(root, 'fsmonitor-ran');
    const env = { ...process.env, GIT_CONFIG_COUNT: '1', GIT_CONFIG_KEY_0: 'core.fsmonitor', GIT_CONFIG_VALUE_0: `touch ${marker}` };
    const status = await runCommand(root, 'git status --short', { env });
    expect(status.exitCode).toBe(0);
    expect(fs.existsSync(marker), 'GIT_* variables are dropped from the environment').toBe(false);
    // A test script that runs the alias itself: git runs it, in the sandbox, where /tmp is private.
    fs.writeFileSync(path.join(root, 'package.json'), JSON.stringify({ name: 'hostile', scripts: { gitalias: `git -c alias.x='!touch ${pwned}' x` } }));
    await runCommand(root, 'npm run gitalias');
    expect(fs.existsSync(pwned), 'the sandbox’s private /tmp keeps the file off the host').toBe(false);
  });

  it.skipIf(process.getuid?.() === 0 && !canCapProcesses())(
    'survives a fork bomb: the process cap refuses its forks and the timeout stops it with everything it started',
    async () => {
      fs.writeFileSync(path.join(root, 'package.json'), JSON.stringify({ name: 'hostile', scripts: { bomb: 'f() { f | f & }; f; sleep 60' } }));
      const run: CommandRun = await runCommand(root, 'npm run bomb', { timeoutMs: 8000, maxProcesses: 64 });
      expect(run.stoppedFor, 'the timeout stopped it').toBe('timeout');
      // What held it: the pids control group (it counts refused forks), else RLIMIT_NPROC in the sandbox (the shell says so).
      expect(run.processLimitHit || /fork|Resource temporarily unavailable/i.test(run.output), 'the process cap refused forks').toBe(true);
      // The host survives: it can still start a process, and nothing of the bomb is left.
      const after = await runCommand(root, 'node --version', { sandbox: unconfined });
      expect(after.exitCode).toBe(0);
    },
    120_000,
  );

  it('is stopped at the output cap when it prints without end', async () => {
    const marker = `hostile-flood-${tag}`;
    fs.writeFileSync(path.join(root, 'package.json'), JSON.stringify({ name: 'hostile', scripts: { flood: `yes ${marker}` } }));
    const run = await runProjectTests(root, { command: 'npm run flood', maxOutputBytes: 2 * 1024 * 1024 });
    expect(run.stoppedFor, 'the output cap stopped it').toBe('output_cap');
    expect(run.passed).toBe(false);
    expect(run.output.length).toBeLessThan(40_000);
    await new Promise((r) => setTimeout(r, 300));
    expect(hostPidsWith(marker), 'no `yes` is left running').toEqual([]);
  });
});

/** A pids control group can be made here (root ignores RLIMIT_NPROC, so root needs one to bound a fork bomb). */
function canCapProcesses(): boolean {
  const limit = createProcessGroupLimit(8);
  void limit?.dispose();
  return limit !== null;
}

function hostPidsWith(arg: string): number[] {
  const out: number[] = [];
  for (const d of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(d)) continue;
    try {
      const stat = fs.readFileSync(`/proc/${d}/stat`, 'utf8');
      if (stat.slice(stat.lastIndexOf(')') + 2)[0] === 'Z') continue;
      if (fs.readFileSync(`/proc/${d}/cmdline`, 'utf8').split('\0').includes(arg)) out.push(Number(d));
    } catch {
      /* gone */
    }
  }
  return out;
}
