import { contextBridge, ipcRenderer, type IpcRendererEvent } from 'electron';
import { isEventName, type EventMessage } from '../src-main/api/events';
import { isProcedureName } from '../src-main/api/procedures';
import type { ForgeBridge } from './forge';

// Kept in step with src-main/app/ipc.ts; the preload cannot import main-process code.
const INVOKE_CHANNEL_PREFIX = 'forge:invoke:';
const EVENT_CHANNEL = 'forge:event';

/**
 * The renderer's only door to the app: contract names in, envelopes out. Raw ipcRenderer is
 * never exposed, so a compromised page cannot reach channels the contract does not name.
 */
const bridge: ForgeBridge = {
  invoke(name, input, call) {
    if (!isProcedureName(name)) {
      return Promise.resolve({ ok: false, error: { code: 'not_found', message: `There is no procedure named "${String(name)}".` } });
    }
    // On a desk, the signed-in person's session travels beside the input (ipc.ts hands it to the core).
    const session = typeof call?.session === 'string' ? call.session : undefined;
    return session ? ipcRenderer.invoke(INVOKE_CHANNEL_PREFIX + name, input ?? {}, { session }) : ipcRenderer.invoke(INVOKE_CHANNEL_PREFIX + name, input ?? {});
  },
  on(event, callback) {
    if (!isEventName(event)) throw new Error(`There is no event named "${String(event)}".`);
    const listener = (_e: IpcRendererEvent, message: EventMessage) => {
      if (message && message.event === event) callback(message.payload as never);
    };
    ipcRenderer.on(EVENT_CHANNEL, listener);
    return () => {
      ipcRenderer.removeListener(EVENT_CHANNEL, listener);
    };
  },
};

contextBridge.exposeInMainWorld('forge', bridge);
