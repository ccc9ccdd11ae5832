#!/usr/bin/env tsx
/**
 * `npm run package:check`: what each installer would contain, computed with electron-builder's own
 * file rules (app-builder-lib's FileMatcher, default excludes and node-module copier) over
 * electron-builder.yml and the production dependency tree of package-lock.json — no Electron binary
 * needed. Per target (os × arch in electron-builder.yml) it reports the unpacked size (Electron itself
 * excluded), every native binary and what it was built for (read from its header), and fails on a
 * binary for another platform, a missing required part, a native file left inside the asar, or a
 * target over the size limit. It runs in `npm test` after the build, so the built entries are real.
 */
import { existsSync, lstatSync, readdirSync, readFileSync, type Stats } from 'node:fs';
import { createRequire } from 'node:module';
import { join, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parse } from 'yaml';
import { type BinaryOs, nativeKind } from './package-check-native';

export type TargetOs = 'linux' | 'mac' | 'win';
export interface Target {
  os: TargetOs;
  arch: string;
}
export interface NativeFile {
  path: string;
  os: BinaryOs;
  arch: string[];
  /** Built on the packaging machine for the target (better-sqlite3's rebuild), not a prebuilt. */
  rebuilt: boolean;
}
export interface TargetReport {
  target: Target;
  files: number;
  /** Every file: its path in the package and where it comes from ('' for estimated packages, `<package>/(estimated)`). */
  contents: Array<{ path: string; source: string }>;
  bytes: number;
  unpackedBytes: number;
  natives: NativeFile[];
  /** Platform packages this machine does not hold, counted at the size of their installed sibling. */
  estimated: string[];
  problems: string[];
}
export interface CheckOptions {
  /** Largest unpacked size allowed per target, Electron excluded (the issue's 200 MB). */
  limitBytes?: number;
  /** Whether the built entries (out/main/*.js) must exist; false before `npm run build` (the unit test). */
  requireBuilt?: boolean;
}

export const LIMIT_BYTES = 200 * 1024 * 1024;
const OS_OF: Record<TargetOs, BinaryOs> = { linux: 'linux', mac: 'darwin', win: 'win32' };
/** Folders whose binaries are compiled for the target while packaging (npmRebuild). */
const REBUILT = ['node_modules/better-sqlite3/build/'];
/** Parts the installed app cannot start or offer its bundled content without. */
const REQUIRED_FILES = ['package.json', 'out/main/index.js', 'out/main/mcp.js', 'out/main/cli.js'];
const REQUIRED_DIRS = ['skills', 'contracts', 'resources/seed', 'resources/demo', 'resources/examples'];
/** What no installer may carry, and why (issue #31 §3). sharp's place is taken by scripts/sharp-stub. */
const UNWANTED: Array<[string, string]> = [
  ['node_modules/onnxruntime-web/', 'transformers.js bundles its own web runtime and nothing imports the package'],
  ['node_modules/sqlite-vec', 'sqlite-vec is the benchmarks’ baseline only (a dev dependency)'],
  ['node_modules/@img/', 'sharp’s binaries are never used: Forge embeds text only'],
  ['node_modules/sharp/', 'only the stub in scripts/sharp-stub may stand in for sharp'],
];
/** Native parts every target must carry, by the path they have in the package. */
const REQUIRED_NATIVE: Array<{ name: string; test: (p: string, t: Target) => boolean }> = [
  { name: 'better-sqlite3 binding', test: (p) => p === 'node_modules/better-sqlite3/build/Release/better_sqlite3.node' },
  {
    name: 'onnxruntime-node binding (the local model)',
    test: (p, t) => new RegExp(`^node_modules/onnxruntime-node/bin/napi-v\\d+/${OS_OF[t.os]}/${t.arch}/onnxruntime_binding\\.node$`).test(p),
  },
];

// electron-builder's own matcher code, loaded from the installed app-builder-lib (CommonJS).
const requireHere = createRequire(import.meta.url);
// biome-ignore lint/suspicious/noExplicitAny: app-builder-lib's internals ship without types for these modules.
type Any = any;
const fileMatcher: Any = requireHere('app-builder-lib/out/fileMatcher');
const { NodeModuleCopyHelper }: Any = requireHere('app-builder-lib/out/util/NodeModuleCopyHelper');
const { expandMacro }: Any = requireHere('app-builder-lib/out/util/macroExpander');
const { detectUnpackedDirs }: Any = requireHere('app-builder-lib/out/asar/unpackDetector');

