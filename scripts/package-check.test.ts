import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { checkAll, checkTarget, LIMIT_BYTES, mb } from './package-check';
import { nativeKind } from './package-check-native';

/** Headers of real native binaries, as the loaders read them (ELF e_machine, Mach-O cputype, PE machine). */
function elf(machine: number): Buffer {
  const b = Buffer.alloc(256);
  b.writeUInt32BE(0x7f454c46, 0);
  b.writeUInt16LE(machine, 18);
  return b;
}
function macho(cpu: number): Buffer {
  const b = Buffer.alloc(256);
  b.writeUInt32LE(0xfeedfacf, 0);
  b.writeUInt32LE(cpu, 4);
  return b;
}
function pe(machine: number): Buffer {
  const b = Buffer.alloc(256);
  b.write('MZ', 0, 'latin1');
  b.writeUInt32LE(0x80, 0x3c);
  b.writeUInt32BE(0x50450000, 0x80);
  b.writeUInt16LE(machine, 0x84);
  return b;
}
const ELF_X64 = elf(0x3e);
const MACHO_ARM64 = macho(0x0100000c);

let root: string;
const put = (rel: string, content: string | Buffer) => {
  mkdirSync(dirname(join(root, rel)), { recursive: true });
  writeFileSync(join(root, rel), content);
};
const ORT = 'node_modules/onnxruntime-node/bin/napi-v6';

/** A small project laid out like Forge: built entries, bundled folders, and two native modules. */
beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), 'forge-pkgcheck-'));
  put(
    'package.json',
    JSON.stringify({ name: 'app', version: '1.0.0', main: 'out/main/index.js', dependencies: { 'better-sqlite3': '1', 'onnxruntime-node': '1' } }),
  );
  put(
    'package-lock.json',
    JSON.stringify({
      packages: {
        '': { name: 'app' },
        'node_modules/better-sqlite3': { version: '1.0.0' },
        'node_modules/onnxruntime-node': { version: '1.0.0', os: ['win32', 'darwin', 'linux'] },
        'node_modules/vitest': { version: '1.0.0', dev: true },
      },
    }),
  );
  for (const f of [
    'out/main/index.js',
    'out/main/mcp.js',
    'out/main/cli.js',
    'skills/s/SKILL.md',
    'contracts/c.md',
    'resources/seed/a.md',
    'resources/demo/b.md',
    'resources/examples/e.md',
  ])
    put(f, 'x');
  put('node_modules/better-sqlite3/build/Release/better_sqlite3.node', ELF_X64);
  put('node_modules/better-sqlite3/package.json', '{}');
  put(`${ORT}/linux/x64/onnxruntime_binding.node`, ELF_X64);
  put(`${ORT}/darwin/arm64/onnxruntime_binding.node`, MACHO_ARM64);
  put('node_modules/onnxruntime-node/package.json', '{}');
  // A dev dependency: never in the installer, however big.
  put('node_modules/vitest/big.js', Buffer.alloc(4096));
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

const config = (linuxFiles?: string[]) => ({
  productName: 'App',
  directories: { output: 'dist' },
  files: ['out/**', 'skills/**', 'contracts/**', 'resources/seed/**', 'resources/demo/**', 'resources/examples/**', 'package.json', '!**/*.test.*'],
  asarUnpack: ['node_modules/better-sqlite3/**/*.node', 'node_modules/onnxruntime-node/bin/**'],
  linux: { files: linuxFiles, target: [{ target: 'AppImage', arch: ['x64'] }] },
});
const LINUX_ONLY = [
  '!**/node_modules/onnxruntime-node/bin/napi-v*/{darwin,win32}{,/**/*}',
  // electron-builder's own macro (as in electron-builder.yml), expanded by its code, not by JavaScript.
  `!**/node_modules/onnxruntime-node/bin/napi-v*/linux/!(${'$'}{arch}){,/**/*}`,
];
const linuxX64 = { os: 'linux' as const, arch: 'x64' };

