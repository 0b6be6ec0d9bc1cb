// The application menu: the usual roles, so copy/paste, zoom, full screen and window handling work
// the way each platform expects.
import type { MenuItemConstructorOptions } from 'electron';

export interface MenuActions {
  /** File > Open Meeting Manifest… */
  openManifest?: () => void;
}

export function applicationMenuTemplate(
  platform: string,
  appName = 'Tributary',
  actions: MenuActions = {},
): MenuItemConstructorOptions[] {
  const isMac = platform === 'darwin';
  const fileMenu: MenuItemConstructorOptions = actions.openManifest
    ? {
        label: 'File',
        submenu: [
          {
            label: 'Open Meeting Manifest…',
            accelerator: 'CmdOrCtrl+O',
            click: () => actions.openManifest?.(),
          },
          { type: 'separator' },
          isMac ? { role: 'close' } : { role: 'quit' },
        ],
      }
    : { role: 'fileMenu' };
  return [
    ...(isMac
      ? [
          {
            label: appName,
            submenu: [
              { role: 'about' },
              { type: 'separator' },
              { role: 'services' },
              { type: 'separator' },
              { role: 'hide' },
              { role: 'hideOthers' },
              { role: 'unhide' },
              { type: 'separator' },
              { role: 'quit' },
            ],
          } satisfies MenuItemConstructorOptions,
        ]
      : []),
    fileMenu,
    { role: 'editMenu' },
    {
      label: 'View',
      submenu: [
        { role: 'reload' },
        { role: 'toggleDevTools' },
        { type: 'separator' },
        { role: 'resetZoom' },
        { role: 'zoomIn' },
        { role: 'zoomOut' },
        { type: 'separator' },
        { role: 'togglefullscreen' },
      ],
    },
    { role: 'windowMenu' },
    { role: 'help', submenu: [] },
  ];
}