export function targetsOf(config: Any): Target[] {
  const out: Target[] = [];
  for (const os of ['linux', 'mac', 'win'] as const) {
    const arches = new Set<string>((config[os]?.target ?? []).flatMap((t: { arch?: string[] }) => t.arch ?? ['x64']));
    for (const arch of arches) out.push({ os, arch });
  }
  return out;
}

/** A file's path inside the package, `/`-separated. */
const posix = (p: string) => p.split(sep).join('/');

/** Whether a package-lock entry installs on the target (npm's own os/cpu/libc fields; '!x' negates). */
function installsOn(entry: { os?: string[]; cpu?: string[]; libc?: string[] }, target: Target): boolean {
  const allows = (list: string[] | undefined, value: string) => {
    if (!list?.length) return true;
    if (list.includes(`!${value}`)) return false;
    const positive = list.filter((v) => !v.startsWith('!'));
    return positive.length === 0 || positive.includes(value);
  };
  return allows(entry.os, OS_OF[target.os]) && allows(entry.cpu, target.arch) && (target.os !== 'linux' || allows(entry.libc, 'glibc'));
}

/** Where the package's root is said to be; only paths relative to it are reported. */
const APP = '/app';

function makeContext(root: string, config: Any, target: Target) {
  const appInfo = { productName: config.productName, sanitizedProductName: config.productName, version: '0.0.0', type: 'module' };
  const macroExpander = (p: string) => expandMacro(p, target.arch, appInfo, { os: target.os, '/*': '{,/**/*}' });
  const info = {
    config,
    appInfo,
    projectDir: root,
    isPrepackedAppAsar: false,
    buildResourcesDir: join(root, config.directories?.buildResources ?? 'build'),
    debugLogger: { isEnabled: false },
    getWorkspaceRoot: async () => root,
  };
  const platformOptions = config[target.os] ?? {};
  const outDir = join(root, config.directories?.output ?? 'dist');
  return { macroExpander, info, platformOptions, outDir };
}

/** The app's own files (everything but node_modules), walked as electron-builder's AppFileWalker does. */
function appFiles(root: string, filter: (file: string, stat: Stats) => boolean): Array<{ path: string; size: number }> {
  const out: Array<{ path: string; size: number }> = [];
  const walk = (dir: string) => {
    for (const name of readdirSync(dir).sort()) {
      const file = join(dir, name);
      const stat = lstatSync(file);
      if (!filter(file, stat)) continue;
      if (stat.isDirectory()) walk(file);
      else out.push({ path: posix(relative(root, file)), size: stat.size });
    }
  };
  walk(root);
  return out;
}

const PLATFORM_SUFFIX = /-(darwin|linux|linuxmusl|win32|windows|freebsd)-[a-z0-9]+$/;
/** `node_modules/@img/sharp-libvips-darwin-arm64` → `node_modules/@img/sharp-libvips`; undefined when not platform-named. */
const platformFamily = (key: string) => (PLATFORM_SUFFIX.test(key) ? key.replace(PLATFORM_SUFFIX, '') : undefined);
const localSiblings = (root: string) => {
  const lock = JSON.parse(readFileSync(join(root, 'package-lock.json'), 'utf8')) as { packages: Record<string, Any> };
  return Object.keys(lock.packages).filter((k) => platformFamily(k) && existsSync(join(root, k)));
};

/** Production packages for the target, from package-lock.json (npm's resolution for every platform). */
function productionPackages(root: string, target: Target): Array<{ key: string; name: string; optional: boolean; platformBound: boolean }> {
  const lock = JSON.parse(readFileSync(join(root, 'package-lock.json'), 'utf8')) as { packages: Record<string, Any> };
  const out: Array<{ key: string; name: string; optional: boolean; platformBound: boolean }> = [];
  for (const [key, entry] of Object.entries(lock.packages)) {
    if (!key.startsWith('node_modules/') || entry.dev || entry.link || entry.extraneous) continue;
    if (!installsOn(entry, target)) continue;
    const name = key.slice(key.lastIndexOf('node_modules/') + 'node_modules/'.length);
    out.push({ key, name, optional: Boolean(entry.optional), platformBound: Boolean(entry.os || entry.cpu || entry.libc) });
  }
  return out;
}

