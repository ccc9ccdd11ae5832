import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { menuTemplate } from './menu-template';
import { APP_CSP, APP_URL, appResponseHeaders, resolveAppAsset } from './protocol';
import { isAppUrl, isSafeExternalUrl, isTrustedSender, permissionAllowed, webPreferencesFor } from './web-preferences';

/**
 * Electron's security checklist (electronjs.org/docs/latest/tutorial/security), item by item,
 * asserted from the shell's pure configuration. Each test names the item; where an item cannot
 * apply, the test states why and checks the reason still holds.
 */
const root = join(__dirname, '..', '..');
const read = (rel: string) => readFileSync(join(root, rel), 'utf8');
const shellSources = ['main.ts', 'window.ts', 'ipc.ts', 'web-preferences.ts', 'app-protocol.ts', 'protocol.ts', 'menu.ts', 'updates.ts']
  .map((f) => read(join('src-main', 'app', f)))
  .join('\n');
const prefs = webPreferencesFor('/app/out/preload/index.cjs');
const rendererDir = join(root, 'src-renderer');

describe("Electron's security checklist", () => {
  it('1. only secure content: the renderer comes from app:// and its CSP allows no remote script, style or connection', () => {
    expect(APP_URL.startsWith('app://')).toBe(true);
    for (const directive of ['default-src', 'script-src', 'style-src', 'connect-src', 'img-src']) {
      const value = APP_CSP.split(';').find((d) => d.trim().startsWith(directive)) ?? '';
      expect(value, directive).not.toMatch(/https?:|\*/);
    }
  });

  it('2. no Node.js integration for any content (renderer, workers, sub-frames)', () => {
    expect(prefs.nodeIntegration).toBe(false);
    expect(prefs.nodeIntegrationInWorker).toBe(false);
    expect(prefs.nodeIntegrationInSubFrames).toBe(false);
  });

  it('3. context isolation on', () => expect(prefs.contextIsolation).toBe(true));

  it('4. process sandboxing on', () => expect(prefs.sandbox).toBe(true));

  it('5. session permission requests are handled: every permission is refused', () => {
    for (const p of ['media', 'geolocation', 'notifications', 'clipboard-read', 'hid', 'serial', 'openExternal', 'fullscreen']) {
      expect(permissionAllowed(p), p).toBe(false);
    }
    expect(read('src-main/app/window.ts')).toMatch(/setPermissionRequestHandler[\s\S]*setPermissionCheckHandler/);
  });

  it('6. webSecurity is not disabled', () => expect(prefs.webSecurity).toBe(true));

  it('7. a Content-Security-Policy is defined, as a header from the protocol handler and in the page', () => {
    expect(appResponseHeaders['content-security-policy']).toBe(APP_CSP);
    expect(APP_CSP).toContain("script-src 'self'");
    expect(APP_CSP).toContain("object-src 'none'");
    expect(APP_CSP).toContain("frame-ancestors 'none'");
    const asset = resolveAppAsset('GET', 'app://forge/index.html', rendererDir);
    expect(asset.headers['content-security-policy']).toBe(APP_CSP);
    expect(read('src-renderer/index.html')).toContain('http-equiv="Content-Security-Policy"');
  });

  it('8. allowRunningInsecureContent is not enabled', () => expect(prefs.allowRunningInsecureContent).toBe(false));

  it('9. experimental features are not enabled', () => expect(prefs.experimentalFeatures).toBe(false));

  it('10. enableBlinkFeatures is not used', () => {
    expect(prefs).not.toHaveProperty('enableBlinkFeatures');
    expect(shellSources).not.toContain('enableBlinkFeatures');
  });

  it('11. <webview> allowpopups: not applicable — the webview tag is disabled and attaching one is refused', () => {
    expect(prefs.webviewTag).toBe(false);
    expect(read('src-main/app/window.ts')).toMatch(/will-attach-webview[\s\S]*preventDefault/);
    expect(shellSources).not.toContain('allowpopups');
  });

  it('12. <webview> options and params verified: not applicable for the same reason (no webview can attach)', () => {
    expect(prefs.webviewTag).toBe(false);
  });

  it('13. navigation is limited to the app itself', () => {
    expect(isAppUrl('app://forge/index.html#/views', APP_URL)).toBe(true);
    expect(isAppUrl('app://evil/index.html', APP_URL)).toBe(false);
    expect(isAppUrl('https://example.com/', APP_URL)).toBe(false);
    expect(isAppUrl('file:///etc/passwd', APP_URL)).toBe(false);
    expect(read('src-main/app/window.ts')).toMatch(/will-navigate[\s\S]*isAppUrl/);
  });

  it('14. new windows are never created: the open handler denies every request', () => {
    expect(read('src-main/app/window.ts')).toMatch(/setWindowOpenHandler[\s\S]*action: 'deny'/);
  });

  it('15. shell.openExternal only gets http(s) and mailto links', () => {
    expect(isSafeExternalUrl('https://fred.stlouisfed.org/')).toBe(true);
    for (const bad of ['file:///c:/windows/system32/calc.exe', 'javascript:alert(1)', 'smb://host/share', 'ms-msdt:/id', 'vbscript:x']) {
      expect(isSafeExternalUrl(bad), bad).toBe(false);
    }
    const calls = shellSources.match(/openExternal\(/g) ?? [];
    const guarded = shellSources.match(/isSafeExternalUrl\(url\)\) void shell\.openExternal\(url\)/g) ?? [];
    expect(calls.length).toBe(guarded.length);
  });

  it('16. a current Electron: a supported major (one of the latest three when this was written)', () => {
    const version = JSON.parse(read('package.json')).devDependencies.electron as string;
    expect(Number(version.replace(/^\D*/, '').split('.')[0])).toBeGreaterThanOrEqual(43);
  });

  it('17. the sender of every IPC message is validated', () => {
    expect(isTrustedSender({ isMainFrame: true, url: 'app://forge/index.html#/chat' }, APP_URL)).toBe(true);
    expect(isTrustedSender({ isMainFrame: false, url: 'app://forge/index.html' }, APP_URL)).toBe(false);
    expect(isTrustedSender({ isMainFrame: true, url: 'https://evil.example/' }, APP_URL)).toBe(false);
    expect(isTrustedSender({ isMainFrame: true, url: undefined }, APP_URL)).toBe(false);
    expect(read('src-main/app/ipc.ts')).toMatch(/if \(!trusted\(event\)\) return fail\('forbidden'/);
  });

  it('18. file:// is avoided: a custom protocol serves the renderer and refuses anything outside it', () => {
    expect(read('src-main/app/main.ts')).not.toContain('pathToFileURL');
    expect(resolveAppAsset('GET', 'app://forge/index.html', rendererDir).status).toBe(200);
    expect(resolveAppAsset('GET', 'app://forge/../../package.json', rendererDir).status).toBe(404);
    expect(resolveAppAsset('GET', 'app://forge/%2e%2e%2f%2e%2e%2fpackage.json', rendererDir).status).toBe(404);
    expect(resolveAppAsset('GET', 'app://forge/..%2f..%2fpackage.json', rendererDir).status).toBe(404);
    expect(resolveAppAsset('GET', 'app://other/index.html', rendererDir).status).toBe(403);
    expect(resolveAppAsset('POST', 'app://forge/index.html', rendererDir).status).toBe(405);
  });

  it('19. fuses are set at packaging (run-as-node off, cookie encryption, no NODE_OPTIONS or inspect, asar integrity, asar only)', () => {
    const fuses = parse(read('electron-builder.yml')).electronFuses;
    expect(fuses).toMatchObject({
      runAsNode: false,
      enableCookieEncryption: true,
      enableNodeOptionsEnvironmentVariable: false,
      enableNodeCliInspectArguments: false,
      enableEmbeddedAsarIntegrityValidation: true,
      onlyLoadAppFromAsar: true,
    });
  });

  it('20. Electron APIs are not exposed to web content: the preload exposes one contract-shaped bridge', () => {
    const preload = read('src-preload/index.ts');
    expect(preload.match(/exposeInMainWorld\(/g)).toHaveLength(1);
    expect(preload).toContain("exposeInMainWorld('forge', bridge)");
    // The raw ipcRenderer (or any electron module) must never be handed to the page.
    expect(preload).not.toMatch(/exposeInMainWorld\([^)]*ipcRenderer/);
    expect(preload).toMatch(/isProcedureName\(name\)/);
  });

  it('and DevTools are off in a packaged build: no inspector in webPreferences or the menu', () => {
    expect(prefs.devTools).toBe(false);
    const roles = JSON.stringify(menuTemplate('linux', { devTools: false }));
    expect(roles).not.toContain('toggleDevTools');
    expect(JSON.stringify(menuTemplate('linux', { devTools: true }))).toContain('toggleDevTools');
  });
});
