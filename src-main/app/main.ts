import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { app, BrowserWindow, dialog } from 'electron';
import { resolveDataDir } from '../config/paths';
import { startAttachedServices, type AttachedServices } from '../host/attached-services';
import { createCore, type Core } from '../host/core';
import { createWorkspaceSwitch } from '../host/workspace-switch';
import { registerAppScheme, serveAppProtocol } from './app-protocol';
import { forwardEvents, registerIpc } from './ipc';
import { installMenu } from './menu';
import { showDesktopNotices } from './notifications';
import { APP_URL } from './protocol';
import { SafeStorageSecretStore } from './secrets';
import { startUpdates } from './updates';
import { createMainWindow, lockDownSession } from './window';

/**
 * The Electron shell: wiring only. It hands the core its data folder, its secret store and the
 * native SQLite binding built for Electron's ABI, then shows the renderer.
 */
const here = fileURLToPath(new URL('.', import.meta.url));
const preloadPath = join(here, '../preload/index.cjs');
const rendererDir = join(here, '../renderer');
// The dev server only in an unpackaged run; a packaged app always serves its own files over app://.
const devServerUrl = app.isPackaged ? undefined : process.env.ELECTRON_RENDERER_URL;
const rendererUrl = devServerUrl ?? APP_URL;
// `npm start` rebuilds better-sqlite3 for Electron into .electron-native/ so Node's build stays intact.
const electronBinding = join(here, '../../.electron-native/better_sqlite3.node');

let core: Core | undefined;
let attached: AttachedServices | undefined;

// Must happen before `ready`: the scheme's privileges are fixed at startup.
registerAppScheme();

if (!app.requestSingleInstanceLock()) {
  app.quit();
} else {
  app.on('second-instance', () => {
    const win = BrowserWindow.getAllWindows()[0];
    if (win) {
      if (win.isMinimized()) win.restore();
      win.focus();
    }
  });

  app.whenReady().then(
    () => {
      const dataDir = resolveDataDir(process.env.FORGE_HOME ? undefined : app.getPath('userData'));
      const nativeBinding = existsSync(electronBinding) ? electronBinding : undefined;
      const real = createCore({ dataDir, mode: 'electron', secrets: new SafeStorageSecretStore(dataDir), nativeBinding });
      // The PM's workspace behind a switch: the Demo button swaps in a sample workspace until "Back to my workspace".
      core = createWorkspaceSwitch({ real, nativeBinding });
      lockDownSession();
      serveAppProtocol(rendererDir);
      installMenu({ devTools: !app.isPackaged });
      registerIpc(core, () => rendererUrl);
      // Warnings (a morning review whose invalidation conditions fired) also reach the desktop.
      showDesktopNotices(core, () => BrowserWindow.getAllWindows()[0]);
      // IDEs attach over MCP to the running desktop app as well.
      // IDEs attach to the PM's own workspace, never to the demo.
      startAttachedServices(real).then(
        (a) => (attached = a),
        (e) => core?.context.events.emit('app/notice', { level: 'warning', message: `The MCP server could not start: ${(e as Error).message}` }),
      );
      // Signed, packaged builds only; the reason it is off is kept quiet (a dev run, an offline desk).
      void startUpdates((message) => core?.context.events.emit('app/notice', { level: 'info', message }));
      const open = () => forwardEvents(core!, createMainWindow(preloadPath, rendererUrl, { devTools: !app.isPackaged }).webContents);
      open();
      app.on('activate', () => BrowserWindow.getAllWindows().length === 0 && open());
    },
    (e) => {
      dialog.showErrorBox('Forge could not start', (e as Error).message);
      app.exit(1);
    },
  );

  app.on('window-all-closed', () => {
    if (process.platform !== 'darwin') app.quit();
  });
  app.on('will-quit', () => {
    void attached?.close();
    void core?.close();
  });
}
