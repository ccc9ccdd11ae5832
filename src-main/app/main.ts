import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { app, BrowserWindow, dialog } from 'electron';
import { resolveDataDir } from '../config/paths';
import { startAttachedServices, type AttachedServices } from '../host/attached-services';
import { createCore, type Core } from '../host/core';
import { forwardEvents, registerIpc } from './ipc';
import { installMenu } from './menu';
import { showDesktopNotices } from './notifications';
import { SafeStorageSecretStore } from './secrets';
import { createMainWindow, lockDownSession } from './window';

/**
 * The Electron shell: wiring only. It hands the core its data folder, its secret store and the
 * native SQLite binding built for Electron's ABI, then shows the renderer.
 */
const here = fileURLToPath(new URL('.', import.meta.url));
const preloadPath = join(here, '../preload/index.cjs');
const rendererUrl = process.env.ELECTRON_RENDERER_URL ?? pathToFileURL(join(here, '../renderer/index.html')).href;
// `npm start` rebuilds better-sqlite3 for Electron into .electron-native/ so Node's build stays intact.
const electronBinding = join(here, '../../.electron-native/better_sqlite3.node');

let core: Core | undefined;
let attached: AttachedServices | undefined;

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
      core = createCore({
        dataDir,
        mode: 'electron',
        secrets: new SafeStorageSecretStore(dataDir),
        nativeBinding: existsSync(electronBinding) ? electronBinding : undefined,
      });
      lockDownSession();
      installMenu();
      registerIpc(core, () => rendererUrl);
      // Warnings (a morning review whose invalidation conditions fired) also reach the desktop.
      showDesktopNotices(core, () => BrowserWindow.getAllWindows()[0]);
      // IDEs attach over MCP to the running desktop app as well.
      startAttachedServices(core).then(
        (a) => (attached = a),
        (e) => core?.context.events.emit('app/notice', { level: 'warning', message: `The MCP server could not start: ${(e as Error).message}` }),
      );
      const open = () => forwardEvents(core!, createMainWindow(preloadPath, rendererUrl).webContents);
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
