import { type BrowserWindow, Notification } from 'electron';
import type { Core } from '../host/core';
import { createFinishedWorkNotifier, desktopNoticeOf } from './desktop-notice';

/**
 * Shows warning and error notices, finished long work (builds, long analyst runs) and Expressions
 * awaiting approval as desktop notifications, where the system supports them; clicking one brings
 * the Forge window forward. Returns the unsubscribe.
 */
export function showDesktopNotices(core: Core, window: () => BrowserWindow | undefined): () => void {
  if (!Notification.isSupported()) return () => {};
  const finishedWork = createFinishedWorkNotifier();
  return core.context.events.subscribe((message) => {
    const warning = desktopNoticeOf(message);
    const done = finishedWork(message);
    // Finished work while the PM is looking at Forge is a toast in the window, not an interruption.
    const focused = window()?.isFocused() ?? false;
    const notice = warning ?? (focused ? null : done);
    if (!notice) return;
    const n = new Notification({ title: notice.title, body: notice.body });
    n.on('click', () => {
      const win = window();
      if (!win || win.isDestroyed()) return;
      if (win.isMinimized()) win.restore();
      win.focus();
    });
    n.show();
  });
}