describe('the packaging check (what an installer would contain, by electron-builder’s own rules)', () => {
  it('reads what a binary was built for from its header', () => {
    // If this fails, a foreign binary could pass as the target's own.
    put('bin/a', ELF_X64);
    put('bin/b', MACHO_ARM64);
    put('bin/c', pe(0xaa64));
    put('bin/d', 'just text, long enough to be read as a header but no magic number at all.....');
    expect(nativeKind(join(root, 'bin/a'), 256)).toEqual({ os: 'linux', arch: ['x64'] });
    expect(nativeKind(join(root, 'bin/b'), 256)).toEqual({ os: 'darwin', arch: ['arm64'] });
    expect(nativeKind(join(root, 'bin/c'), 256)).toEqual({ os: 'win32', arch: ['arm64'] });
    expect(nativeKind(join(root, 'bin/d'), 80)).toBeUndefined();
  });

  it('passes a lean tree: only the target’s binaries, the required parts present, no dev dependencies', async () => {
    const r = await checkTarget(root, config(LINUX_ONLY), linuxX64, { requireBuilt: true });
    expect(r.problems).toEqual([]);
    expect(r.natives.map((n) => n.path).sort()).toEqual([
      'node_modules/better-sqlite3/build/Release/better_sqlite3.node',
      `${ORT}/linux/x64/onnxruntime_binding.node`,
    ]);
    expect(r.bytes).toBeLessThan(4096);
  });

  it('fails a target that would carry another platform’s binary', async () => {
    // If this fails, a Linux installer could ship macOS's onnxruntime (or worse, only that) unnoticed.
    const r = await checkTarget(root, config(), linuxX64, { requireBuilt: true });
    expect(r.problems).toEqual([`${ORT}/darwin/arm64/onnxruntime_binding.node is a darwin-arm64 binary in the linux-x64 installer`]);
  });

  it('fails a target that carries a package no installer may ship (onnxruntime-web)', async () => {
    // If this fails, the 140 MB web runtime nothing imports could creep back into every installer.
    const lockPath = join(root, 'package-lock.json');
    const lock = JSON.parse(readFileSync(lockPath, 'utf8'));
    lock.packages['node_modules/onnxruntime-web'] = { version: '1.0.0' };
    writeFileSync(lockPath, JSON.stringify(lock));
    put('node_modules/onnxruntime-web/dist/ort.js', 'x');
    const r = await checkTarget(root, config(LINUX_ONLY), linuxX64, { requireBuilt: true });
    expect(r.problems).toEqual([expect.stringMatching(/^node_modules\/onnxruntime-web\/dist\/ort\.js ships, but transformers\.js bundles/)]);
  });

  it('fails a target over the size limit, and one missing its entry point or its model binding', async () => {
    // If this fails, a bloated installer or one whose stdio entry point is gone would pass the check.
    const big = await checkTarget(root, config(LINUX_ONLY), linuxX64, { limitBytes: 600 });
    expect(big.problems).toEqual([expect.stringMatching(/unpacked is over the 0\.0 MB limit/)]);
    rmSync(join(root, 'out/main/mcp.js'));
    rmSync(join(root, ORT, 'linux'), { recursive: true });
    const broken = await checkTarget(root, config(LINUX_ONLY), linuxX64, { requireBuilt: true });
    expect(broken.problems).toEqual(['out/main/mcp.js is missing from the installer', 'no onnxruntime-node binding (the local model) for linux-x64']);
  });

  it('passes on this repository for every target in electron-builder.yml, each under 200 MB', async () => {
    // If this fails, an installer carries a foreign binary, lacks a required part or has grown past the
    // limit (`npm run package:check` prints the whole report; npm test runs it again after the build).
    const reports = await checkAll(join(__dirname, '..'), { requireBuilt: false });
    expect(reports.map((r) => `${r.target.os}-${r.target.arch}`).sort()).toEqual(['linux-arm64', 'linux-x64', 'mac-arm64', 'win-arm64', 'win-x64']);
    for (const r of reports) {
      expect({ target: r.target, problems: r.problems }).toEqual({ target: r.target, problems: [] });
      expect(r.bytes, `${r.target.os}-${r.target.arch} is ${mb(r.bytes)}`).toBeLessThanOrEqual(LIMIT_BYTES);
    }
  }, 300_000);
});
