import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { DEFAULT_ALLOWED_COMMANDS, parseCommandLine } from './argv';
import { formatCommandRun, runCommand, scrubEnv } from './commands';
import { caught, tempProject } from './testing';

/** A script file in the project (run_command refuses code written on the command line: `node -e`). */
function script(root: string, name: string, code: string): string {
  fs.writeFileSync(path.join(root, name), code);
  return `node ${name}`;
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

/** Host processes (not zombies) whose command line holds `arg`. */
function hostPidsRunning(arg: string): number[] {
  const pids: number[] = [];
  for (const d of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(d)) continue;
    try {
      if (fs.readFileSync(`/proc/${d}/cmdline`, 'utf8').split('\0').includes(arg) && isRunning(Number(d))) pids.push(Number(d));
    } catch {
      /* gone */
    }
  }
  return pids;
}

describe('parseCommandLine', () => {
  it('splits words and honours simple quotes', () => {
    expect(parseCommandLine('python3 -m pytest -q -k "adds or subtracts"')).toEqual(['python3', '-m', 'pytest', '-q', '-k', 'adds or subtracts']);
    expect(parseCommandLine(`git commit -m 'fix: a; b | c > d $HOME'`)).toEqual(['git', 'commit', '-m', 'fix: a; b | c > d $HOME']);
    expect(parseCommandLine('node -e "console.log(\\"hi\\")"')).toEqual(['node', '-e', 'console.log("hi")']);
    expect(parseCommandLine('npx vitest run --reporter="dot" ""')).toEqual(['npx', 'vitest', 'run', '--reporter=dot', '']);
    expect(parseCommandLine('git log HEAD~1 --format=%h')).toEqual(['git', 'log', 'HEAD~1', '--format=%h']);
  });

  it.each([';', '|', '&', '>', '<', '$', '`', '(', ')', '*', '?', '{', '}', '[', ']', '\\', '#', '\n'])(
    'refuses the shell metacharacter %j outside quotes',
    async (c) => {
      const err = await caught(() => parseCommandLine(`npm test ${c}x`));
      expect(err.reason).toBe('metachar');
      expect(err.message).toMatch(/without a shell/);
    },
  );

  it('refuses a leading ~, unescaped $ or ` inside double quotes, and unterminated quotes', async () => {
    expect((await caught(() => parseCommandLine('cat ~/.ssh/id_rsa'))).reason).toBe('metachar');
    expect((await caught(() => parseCommandLine('echo "$HOME"'))).reason).toBe('metachar');
    expect((await caught(() => parseCommandLine('echo "`id`"'))).reason).toBe('metachar');
    expect((await caught(() => parseCommandLine('echo "open'))).reason).toBe('unterminated_quote');
    expect((await caught(() => parseCommandLine('   '))).reason).toBe('empty');
  });
});

describe('runCommand refusals', () => {
  const root = tempProject({ 'a.txt': 'inside\n' });

  it.each([
    ['bash -c "ls"', 'not_allowed'],
    ['sh -c ls', 'not_allowed'],
    ['curl http://example.com', 'not_allowed'],
    ['rm -rf src', 'not_allowed'],
    ['env node -v', 'not_allowed'],
    ['./evil', 'path_program'],
    ['/bin/sh -c ls', 'path_program'],
    ['node_modules/.bin/vitest', 'path_program'],
    ['FOO=1 npm test', 'env_assignment'],
    ['cat /etc/passwd', 'path_arg'],
    ['cat ../secret.txt', 'path_arg'],
    ['tsc --outDir=/tmp/out', 'path_arg'],
  ])('refuses %j (%s) without running anything', async (cmd, reason) => {
    const err = await caught(() => runCommand(root, cmd));
    expect(err.reason).toBe(reason);
  });

  it('names the allowed programs when refusing one', async () => {
    const err = await caught(() => runCommand(root, 'wget x', { allowedCommands: ['npm', 'node'] }));
    expect(err.message).toBe('"wget" is not an allowed program. Allowed: npm, node.');
  });

  it('lets the allow-list be configured', async () => {
    expect((await caught(() => runCommand(root, 'node -v', { allowedCommands: ['npm'] }))).reason).toBe('not_allowed');
    expect(DEFAULT_ALLOWED_COMMANDS).not.toContain('bash');
  });
});

