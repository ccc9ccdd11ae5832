/**
 * The application menu as plain data (no electron import) so a test can read it. A packaged build
 * has no DevTools entry and no force-reload: a PM never needs them, and an open inspector is a
 * way into the renderer for anyone at the keyboard.
 */
export interface MenuItem {
  role?: string;
  label?: string;
  type?: 'separator';
  submenu?: MenuItem[];
}

export function menuTemplate(platform: NodeJS.Platform, options: { devTools: boolean }): MenuItem[] {
  const view: MenuItem[] = [
    { role: 'reload' },
    ...(options.devTools ? [{ role: 'forceReload' }, { role: 'toggleDevTools' }] : []),
    { type: 'separator' },
    { role: 'resetZoom' },
    { role: 'zoomIn' },
    { role: 'zoomOut' },
    { type: 'separator' },
    { role: 'togglefullscreen' },
  ];
  return [
    ...(platform === 'darwin' ? [{ role: 'appMenu' }] : []),
    { role: 'fileMenu' },
    { role: 'editMenu' },
    { label: 'View', submenu: view },
    { role: 'windowMenu' },
  ];
}
