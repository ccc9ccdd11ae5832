import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { app, BrowserWindow, dialog, utilityProcess } from 'electron';
import { installCrashPolicy } from '../common/crash-policy';
import { resolveDataDir } from '../config/paths';
import { runMcpCli } from '../host';
import { startAttachedServices, type AttachedServices } from '../host/attached-services';
import { createCore, type Core } from '../host/core';
import { openChosenWorkspace } from '../host/desk-database-start';
import { createWorkspaceSwitch } from '../host/workspace-switch';
import { registerAppScheme, serveAppProtocol } from './app-protocol';
import { forwardEvents, registerIpc } from './ipc';
import { appMcpLaunch, mcpModeArgs, mcpUnavailableOnWindows, withAppWorkspace } from './mcp-mode';
import { installMenu } from './menu';
import { showDesktopNotices } from './notifications';
import { APP_URL } from './protocol';
import { SafeStorageSecretStore } from './secrets';
import { startUpdates } from './updates';
import { createUtilityNodeLauncher } from './utility-launcher';
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
// `.mjs` skill scripts run in a utility process (built from skill-script-host.ts), never as ELECTRON_RUN_AS_NODE.
const nodeLauncher = createUtilityNodeLauncher({
  fork: (modulePath, args, options) => utilityProcess.fork(modulePath, args, options),
  hostModule: join(here, 'skill-script-host.js'),
});
const appDataDir = () => resolveDataDir(process.env.FORGE_HOME ? undefined : app.getPath('userData'));

let core: Core | undefined;
let attached: AttachedServices | undefined;
const mcpArgs = mcpModeArgs(process.argv);

if (mcpArgs) {
  // `Forge --mcp`: the governance server on stdio for an IDE, and nothing of the desktop — no window,
  // no dock icon, no single-instance lock (it runs beside the open app, as `forge mcp` does).
  // stdout carries only JSON-RPC: every log goes to stderr.
  console.log = console.error;
  console.info = console.error;
  app.disableHardwareAcceleration();
  app.dock?.hide();
  // On Windows Electron gives every process an already-ended stdin (lib/common/init.ts): say so rather than exit silently.
  const served =
    process.platform === 'win32' ? Promise.resolve(mcpUnavailableOnWindows()) : runMcpCli(withAppWorkspace(mcpArgs, appDataDir()), app.getVersion());
  served.then(
    (code) => app.exit(code),
    (e) => {
      process.stderr.write(`forge mcp: ${(e as Error).message}\n`);
      app.exit(1);
    },
  );
} else if (!app.requestSingleInstanceLock()) {
  app.quit();
} else {
  app.on('second-instance', () => {
    const win = BrowserWindow.getAllWindows()[0];
    if (win) {
      if (win.isMinimized()) win.restore();
      win.focus();
    }
  });

  // A stray throw or unhandled rejection in the main process is logged and survived, as in forge serve.
  installCrashPolicy({ name: 'forge app' });
  // Must happen before `ready`: the scheme's privileges are fixed at startup.
  registerAppScheme();
  app.whenReady().then(
    () => {
      const dataDir = appDataDir();
      const nativeBinding = existsSync(electronBinding) ? electronBinding : undefined;
      const mcpStdio = appMcpLaunch({ packaged: app.isPackaged, execPath: process.execPath, appImage: process.env.APPIMAGE, appRoot: app.getAppPath() });
      // The desk database saved in Settings (or $FORGE_DB) if any; one that cannot be opened leaves the PM in their own workspace, told why in Settings.
      const real = openChosenWorkspace(
        { dataDir, mode: 'electron', secrets: new SafeStorageSecretStore(dataDir), nativeBinding, nodeLauncher, mcpStdio },
        { create: createCore },
      ).core;
      // The PM's workspace behind a switch: the Demo button swaps in a sample workspace until "Back to my workspace".
      core = createWorkspaceSwitch({ real, nativeBinding, nodeLauncher });
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