describe('runCommand', () => {
  const root = tempProject({ 'a.txt': 'inside\n' });
  afterEach(() => {
    delete process.env.FAKE_API_KEY;
    delete process.env.PLAIN_SETTING;
    delete process.env.DB_URL;
  });

  it('runs an allowed program in the project root and reports exit code and duration', async () => {
    const run = await runCommand(root, script(root, 'cwd.js', 'console.log(process.cwd()); process.exit(3)'));
    expect(run.exitCode).toBe(3);
    expect(run.output.trim()).toBe(root);
    expect(run.timedOut).toBe(false);
    expect(formatCommandRun(run)).toMatch(/^\$ node cwd\.js\nexit code 3 · \d+\.\d s\n/);
  });

  it('does not pass secrets from Forge’s environment to the program', async () => {
    process.env.FAKE_API_KEY = 'sk-live-should-not-leak';
    process.env.PLAIN_SETTING = 'visible';
    process.env.DB_URL = 'postgres://app:hunter2@db.internal/app';
    const run = await runCommand(
      root,
      script(root, 'env.js', "console.log([process.env.FAKE_API_KEY, process.env.PLAIN_SETTING, process.env.DB_URL, process.env.CI].join(','))"),
    );
    expect(run.output.trim()).toBe(',visible,,1');
    const env = scrubEnv({ PATH: '/usr/bin', HOME: '/home/u', ANTHROPIC_BASE_URL: 'x', GITHUB_PAT: 'x', NPM_TOKEN: 'x', AWS_REGION: 'x', LANG: 'C' });
    expect(Object.keys(env).sort()).toEqual(['CI', 'FORCE_COLOR', 'HOME', 'LANG', 'NO_COLOR', 'PATH']);
  });

  it('stops a program at its timeout, with the processes it started', async () => {
    const started = Date.now();
    const marker = `30.${process.pid}${Date.now() % 100000}`;
    const run = await runCommand(
      root,
      script(
        root,
        'spawn.js',
        `const c = require('child_process').spawn('sleep', ['${marker}'], { stdio: 'ignore' }); console.log(c.pid); setInterval(() => {}, 1000)`,
      ),
      { timeoutMs: 1500 },
    );
    expect(run.timedOut).toBe(true);
    expect(run.exitCode).toBeNull();
    expect(Date.now() - started).toBeLessThan(10_000);
    expect(Number(run.output.trim())).toBeGreaterThan(0);
    // Inside the sandbox the grandchild's pid is one of its own namespace: find it on the host by its unique argument.
    await new Promise((r) => setTimeout(r, 300));
    expect(hostPidsRunning(marker)).toEqual([]);
    expect(formatCommandRun(run)).toMatch(/timed out after 1\.\d s and was stopped/);
  });

  it('keeps the head and tail of long output and says how much was left out', async () => {
    const run = await runCommand(root, script(root, 'long.js', "process.stdout.write('START' + 'x'.repeat(50000) + 'END')"), { maxOutputChars: 3000 });
    expect(run.truncated).toBe(true);
    expect(run.output.startsWith('START')).toBe(true);
    expect(run.output.endsWith('END')).toBe(true);
    expect(run.output).toContain('[… 47008 characters of output omitted …]');
    expect(run.output.length).toBeLessThan(3100);
  });

  it('reports a program that is not installed instead of throwing', async () => {
    const run = await runCommand(root, 'cargo --version', { env: { PATH: path.join(root, 'no-bin') } });
    expect(run.exitCode).toBeNull();
    expect(run.spawnError).toBe('"cargo" is not installed or not on PATH on this machine.');
  });

  it('is cancelled by the build’s abort signal', async () => {
    const ac = new AbortController();
    setTimeout(() => ac.abort(), 300);
    const run = await runCommand(root, script(root, 'forever.js', 'setInterval(() => {}, 1000)'), { signal: ac.signal });
    expect(run.cancelled).toBe(true);
    expect(run.durationMs).toBeLessThan(5000);
  });
});
