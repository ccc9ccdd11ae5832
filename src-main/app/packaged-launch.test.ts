import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import viteConfig from '../../electron.vite.config';
import { appMcpLaunch, MCP_FLAG, mcpModeArgs, mcpUnavailableOnWindows, withAppWorkspace } from './mcp-mode';

/**
 * The packaged app must be able to start everything the dev build starts, with what electron-builder
 * puts in it and with its fuses flipped. The Electron binary cannot be obtained here, so
 * `electron-builder --dir` cannot list the package: this reads electron-builder.yml's patterns and
 * electron.vite.config.ts's entries and checks them against the files each launch command needs.
 */

const root = join(__dirname, '..', '..');
const read = (rel: string) => readFileSync(join(root, rel), 'utf8');
const builder = parse(read('electron-builder.yml')) as {
  files: Array<string | { from: string; to: string }>;
  asarUnpack: string[];
  electronFuses: Record<string, boolean>;
};
const pkg = JSON.parse(read('package.json')) as { main: string };
const mainSource = read('src-main/app/main.ts');

/** An electron-builder (minimatch-style) pattern as a regular expression over `/`-separated paths. */
function globToRegExp(glob: string): RegExp {
  let re = '';
  for (let i = 0; i < glob.length; i++) {
    const c = glob[i];
    if (glob.startsWith('**/', i)) {
      re += '(?:.*/)?';
      i += 2;
    } else if (glob.startsWith('/**', i) && i + 3 === glob.length) {
      re += '(?:/.*)?';
      i += 2;
    } else if (glob.startsWith('**', i)) {
      re += '.*';
      i += 1;
    } else if (c === '*') re += '[^/]*';
    else if (c === '?') re += '[^/]';
    else re += c.replace(/[.+^${}()|[\]\\]/g, '\\$&');
  }
  return new RegExp(`^${re}$`);
}

/** Whether `file` (relative to the project) goes into the package: some pattern includes it and no `!` pattern removes it. */
function packaged(file: string): boolean {
  let included = false;
  for (const pattern of builder.files) {
    // A { from, to } entry copies a file set from elsewhere (the sharp stub), never a project file.
    if (typeof pattern !== 'string') continue;
    if (pattern.startsWith('!')) {
      if (globToRegExp(pattern.slice(1)).test(file)) included = false;
    } else if (globToRegExp(pattern).test(file)) included = true;
  }
  return included;
}

const unpacked = (file: string) => builder.asarUnpack.some((p) => globToRegExp(p).test(file));

function filesUnder(dir: string): string[] {
  const out: string[] = [];
  for (const e of readdirSync(join(root, dir), { withFileTypes: true })) {
    const rel = `${dir}/${e.name}`;
    if (e.isDirectory()) out.push(...filesUnder(rel));
    else out.push(rel);
  }
  return out;
}

/** Where electron-vite writes each main-process entry: `out/main/<name>.js`. */
function mainOutputs(): Record<string, string> {
  const config = viteConfig as { main: { build: { outDir: string; rollupOptions: { input: Record<string, string> } } } };
  const { outDir, rollupOptions } = config.main.build;
  return Object.fromEntries(Object.entries(rollupOptions.input).map(([name, src]) => [`${outDir}/${name}.js`, relative(root, src).split(sep).join('/')]));
}

