import { existsSync } from 'node:fs';

/**
 * Which Chromium the e2e tests drive: $CHROMIUM_PATH, then Debian's /usr/bin/chromium, then
 * Playwright's own download (`npx playwright install chromium`) when neither exists.
 */
export function chromiumPath(): string | undefined {
  const candidates = [process.env.CHROMIUM_PATH, '/usr/bin/chromium', '/usr/bin/chromium-browser'];
  return candidates.find((p): p is string => !!p && existsSync(p));
}

export const chromiumArgs = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
  '--disable-quic',
];
