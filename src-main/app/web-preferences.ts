import type { WebPreferences } from 'electron';
import { isAppOrigin } from './protocol';

/**
 * The renderer's security settings, as a pure function so a unit test can assert every option.
 * The renderer is a web page: it gets no Node, no direct IPC, and only the contract-shaped
 * `window.forge` bridge from the preload.
 */
export function webPreferencesFor(preloadPath: string, options: { devTools?: boolean } = {}): WebPreferences {
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
    // A middle click would otherwise open a link in a new window without the open handler's scheme check.
    disableBlinkFeatures: 'Auxclick',
    // Off in a packaged build (a PM's machine); the shell turns them on only for an unpackaged dev run.
    devTools: options.devTools ?? false,
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

/** Is this frame URL our own renderer (app://, the built file or the dev server)? */
export function isAppUrl(frameUrl: string, appUrl: string): boolean {
  return isAppOrigin(frameUrl, appUrl);
}

/**
 * Every permission the web platform can ask for (camera, microphone, notifications, geolocation,
 * clipboard, HID…) is refused: Forge's renderer needs none, and desktop notices come from the
 * main process. Pure so the checklist test can ask it about each permission.
 */
export function permissionAllowed(_permission: string): boolean {
  return false;
}

/** An IPC call is trusted only from our own renderer's main frame (not an iframe, not a page that navigated away). */
export function isTrustedSender(sender: { isMainFrame: boolean; url: string | undefined }, appUrl: string): boolean {
  return sender.isMainFrame && !!sender.url && isAppUrl(sender.url, appUrl);
}
