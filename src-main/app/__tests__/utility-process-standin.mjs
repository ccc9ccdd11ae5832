// Stands in for an Electron utility process in tests (there is no Electron binary here), keeping the
// ways it differs from plain Node that the script host must handle:
//  - the module gets no stdin: what the parent posts arrives as one `process.parentPort` message
//    (here the parent's postMessage is carried on this process's real stdin, read before the module loads);
//  - with --windows-stdin, `process.stdin` is what Electron makes it on Windows (lib/common/init.ts):
//    an already-ended stream behind a non-configurable getter;
//  - the process does not end when its work is done (electron/electron#47228): a handle stays open.
import { EventEmitter } from 'node:events';
import { Readable } from 'node:stream';
import { pathToFileURL } from 'node:url';

const [hostModule, ...flags] = process.argv.slice(2);
let raw = '';
for await (const chunk of process.stdin) raw += chunk;
if (flags.includes('--windows-stdin')) {
  const stdin = new Readable();
  stdin.push(null);
  Object.defineProperty(process, 'stdin', { configurable: false, enumerable: true, get: () => stdin });
}
setInterval(() => {}, 60_000);
const parentPort = new EventEmitter();
process.parentPort = parentPort;
process.argv = [process.argv[0], hostModule];
await import(pathToFileURL(hostModule).href);
parentPort.emit('message', { data: JSON.parse(raw) });
