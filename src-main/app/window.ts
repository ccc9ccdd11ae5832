import { BrowserWindow, session, shell } from 'electron';
import { isAppUrl, isSafeExternalUrl, webPreferencesFor } from './web-preferences';

/** Deny every permission (camera, notifications, geolocation...) unless a feature asks for one. */
export function lockDownSession(): void {
  session.defaultSession.setPermissionRequestHandler((_wc, _permission, callback) => callback(false));
  session.defaultSession.setPermissionCheckHandler(() => false);
}

export function createMainWindow(preloadPath: string, appUrl: string): BrowserWindow {
  const win = new BrowserWindow({
    width: 1400,
    height: 900,
    minWidth: 900,
    minHeight: 600,
    show: false,
    title: 'Forge',
    webPreferences: webPreferencesFor(preloadPath),
  });
  win.once('ready-to-show', () => win.show());
  // The window shows only Forge: links open in the system browser after a scheme check.
  win.webContents.setWindowOpenHandler(({ url }) => {
    if (isSafeExternalUrl(url)) void shell.openExternal(url);
    return { action: 'deny' };
  });
  win.webContents.on('will-navigate', (event, url) => {
    if (!isAppUrl(url, appUrl)) {
      event.preventDefault();
      if (isSafeExternalUrl(url)) void shell.openExternal(url);
    }
  });
  win.webContents.on('will-attach-webview', (event) => event.preventDefault());
  void win.loadURL(appUrl);
  return win;
}
