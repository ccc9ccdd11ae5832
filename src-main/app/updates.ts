import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { app } from 'electron';
import { updatePolicy, type UpdatePolicy } from './update-policy';

/**
 * electron-updater, started only when the policy allows (signed, packaged, a feed, not switched off).
 * Updates download in the background and install when the PM quits; the updater checks the
 * signature and the feed's SHA-512 itself and refuses a mismatch.
 */
export async function startUpdates(onNotice: (message: string) => void): Promise<UpdatePolicy> {
  let meta: { forgeSigned?: boolean; forgeUpdateUrl?: string } = {};
  try {
    meta = JSON.parse(readFileSync(join(app.getAppPath(), 'package.json'), 'utf8'));
  } catch {
    // no metadata: treated as unsigned, so the updater stays off
  }
  const policy = updatePolicy({
    isPackaged: app.isPackaged,
    signed: meta.forgeSigned === true,
    feedUrl: meta.forgeUpdateUrl ?? '',
    envSwitch: process.env.FORGE_UPDATES,
  });
  if (!policy.enabled) return policy;
  // A CommonJS package whose `autoUpdater` is a lazy getter: ESM sees it only on the default export.
  const updater = (await import('electron-updater')) as unknown as { default: typeof import('electron-updater') };
  const { autoUpdater } = updater.default;
  autoUpdater.autoDownload = true;
  autoUpdater.autoInstallOnAppQuit = true;
  autoUpdater.on('update-downloaded', (info) => onNotice(`Forge ${info.version} is ready: it installs when you quit.`));
  autoUpdater.on('error', (e) => onNotice(`The update check failed: ${e.message}`));
  await autoUpdater.checkForUpdates().catch(() => undefined);
  return policy;
}