/** Checks one target; the caller decides what to do with the problems. */
export async function checkTarget(root: string, config: Any, target: Target, options: CheckOptions = {}): Promise<TargetReport> {
  const { macroExpander, info, platformOptions, outDir } = makeContext(root, config, target);
  const problems: string[] = [];
  const packaged: Array<{ path: string; size: number; abs: string }> = [];
  // Modules electron-builder's smartUnpack moves out of the asar whole (they hold a .node, .so, .dll…).
  const autoUnpacked = new Set<string>();
  const estimated: string[] = [];

  const [main, ...fileSets] = fileMatcher.getMainFileMatchers(root, APP, macroExpander, platformOptions, { info }, outDir, false);
  for (const f of appFiles(root, main.createFilter())) packaged.push({ ...f, abs: join(root, f.path) });
  // `files` entries of the form { from, to, filter }: copied from elsewhere to `to` in the package.
  for (const set of fileSets) {
    if (set.isEmpty() || set.containsOnlyIgnore()) set.prependPattern('**/*');
    const to = posix(relative(APP, set.to));
    for (const f of appFiles(set.from, set.createFilter())) packaged.push({ path: `${to}/${f.path}`, size: f.size, abs: join(set.from, f.path) });
  }

  // Node modules: electron-builder applies only the `!` patterns of `files` to them, after its
  // own default excludes (READMEs, tests, .d.ts, build leftovers, and .dll/.exe off Windows).
  const moduleMatcher = fileMatcher.getNodeModuleFileMatcher(root, APP, macroExpander, platformOptions, info);
  const moduleFilter = moduleMatcher.isEmpty() ? null : moduleMatcher.createFilter();
  const excludedExts = ['.o', '.obj', ...fileMatcher.excludedExts.split(',').map((e: string) => `.${e}`), '.pdb'];
  if (target.os !== 'win') excludedExts.push('.dll', '.exe');
  const measure = async (key: string, name: string) => {
    const dir = join(root, key);
    const matcher = new fileMatcher.FileMatcher(dir, join(APP, key), macroExpander, moduleMatcher.patterns);
    const copier = new NodeModuleCopyHelper(matcher, info);
    const files: string[] = await copier.collectNodeModules({ dir, name }, excludedExts, key);
    if (config.asar !== false && config.smartUnpack !== false) detectUnpackedDirs({ files, metadata: copier.metadata }, autoUnpacked);
    return files.flatMap((abs) => {
      const stat = copier.metadata.get(abs) as Stats | undefined;
      return stat && !stat.isDirectory() ? [{ path: `${key}/${posix(relative(dir, abs))}`, size: stat.size, abs }] : [];
    });
  };
  const production = productionPackages(root, target);
  for (const pkg of production) {
    const dir = join(root, pkg.key);
    if (existsSync(dir)) {
      packaged.push(...(await measure(pkg.key, pkg.name)));
      continue;
    }
    // Not installed here: the rules may drop it; an optional package with no platform fields npm
    // leaves out everywhere it is left out here; a platform package (installed only on the target's
    // own build machine) is counted at the size of its installed sibling for this machine.
    const dirStat = { isDirectory: () => true, moduleFullFilePath: pkg.key } as unknown as Stats;
    if (moduleFilter && !moduleFilter(dir, dirStat)) continue;
    if (pkg.optional && !pkg.platformBound) continue;
    const family = platformFamily(pkg.key);
    const sibling = family ? localSiblings(root).find((k) => platformFamily(k) === family) : undefined;
    if (!sibling) {
      problems.push(`${pkg.key} ships on ${target.os}-${target.arch} but is not installed here, so its size cannot be counted`);
      continue;
    }
    const files = await measure(sibling, pkg.name);
    const size = files.reduce((a, f) => a + f.size, 0);
    estimated.push(`${pkg.key} (${mb(size)}, measured as ${sibling})`);
    packaged.push({ path: `${pkg.key}/(estimated)`, size, abs: '' });
  }

  // asarUnpack: native code must be a real file on disk to be loaded.
  const unpackMatchers = fileMatcher.getFileMatchers(config, 'asarUnpack', APP, {
    macroExpander,
    customBuildOptions: platformOptions,
    globalOutDir: outDir,
    defaultSrc: root,
  });
  const unpackFilter = unpackMatchers?.[0]?.createFilter();
  const isUnpacked = (p: string) =>
    Boolean(unpackFilter?.(join(root, p), { isDirectory: () => false } as Stats)) || [...autoUnpacked].some((d) => p.startsWith(`${d}/`));

  const natives: NativeFile[] = [];
  let bytes = 0;
  let unpackedBytes = 0;
  for (const f of packaged) {
    bytes += f.size;
    if (isUnpacked(f.path)) unpackedBytes += f.size;
    const kind = f.abs && f.size >= 64 && !lstatSync(f.abs).isSymbolicLink() ? nativeKind(f.abs, f.size) : undefined;
    if (!kind) continue;
    const rebuilt = REBUILT.some((d) => f.path.startsWith(d));
    natives.push({ path: f.path, os: kind.os, arch: kind.arch, rebuilt });
    // A rebuilt binary here is this machine's build; the packaging machine makes the target's own.
    if (!rebuilt && (kind.os !== OS_OF[target.os] || !kind.arch.includes(target.arch))) {
      problems.push(`${f.path} is a ${kind.os}-${kind.arch.join('+')} binary in the ${target.os}-${target.arch} installer`);
    }
    if (!isUnpacked(f.path)) problems.push(`${f.path} is native code left inside app.asar, where it cannot be loaded`);
  }

  const paths = new Set(packaged.map((f) => f.path));
  for (const [prefix, why] of UNWANTED) {
    const hit = packaged.find((f) => f.path.startsWith(prefix) && !f.abs.startsWith(join(root, 'scripts', 'sharp-stub')));
    if (hit) problems.push(`${hit.path} ships, but ${why}`);
  }
  for (const file of REQUIRED_FILES) {
    const built = file.startsWith('out/');
    if (paths.has(file)) continue;
    // Before a build, the rule must still take the file once it exists.
    if (built && !options.requireBuilt && !existsSync(join(root, file)) && main.createFilter()(join(root, file), { isDirectory: () => false } as Stats))
      continue;
    problems.push(`${file} is missing from the installer`);
  }
  for (const dir of REQUIRED_DIRS) {
    if (![...paths].some((p) => p.startsWith(`${dir}/`))) problems.push(`${dir}/ is missing from the installer`);
  }
  for (const need of REQUIRED_NATIVE) {
    if (!natives.some((n) => need.test(n.path, target))) problems.push(`no ${need.name} for ${target.os}-${target.arch}`);
  }
  const limit = options.limitBytes ?? LIMIT_BYTES;
  if (bytes > limit) problems.push(`${mb(bytes)} unpacked is over the ${mb(limit)} limit`);
  return {
    target,
    files: packaged.length,
    contents: packaged.map((f) => ({ path: f.path, source: f.abs })),
    bytes,
    unpackedBytes,
    natives,
    estimated,
    problems,
  };
}

