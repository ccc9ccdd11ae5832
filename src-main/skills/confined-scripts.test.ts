import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkConfinement } from './bubblewrap';
import { SkillLoader } from './loader';
import { runScriptOfSkill, runSkillScript, SkillScriptError } from './script-runner';

// Python and shell scripts of published skills, run inside bubblewrap. On Linux these tests need
// bwrap (CI installs it): they fail rather than skip without it, so a missing sandbox is noticed.
const FIXTURES = fileURLToPath(new URL('./fixtures/published-skills', import.meta.url));
const linux = process.platform === 'linux';

let root: string;
let outside: string;
let csv: string;
let probe: string;

beforeAll(() => {
  // Copies, so a sandbox that failed to hold could never plant a file in the repository.
  root = fs.mkdtempSync(path.join(os.tmpdir(), 'forge-confined-'));
  fs.cpSync(FIXTURES, path.join(root, 'skills'), { recursive: true });
  outside = fs.mkdtempSync(path.join(os.tmpdir(), 'forge-confined-outside-'));
  fs.writeFileSync(path.join(outside, 'secret.txt'), 'sk-ant-private');
  csv = path.join(root, 'skills', 'csv-insights');
  probe = path.join(root, 'skills', 'sandbox-probe');
});
afterAll(() => {
  fs.rmSync(root, { recursive: true, force: true });
  fs.rmSync(outside, { recursive: true, force: true });
});

async function failure(p: Promise<unknown>): Promise<SkillScriptError> {
  try {
    await p;
  } catch (e) {
    if (e instanceof SkillScriptError) return e;
    throw e;
  }
  throw new Error('expected the script run to be refused');
}

describe('Python and shell scripts the PM has not allowed', () => {
  it("refuses a not-allowed skill's .py with a sentence naming the setting, without running it", async () => {
    const loader = new SkillLoader(path.join(root, 'skills'), { mode: 'lenient' }); // no skill allowed
    const e = await failure(runScriptOfSkill(loader, 'csv-insights', 'summarize.py', { rows: [{ price: 1 }], column: 'price' }));
    expect(e.code).toBe('forbidden');
    expect(e.failure).toBe('not_allowed');
    expect(e.message).toBe(
      '"csv-insights/scripts/summarize.py" was not run: skill "csv-insights" is not allowed to run Python scripts. ' +
        'The PM can turn on "Allow scripts" for "csv-insights" in Settings → Skills.',
    );
    const sh = await failure(runScriptOfSkill(loader, 'csv-insights', 'word_count.sh', 'a b'));
    expect(sh.message).toContain('not allowed to run shell scripts');
  });

  it('refuses by default when called without the permission at all', async () => {
    const e = await failure(runSkillScript({ skillDir: csv, script: 'summarize.py', input: {} }));
    expect(e.failure).toBe('not_allowed');
  });

  it('refuses with a clear sentence where no sandbox is available, and never runs the script unconfined', async () => {
    const marker = path.join(outside, 'ran-unconfined.txt');
    const e = await failure(
      runSkillScript({ skillDir: probe, script: 'escape.sh', input: {}, args: [marker], scriptsAllowed: true, bwrapPath: path.join(outside, 'no-bwrap-here') }),
    );
    expect(e.code).toBe('unavailable');
    expect(e.failure).toBe('no_sandbox');
    expect(e.message).toMatch(
      /only inside the bubblewrap sandbox, and (bubblewrap \(bwrap\) is not installed|this computer runs \w+).*never runs them unconfined/,
    );
    expect(fs.existsSync(marker)).toBe(false);
  });
});

