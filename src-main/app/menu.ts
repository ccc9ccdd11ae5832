import { Menu, type MenuItemConstructorOptions } from 'electron';
import { menuTemplate } from './menu-template';

export function installMenu(options: { devTools: boolean }): void {
  Menu.setApplicationMenu(Menu.buildFromTemplate(menuTemplate(process.platform, options) as MenuItemConstructorOptions[]));
}
