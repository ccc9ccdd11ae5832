import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { NodeScriptLaunch, NodeScriptLauncher } from './node-launcher';
import { SkillLoader } from './loader';
import { permissionFlag, runScriptOfSkill, runSkillScript, SkillScriptError } from './script-runner';

/**
 * Inside Electron, `process.execPath` is the app: with the runAsNode fuse off (packaged builds)
 * ELECTRON_RUN_AS_NODE is ignored, so spawning it for a `.mjs` script would open a second Forge
 * instead of running the script. These tests run "as Electron" through the runner's `electron`
 * flag (no global is patched) with real child processes behind the launcher.
 */

let base: string;
let skillDir: string;

const IO = `let raw = ''; for await (const c of process.stdin) raw += c; const input = JSON.parse(raw);\n`;

/** A launcher that starts real Node, recording what it was asked to start. */
function nodeLauncher(flag: string | null): NodeScriptLauncher & { calls: NodeScriptLaunch[] } {
  const calls: NodeScriptLaunch[] = [];
  return {
    calls,
    permissionFlag: () => flag,
    launch(spec) {
      calls.push(spec);
      return spawn(process.execPath, [...spec.execArgv, spec.script, ...spec.args], {
        cwd: spec.cwd,
        env: spec.env,
        stdio: ['pipe', 'pipe', 'pipe'],
        detached: true,
      });
    },
  };
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

beforeAll(() => {
  base = fs.mkdtempSync(path.join(os.tmpdir(), 'forge-launcher-'));
  skillDir = path.join(base, 'sizing');
  fs.mkdirSync(path.join(skillDir, 'scripts'), { recursive: true });
  fs.writeFileSync(path.join(skillDir, 'scripts', 'echo.mjs'), `${IO}console.log(JSON.stringify({ doubled: input.x * 2, args: process.argv.slice(2) }));`);
  fs.writeFileSync(path.join(skillDir, 'scripts', 'env.mjs'), `console.log(JSON.stringify(Object.keys(process.env).sort()));`);
  fs.writeFileSync(
    path.join(skillDir, 'scripts', 'mark.mjs'),
    `import fs from 'node:fs';\nfs.writeFileSync(${JSON.stringify(path.join(base, 'ran.txt'))}, 'x');\nconsole.log('{}');`,
  );
  fs.writeFileSync(path.join(skillDir, 'scripts', 'spin.mjs'), `${IO}for (;;) {}`);
});

afterAll(() => fs.rmSync(base, { recursive: true, force: true }));

describe('.mjs skill scripts inside Electron', () => {
  it('are refused, never started with process.execPath, when the shell gave no launcher', async () => {
    // A user would otherwise see a second Forge window open (packaged) instead of the sizing result.
    const e = await failure(runSkillScript({ skillDir, script: 'mark.mjs', input: {}, electron: true, sandbox: false }));
    expect(e.code).toBe('unavailable');
    expect(e.failure).toBe('no_launcher');
    expect(e.message).toContain('sizing/scripts/mark.mjs');
    expect(fs.existsSync(path.join(base, 'ran.txt'))).toBe(false);
  });

  it('run through the injected launcher: JSON in on stdin, JSON out, arguments, confinement flags and a scrubbed environment', async () => {
    const launcher = nodeLauncher(permissionFlag());
    const r = await runSkillScript({ skillDir, script: 'echo.mjs', input: { x: 21 }, args: ['--fast'], electron: true, launchNode: launcher });
    expect(r.output).toEqual({ doubled: 42, args: ['--fast'] });
    expect(r.sandboxed).toBe(permissionFlag() !== null);
    const [call] = launcher.calls;
    expect(call.script).toBe(path.join(skillDir, 'scripts', 'echo.mjs'));
    expect(call.cwd).toBe(path.resolve(skillDir));
    expect(call.execArgv.some((a) => a.startsWith('--import=data:text/javascript,'))).toBe(true);
    if (permissionFlag()) expect(call.execArgv).toContain(permissionFlag());
    // Nothing tells the child to behave as Node: there is no Electron binary to tell.
    expect(Object.keys(call.env)).not.toContain('ELECTRON_RUN_AS_NODE');

    const env = await runSkillScript({ skillDir, script: 'env.mjs', input: {}, electron: true, launchNode: nodeLauncher(null), shippedWithForge: true });
    expect(env.output).toEqual(['HOME', 'LANG', 'PATH', 'TMPDIR', 'TZ']);
  });

  it('report no sandbox, and pass no permission flags, when the launcher has no permission model', async () => {
    const launcher = nodeLauncher(null);
    const r = await runSkillScript({ skillDir, script: 'echo.mjs', input: { x: 1 }, electron: true, launchNode: launcher, shippedWithForge: true });
    expect(r.sandboxed).toBe(false);
    expect(launcher.calls[0].execArgv.filter((a) => a.includes('permission') || a.startsWith('--allow-'))).toEqual([]);
  });

  it('without a permission model, run only when shipped with Forge or allowed by the PM: a published script could read any file', async () => {
    const shipped = path.join(base, 'shipped');
    const workspace = path.join(base, 'workspace');
    for (const root of [shipped, workspace]) {
      fs.mkdirSync(path.join(root, 'sizing', 'scripts'), { recursive: true });
      fs.writeFileSync(path.join(root, 'sizing', 'SKILL.md'), '---\nname: sizing\ndescription: Sizes a trade from its stop.\n---\n# Sizing\n');
      fs.writeFileSync(path.join(root, 'sizing', 'scripts', 'echo.mjs'), fs.readFileSync(path.join(skillDir, 'scripts', 'echo.mjs')));
    }
    // A script the PM dropped in (or a shipped one someone edited) is not one Forge reviewed.
    fs.writeFileSync(path.join(workspace, 'sizing', 'scripts', 'mark.mjs'), fs.readFileSync(path.join(skillDir, 'scripts', 'mark.mjs')));
    let allowed = false;
    const loader = new SkillLoader(workspace, { mode: 'lenient', nodeLauncher: nodeLauncher(null), shippedSkillsDir: shipped, scriptsAllowed: () => allowed });
    try {
      const ok = await runScriptOfSkill(loader, 'sizing', 'echo.mjs', { x: 4 }, { electron: true });
      expect(ok.output).toMatchObject({ doubled: 8 });
      const refused = await failure(runScriptOfSkill(loader, 'sizing', 'mark.mjs', {}, { electron: true }));
      expect([refused.code, refused.failure]).toEqual(['forbidden', 'not_allowed']);
      expect(refused.message).toContain('"Allow scripts" for "sizing"');
      expect(fs.existsSync(path.join(base, 'ran.txt'))).toBe(false);
      allowed = true;
      await runScriptOfSkill(loader, 'sizing', 'mark.mjs', {}, { electron: true });
      expect(fs.existsSync(path.join(base, 'ran.txt'))).toBe(true);
    } finally {
      loader.close();
      fs.rmSync(path.join(base, 'ran.txt'), { force: true });
    }
  });

  it('are stopped at their timeout through the launcher as they are when spawned', async () => {
    const e = await failure(
      runSkillScript({ skillDir, script: 'spin.mjs', input: {}, timeoutMs: 500, electron: true, launchNode: nodeLauncher(null), shippedWithForge: true }),
    );
    expect(e.failure).toBe('timeout');
  });
});
