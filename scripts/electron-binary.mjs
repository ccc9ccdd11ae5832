// Where the Electron binary is, or undefined when it is not installed and cannot be downloaded
// (the `electron` package fetches it on first require). Shared by `npm start` and `npm run package`.
import { execFileSync } from 'node:child_process';

export function electronPath(root) {
  try {
    const path = execFileSync(process.execPath, ['-e', "process.stdout.write(require('electron'))"], {
      cwd: root,
      stdio: ['ignore', 'pipe', 'pipe'],
      timeout: 120_000,
    }).toString();
    execFileSync(path, ['--version'], { stdio: 'ignore', timeout: 30_000 });
    return path;
  } catch {
    return undefined;
  }
}