describe.runIf(linux)('Python and shell scripts of an allowed skill, inside bubblewrap', () => {
  beforeAll(async () => {
    const c = await checkConfinement();
    if (!c.ok) throw new Error(`These tests need a working bubblewrap: ${c.reason}`);
  });

  it('runs a published .py that reads JSON on stdin, imports its helper module and prints JSON', async () => {
    const loader = new SkillLoader(path.join(root, 'skills'), { mode: 'lenient', scriptsAllowed: (s) => s === 'csv-insights' });
    const rows = [{ price: 10 }, { price: '12.5' }, { price: 2.5 }];
    const r = await runScriptOfSkill(loader, 'csv-insights', 'summarize.py', { rows, column: 'price' });
    expect(r.output).toEqual({ column: 'price', count: 3, mean: 25 / 3, min: 2.5, max: 12.5 });
    expect(r.sandboxed).toBe(true);
  });

  it("turns the .py's own refusal (exit 2 with an error object) into an invalid-input error with its words", async () => {
    const e = await failure(runSkillScript({ skillDir: csv, script: 'summarize.py', input: { rows: [] }, scriptsAllowed: true }));
    expect(e.code).toBe('invalid_input');
    expect(e.message).toBe('csv-insights/scripts/summarize.py: give rows (a non-empty list) and column (a name)');
  });

  it('runs a published .sh and a #! script without an extension', async () => {
    const sh = await runSkillScript({ skillDir: csv, script: 'scripts/word_count.sh', input: 'three short words', scriptsAllowed: true });
    expect(sh.output).toEqual({ words: 3, bytes: '"three short words"'.length });
    const tool = await runSkillScript({ skillDir: csv, script: 'csvtool', input: {}, scriptsAllowed: true });
    expect(tool.output).toEqual({ tool: 'csvtool', python: 3 });
  });

  it('returns the prose a script prints when it is not JSON', async () => {
    const r = await runSkillScript({ skillDir: probe, script: 'report.py', input: {}, scriptsAllowed: true });
    expect(r.output).toBe('All checks passed: 3 of 3.');
  });

  it('gives the script no network: a connection to a listener on 127.0.0.1 never arrives', async () => {
    let connections = 0;
    const server = net.createServer((s) => {
      connections++;
      s.destroy();
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const port = (server.address() as net.AddressInfo).port;
    try {
      const r = await runSkillScript({ skillDir: probe, script: 'phone_home.py', input: { port }, scriptsAllowed: true });
      const out = r.output as { connect: string; dns: string };
      expect(out.connect).not.toBe('connected');
      expect(out.dns).not.toBe('resolved');
      await new Promise((res) => setTimeout(res, 100));
      expect(connections).toBe(0);
    } finally {
      server.close();
    }
  });

  it('lets the script write only in its temporary folder: not outside, not its skill folder, not home', async () => {
    const target = path.join(outside, 'pwned.txt');
    const r = await runSkillScript({
      skillDir: probe,
      script: 'escape.py',
      input: { outside_file: target, home: os.homedir(), secret_file: path.join(outside, 'secret.txt') },
      scriptsAllowed: true,
    });
    expect(r.output).toEqual({
      write_outside: expect.stringMatching(/Error$/),
      write_skill_folder: expect.stringMatching(/Error$/),
      write_home: expect.stringMatching(/Error$/),
      read_secret: 'FileNotFoundError', // the folder is not even visible
      write_cwd: 'done',
      cwd_is_temp: true,
    });
    expect(fs.existsSync(target)).toBe(false);
    expect(fs.existsSync(path.join(probe, 'scripts', 'planted.py'))).toBe(false);
    expect(fs.existsSync(path.join(os.homedir(), 'planted.txt'))).toBe(false);
    // The temporary folder goes with the run.
    expect(fs.readdirSync(os.tmpdir()).filter((f) => f.startsWith('forge-skill-run-') && fs.existsSync(path.join(os.tmpdir(), f, 'scratch.txt')))).toEqual([]);
  });

  it('stops a shell script from writing outside its temporary folder', async () => {
    const target = path.join(outside, 'from-shell.txt');
    const r = await runSkillScript({ skillDir: probe, script: 'escape.sh', input: {}, args: [target], scriptsAllowed: true });
    expect(r.output).toEqual({ write_outside: 'refused', write_cwd: 'done' });
    expect(fs.existsSync(target)).toBe(false);
  });

  it('never lets API keys or other parent variables reach the script', async () => {
    process.env.ANTHROPIC_API_KEY = 'sk-ant-test-should-not-leak';
    try {
      const r = await runSkillScript({ skillDir: probe, script: 'env_dump.py', input: {}, scriptsAllowed: true });
      expect((r.output as string[]).filter((k) => !['HOME', 'LANG', 'PATH', 'TMPDIR', 'TZ', 'PWD', 'SHLVL', '_', 'LC_CTYPE'].includes(k))).toEqual([]);
    } finally {
      delete process.env.ANTHROPIC_API_KEY;
    }
  });

  it('stops a script that runs past its timeout', async () => {
    const t0 = Date.now();
    const e = await failure(runSkillScript({ skillDir: probe, script: 'spin.py', input: {}, timeoutMs: 600, scriptsAllowed: true }));
    expect(e.failure).toBe('timeout');
    expect(Date.now() - t0).toBeLessThan(5000);
  });
});