export const mb = (n: number) => `${(n / 1024 / 1024).toFixed(1)} MB`;

export async function checkAll(root: string, options: CheckOptions = {}): Promise<TargetReport[]> {
  const config = parse(readFileSync(join(root, 'electron-builder.yml'), 'utf8'));
  const reports: TargetReport[] = [];
  for (const target of targetsOf(config)) reports.push(await checkTarget(root, config, target, options));
  return reports;
}

export function formatReport(r: TargetReport): string {
  const lines = [
    `${r.target.os}-${r.target.arch}: ${mb(r.bytes)} unpacked in ${r.files} files (${mb(r.unpackedBytes)} outside the asar) — ${r.problems.length ? 'FAIL' : 'ok'}`,
  ];
  for (const e of r.estimated) lines.push(`  estimated: ${e}`);
  const target = `${OS_OF[r.target.os]}-${r.target.arch}`;
  for (const n of r.natives) {
    const built = `${n.os}-${n.arch.join('+')}`;
    lines.push(`  native ${n.rebuilt ? `${target} (compiled when packaging; this checkout's build is ${built})` : built}: ${n.path}`);
  }
  for (const p of r.problems) lines.push(`  problem: ${p}`);
  return lines.join('\n');
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const root = join(fileURLToPath(new URL('.', import.meta.url)), '..');
  const reports = await checkAll(root, { requireBuilt: !process.argv.includes('--unbuilt') });
  for (const r of reports) console.log(formatReport(r));
  const failed = reports.filter((r) => r.problems.length);
  console.log(failed.length ? `package:check: ${failed.length} target(s) fail` : `package:check: all ${reports.length} targets pass`);
  process.exit(failed.length ? 1 : 0);
}
