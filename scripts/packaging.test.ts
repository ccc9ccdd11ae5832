import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';

const root = join(__dirname, '..');
const config = parse(readFileSync(join(root, 'electron-builder.yml'), 'utf8'));
const plan = readFileSync(join(root, 'contracts', 'Desktop_Distribution_Plan.md'), 'utf8');
const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));

/** The plan's §2 table: platform → targets and arches, as a PM-readable source of truth. */
function planTargets(): Record<string, { targets: string[]; arch: string[] }> {
  const section = plan.slice(plan.indexOf('## 2.'), plan.indexOf('## 3.'));
  const rows = section.split('\n').filter((l) => /^\| (macOS|Windows|Linux) \|/.test(l));
  const out: Record<string, { targets: string[]; arch: string[] }> = {};
  for (const row of rows) {
    const [, platform, targets, arch] = row.split('|').map((c) => c.trim());
    out[platform] = {
      targets: [...targets.matchAll(/`([^`]+)`/g)].map((m) => m[1]).sort(),
      arch: [...arch.matchAll(/\b(arm64|x64)\b/g)].map((m) => m[1]).sort(),
    };
  }
  return out;
}

function builtTargets(section: { target: { target: string; arch: string[] }[] }) {
  return {
    targets: section.target.map((t) => t.target).sort(),
    arch: [...new Set(section.target.flatMap((t) => t.arch))].sort(),
  };
}

describe('the packaging configuration matches the distribution plan', () => {
  it('builds exactly the targets and architectures the plan promises, per platform', () => {
    const planned = planTargets();
    // If this fails, an installer the plan (and the release notes) promise would not be produced.
    expect(Object.keys(planned).sort()).toEqual(['Linux', 'Windows', 'macOS']);
    expect(builtTargets(config.mac)).toEqual(planned.macOS);
    expect(builtTargets(config.win)).toEqual(planned.Windows);
    expect(builtTargets(config.linux)).toEqual(planned.Linux);
  });

  it('names the app as package.json and the plan do, with icons that exist', () => {
    expect(config.appId).toBe('app.forge.workbench');
    expect(plan).toContain(`appId: ${config.appId}`);
    expect(config.productName).toBe(pkg.productName);
    expect(existsSync(join(root, config.mac.icon))).toBe(true);
    expect(existsSync(join(root, config.win.icon))).toBe(true);
    expect(existsSync(join(root, config.linux.icon, '256x256.png'))).toBe(true);
  });

  it('unpacks the native modules from the asar so they can load, and rebuilds them for Electron', () => {
    // Without these the packaged app opens no database (better-sqlite3) and cannot run the local model (onnxruntime).
    expect(config.asarUnpack).toEqual(expect.arrayContaining(['node_modules/better-sqlite3/**/*.node', 'node_modules/onnxruntime-node/bin/**']));
    expect(config.npmRebuild).toBe(true);
    expect(pkg.dependencies['better-sqlite3']).toBeDefined();
  });

  it("ships no sqlite-vec: it is the benchmarks' baseline only, so a dev dependency", () => {
    // If this fails, every installer carries a loadable extension nothing at run time uses.
    expect(pkg.dependencies['sqlite-vec']).toBeUndefined();
    expect(pkg.devDependencies['sqlite-vec']).toBeDefined();
    expect(config.asarUnpack.join('\n')).not.toContain('sqlite-vec');
  });

  it('builds no Intel macOS installer, since onnxruntime-node has no darwin-x64 binary (the plan says why)', () => {
    expect(builtTargets(config.mac).arch).toEqual(['arm64']);
    expect(plan).toContain('No Intel macOS build');
  });

  it('checks the installers in npm test, after the build (so the entry points are real)', () => {
    expect(pkg.scripts['package:check']).toBe('tsx scripts/package-check.ts');
    expect(pkg.scripts.test).toMatch(/npm run build && npm run package:check/);
  });

  it('ships the built app, the bundled skills, contracts and the sample workspace — and no tests', () => {
    for (const entry of ['out/**', 'skills/**', 'contracts/**', 'resources/seed/**', 'resources/demo/**', 'resources/examples/**', 'package.json']) {
      expect(config.files).toContain(entry);
    }
    expect(config.files).toContain('!**/*.test.*');
    for (const dir of ['skills', 'contracts', 'resources/seed', 'resources/demo', 'resources/examples/specs']) expect(existsSync(join(root, dir))).toBe(true);
  });

  it('sets the Electron fuses the security checklist asks for', () => {
    expect(config.electronFuses).toEqual({
      runAsNode: false,
      enableCookieEncryption: true,
      enableNodeOptionsEnvironmentVariable: false,
      enableNodeCliInspectArguments: false,
      enableEmbeddedAsarIntegrityValidation: true,
      onlyLoadAppFromAsar: true,
      loadBrowserProcessSpecificV8Snapshot: false,
      grantFileProtocolExtraPrivileges: false,
    });
  });

  it('has `npm run package` and an update feed that is configuration, not code', () => {
    expect(pkg.scripts.package).toBe('node scripts/package.mjs');
    expect(pkg.dependencies['electron-updater']).toBeDefined();
    // electron-builder's own placeholder syntax, read from the YAML (not a JS template).
    expect(config.publish.url).toBe(['$', '{env.FORGE_UPDATE_URL}'].join(''));
  });
});
