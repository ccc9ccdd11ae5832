import { type BrowserWindow, Notification } from 'electron';
import type { Core } from '../host/core';
import { desktopNoticeOf } from './desktop-notice';

/**
 * Shows warning and error notices as desktop notifications, where the system supports them;
 * clicking one brings the Forge window forward. Returns the unsubscribe.
 */
export function showDesktopNotices(core: Core, window: () => BrowserWindow | undefined): () => void {
  if (!Notification.isSupported()) return () => {};
  return core.context.events.subscribe((message) => {
    const notice = desktopNoticeOf(message);
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
