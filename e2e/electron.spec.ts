import { execFileSync } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { _electron as electron, expect, test } from '@playwright/test';

const here = dirname(fileURLToPath(import.meta.url));

/** Is a runnable Electron binary installed? (It cannot be downloaded on offline machines.) */
function electronBinary(): string | undefined {
  try {
    const path = execFileSync(process.execPath, ['-e', "process.stdout.write(require('electron'))"], {
      cwd: join(here, '..'),
      stdio: ['ignore', 'pipe', 'ignore'],
      timeout: 20_000,
    }).toString();
    execFileSync(path, ['--version'], { stdio: 'ignore', timeout: 20_000 });
    return path;
  } catch {
    return undefined;
  }
}

const binary = electronBinary();
const skipReason = 'Electron binary not installed on this machine (it cannot be downloaded offline); the same UI is tested headless.';
if (!binary) console.log(`electron e2e skipped: ${skipReason}`);

test('the desktop app opens a sandboxed window that shows Forge', async () => {
  test.skip(!binary, skipReason);
  const app = await electron.launch({
    executablePath: binary,
    args: [join(here, '..')],
    env: { ...process.env, FORGE_HOME: join(here, '..', 'test-results', 'electron-home') },
  });
  const window = await app.firstWindow();
  await expect(window.getByTestId('app-frame')).toBeVisible();
  await expect(window.getByTestId('status-mode')).toContainText(/electron/i);
  expect(await window.evaluate(() => typeof (globalThis as { require?: unknown }).require)).toBe('undefined');
  await window.screenshot({ path: join(here, '..', 'test-results', 'screens', 'electron.png') });
  await app.close();
});
