import { describe, expect, it } from 'vitest';
import { isAppUrl, isSafeExternalUrl, webPreferencesFor } from './web-preferences';

describe('Electron window security', () => {
  it('isolates the renderer: sandbox, context isolation, no Node, web security on', () => {
    const prefs = webPreferencesFor('/app/out/preload/index.cjs');
    expect(prefs).toEqual({
      preload: '/app/out/preload/index.cjs',
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      nodeIntegrationInWorker: false,
      nodeIntegrationInSubFrames: false,
      webSecurity: true,
      allowRunningInsecureContent: false,
      experimentalFeatures: false,
      webviewTag: false,
      navigateOnDragDrop: false,
      spellcheck: true,
      disableBlinkFeatures: 'Auxclick',
      devTools: false,
    });
  });

  it('keeps DevTools off unless the shell asks for them (an unpackaged dev run)', () => {
    expect(webPreferencesFor('/p').devTools).toBe(false);
    expect(webPreferencesFor('/p', { devTools: true }).devTools).toBe(true);
  });

  it('sends only web and mail links to the system, never file: or javascript:', () => {
    expect(isSafeExternalUrl('https://example.com/report')).toBe(true);
    expect(isSafeExternalUrl('mailto:pm@example.com')).toBe(true);
    expect(isSafeExternalUrl('file:///etc/passwd')).toBe(false);
    expect(isSafeExternalUrl('javascript:alert(1)')).toBe(false);
    expect(isSafeExternalUrl('not a url')).toBe(false);
  });

  it('treats only our own renderer as the app (for IPC sender and navigation checks)', () => {
    expect(isAppUrl('file:///opt/forge/out/renderer/index.html#/views', 'file:///opt/forge/out/renderer/index.html')).toBe(true);
    expect(isAppUrl('file:///tmp/evil.html', 'file:///opt/forge/out/renderer/index.html')).toBe(false);
    expect(isAppUrl('http://localhost:5173/#/chat', 'http://localhost:5173/')).toBe(true);
    expect(isAppUrl('https://evil.example/', 'http://localhost:5173/')).toBe(false);
  });
});
