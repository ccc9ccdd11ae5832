import type { WebPreferences } from 'electron';

/**
 * The renderer's security settings, as a pure function so a unit test can assert every option.
 * The renderer is a web page: it gets no Node, no direct IPC, and only the contract-shaped
 * `window.forge` bridge from the preload.
 */
export function webPreferencesFor(preloadPath: string): WebPreferences {
  return {
    preload: preloadPath,
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
    devTools: true,
  };
}

/** Only these schemes may leave the app for the system browser or mail client. */
export function isSafeExternalUrl(url: string): boolean {
  try {
    const u = new URL(url);
    return u.protocol === 'https:' || u.protocol === 'http:' || u.protocol === 'mailto:';
  } catch {
    return false;
  }
}

/** Is this frame URL our own renderer (the built file or the dev server)? */
export function isAppUrl(frameUrl: string, appUrl: string): boolean {
  try {
    const f = new URL(frameUrl);
    const a = new URL(appUrl);
    if (a.protocol === 'file:') return f.protocol === 'file:' && f.pathname === a.pathname;
    return f.origin === a.origin;
  } catch {
    return false;
  }
}
