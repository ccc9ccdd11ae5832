import { BrowserWindow, session, shell } from 'electron';
import { isAppUrl, isSafeExternalUrl, permissionAllowed, webPreferencesFor } from './web-preferences';

/** Deny every permission (camera, notifications, geolocation...) unless a feature asks for one. */
export function lockDownSession(): void {
  session.defaultSession.setPermissionRequestHandler((_wc, permission, callback) => callback(permissionAllowed(permission)));
  session.defaultSession.setPermissionCheckHandler((_wc, permission) => permissionAllowed(permission));
}

export function createMainWindow(preloadPath: string, appUrl: string, options: { devTools: boolean }): BrowserWindow {
  const win = new BrowserWindow({
    width: 1400,
    height: 900,
    minWidth: 900,
    minHeight: 600,
    show: false,
    title: 'Forge',
    webPreferences: webPreferencesFor(preloadPath, options),
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