describe('the packaged app holds every file its launch commands need', () => {
  it('the glob reading agrees with electron-builder on plain cases (so the checks below can fail)', () => {
    expect(globToRegExp('out/**').test('out/main/index.js')).toBe(true);
    expect(globToRegExp('**/*.test.*').test('skills/x/scripts/a.test.mjs')).toBe(true);
    expect(globToRegExp('node_modules/sqlite-vec-*/**').test('node_modules/sqlite-vec-linux-x64/vec0.so')).toBe(true);
    expect(globToRegExp('skills/**').test('bin/forge.mjs')).toBe(false);
  });

  it('ships the shell entry (package.json main), which is also the stdio MCP entry (`Forge --mcp`)', () => {
    const outputs = mainOutputs();
    expect(outputs[pkg.main]).toBe('src-main/app/main.ts');
    expect(packaged(pkg.main)).toBe(true);
    // The MCP mode is decided before the single-instance lock, so `Forge --mcp` runs beside an open app.
    expect(mainSource.indexOf('mcpModeArgs(process.argv)')).toBeGreaterThan(-1);
    expect(mainSource.indexOf('mcpModeArgs(process.argv)')).toBeLessThan(mainSource.indexOf('requestSingleInstanceLock'));
  });

  it('ships the utility-process module that runs .mjs skill scripts, built from its own entry', () => {
    const hostFile = /hostModule: join\(here, '([^']+)'\)/.exec(mainSource)?.[1];
    expect(hostFile).toBe('skill-script-host.js');
    const outputs = mainOutputs();
    expect(outputs[`out/main/${hostFile}`]).toBe('src-main/app/skill-script-host.ts');
    expect(packaged(`out/main/${hostFile}`)).toBe(true);
    expect(packaged('out/preload/index.cjs')).toBe(true);
    expect(packaged('out/renderer/index.html')).toBe(true);
  });

  it("ships every bundled skill's scripts and every contract (the core reads them next to package.json)", () => {
    const skillFiles = filesUnder('skills');
    expect(skillFiles.filter((f) => f.endsWith('.mjs')).length).toBeGreaterThan(0);
    expect(skillFiles.filter((f) => !packaged(f))).toEqual([]);
    expect(filesUnder('contracts').filter((f) => !packaged(f))).toEqual([]);
  });

  it('unpacks the native modules from the asar, since a .node file inside it cannot be loaded', () => {
    expect(unpacked('node_modules/better-sqlite3/build/Release/better_sqlite3.node')).toBe(true);
    expect(unpacked('node_modules/onnxruntime-node/bin/napi-v6/darwin/arm64/onnxruntime_binding.node')).toBe(true);
  });

  it('does not ship bin/forge.mjs, so no launch command of the packaged app may name it', () => {
    expect(packaged('bin/forge.mjs')).toBe(false);
  });

  it('has the runAsNode fuse off: the app binary never runs as Node, which is why scripts use a utility process', () => {
    expect(builder.electronFuses.runAsNode).toBe(false);
    expect(mainSource).toContain('utilityProcess.fork');
    // Nothing in the app or its core asks the binary to act as Node (that would open a second Forge).
    const setters = filesUnder('src-main').filter((f) => /\.ts$/.test(f) && !/\.test\.ts$/.test(f) && /ELECTRON_RUN_AS_NODE\s*(=[^=]|:)/.test(read(f)));
    expect(setters).toEqual([]);
  });

  it.skipIf(!existsSync(join(root, 'out', 'main', 'index.js')))('a build on disk holds the entries named above', () => {
    for (const file of Object.keys(mainOutputs())) expect(existsSync(join(root, file)), file).toBe(true);
    expect(read('out/main/index.js')).toContain(MCP_FLAG);
  });
});

describe("the packaged app's stdio MCP entry", () => {
  it('names the app executable with --mcp, the AppImage file on Linux, and bin/forge.mjs only in a dev run', () => {
    const mac = appMcpLaunch({
      packaged: true,
      execPath: '/Applications/Forge.app/Contents/MacOS/Forge',
      appRoot: '/Applications/Forge.app/Contents/Resources/app.asar',
    });
    expect(mac).toEqual({ kind: 'app', executable: '/Applications/Forge.app/Contents/MacOS/Forge' });
    const appImage = appMcpLaunch({
      packaged: true,
      execPath: '/tmp/.mount_ForgeXy/forge',
      appImage: '/home/pm/Apps/Forge.AppImage',
      appRoot: '/tmp/.mount_ForgeXy/resources/app.asar',
    });
    expect(appImage).toEqual({ kind: 'app', executable: '/home/pm/Apps/Forge.AppImage' });
    expect(appMcpLaunch({ packaged: false, execPath: '/repo/node_modules/electron/dist/electron', appRoot: '/repo' })).toEqual({
      kind: 'node',
      node: 'node',
      forgeScript: '/repo/bin/forge.mjs',
    });
  });

  it("reads `forge mcp` options after --mcp, in a packaged and a dev start, and serves the app's workspace by default", () => {
    expect(mcpModeArgs(['/Applications/Forge.app/Contents/MacOS/Forge', '--mcp', '--data', '/w'])).toEqual(['--data', '/w']);
    expect(mcpModeArgs(['/repo/node_modules/electron/dist/electron', '.', '--mcp'])).toEqual([]);
    expect(mcpModeArgs(['/Applications/Forge.app/Contents/MacOS/Forge'])).toBeNull();
    expect(withAppWorkspace([], '/Users/pm/Library/Application Support/Forge')).toEqual(['--data', '/Users/pm/Library/Application Support/Forge']);
    expect(withAppWorkspace(['--data=/w'], '/app')).toEqual(['--data=/w']);
  });

  it('on Windows, where the app gets no stdin, says to attach over HTTP instead of ending silently', () => {
    let said = '';
    expect(mcpUnavailableOnWindows((t) => (said += t))).toBe(2);
    expect(said).toContain('HTTP');
    expect(mainSource).toMatch(/process\.platform === 'win32'\s*\?\s*Promise\.resolve\(mcpUnavailableOnWindows\(\)\)/);
  });
});
