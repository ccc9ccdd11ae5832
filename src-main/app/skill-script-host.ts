/**
 * Entry of the utility process that runs one `.mjs` skill script (built to out/main/skill-script-host.js
 * and started by utility-launcher.ts). Its only input is the one message the shell posts.
 */
import { isHostedScriptRequest, runHostedScript } from './script-host';

interface ParentPort {
  once(event: 'message', listener: (e: { data: unknown }) => void): void;
}

const port = (process as { parentPort?: ParentPort }).parentPort;
if (!port) {
  process.stderr.write('skill-script-host: this module runs only as a Forge utility process.\n');
  process.exit(70);
} else {
  port.once('message', (e) => {
    if (!isHostedScriptRequest(e.data)) {
      process.stderr.write('skill-script-host: the request is not a script run.\n');
      process.exit(70);
    }
    void runHostedScript(e.data);
  });
}
