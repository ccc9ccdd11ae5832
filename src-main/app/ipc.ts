import { ipcMain, type IpcMainInvokeEvent, type WebContents } from 'electron';
import { fail } from '../api/envelope';
import { procedureNames } from '../api/procedures';
import type { Core } from '../host/core';
import { isTrustedSender } from './web-preferences';

export const INVOKE_CHANNEL_PREFIX = 'forge:invoke:';
export const EVENT_CHANNEL = 'forge:event';

/**
 * One ipcMain.handle per procedure. Each call checks that it comes from our own renderer's
 * main frame (not an iframe, not a page that navigated elsewhere) before reaching the core.
 */
export function registerIpc(core: Core, appUrl: () => string): () => void {
  const trusted = (event: IpcMainInvokeEvent) => {
    const frame = event.senderFrame;
    return !!frame && isTrustedSender({ isMainFrame: frame === event.sender.mainFrame, url: frame.url }, appUrl());
  };
  for (const name of procedureNames) {
    ipcMain.handle(INVOKE_CHANNEL_PREFIX + name, async (event, input: unknown, call: unknown) => {
      if (!trusted(event)) return fail('forbidden', 'This window may not call Forge.');
      // On a desk, the signed-in person's session (the preload sends it beside the input); nothing else is taken from it.
      const session = (call as { session?: unknown } | undefined)?.session;
      return core.invokeUnknown(name, input, typeof session === 'string' ? { session } : undefined);
    });
  }
  return () => {
    for (const n of procedureNames) ipcMain.removeHandler(INVOKE_CHANNEL_PREFIX + n);
  };
}

/** Forward core events to a window for as long as it lives. */
export function forwardEvents(core: Core, contents: WebContents): void {
  const unsubscribe = core.context.events.subscribe((message) => {
    if (!contents.isDestroyed()) contents.send(EVENT_CHANNEL, message);
  });
  contents.once('destroyed', unsubscribe);
}
