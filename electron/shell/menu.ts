// The application menu: the usual roles, so copy/paste, full screen and window handling work the way
// each platform expects. Zoom goes through main when it is given (so the level is remembered in the
// desktop preferences), and Help offers the keyboard shortcuts, the API documentation, a report's
// details and About.
import type { MenuItemConstructorOptions } from 'electron';

export interface MenuActions {
  /** File > Open Meeting Manifest… */
  openManifest?: () => void;
  /** View > Zoom In (+1), Zoom Out (-1), Actual Size (0). */
  zoom?: (steps: number) => void;
  /** Help > Keyboard Shortcuts: the page's `?` overlay. */
  showShortcuts?: () => void;
  /** Help > Chat API Documentation. */
  openApiDocs?: () => void;
  /** Help > Report an Issue… */
  reportIssue?: () => void;
  /** About Tributary (Help menu; the app menu on macOS). */
  showAbout?: () => void;
  /** Settings… (Ctrl+,): the page's Settings > Desktop (File menu; the app menu on macOS). */
  openSettings?: () => void;
}

function zoomItems(zoom: MenuActions['zoom']): MenuItemConstructorOptions[] {
  if (!zoom) return [{ role: 'resetZoom' }, { role: 'zoomIn' }, { role: 'zoomOut' }];
  return [
    { label: 'Actual Size', accelerator: 'CmdOrCtrl+0', click: () => zoom(0) },
    { label: 'Zoom In', accelerator: 'CmdOrCtrl+=', click: () => zoom(1) },
    // Ctrl+Plus (Shift+= or the keypad) zooms in too, as in browsers, without a second menu line.
    {
      label: 'Zoom In',
      accelerator: 'CmdOrCtrl+Plus',
      visible: false,
      acceleratorWorksWhenHidden: true,
      click: () => zoom(1),
    },
    { label: 'Zoom Out', accelerator: 'CmdOrCtrl+-', click: () => zoom(-1) },
  ];
}

function helpMenu(isMac: boolean, actions: MenuActions): MenuItemConstructorOptions {
  const items: MenuItemConstructorOptions[] = [];
  if (actions.showShortcuts) {
    items.push({ label: 'Keyboard Shortcuts', click: () => actions.showShortcuts?.() });
  }
  if (actions.openApiDocs) {
    items.push({ label: 'Chat API Documentation', click: () => actions.openApiDocs?.() });
  }
  if (actions.reportIssue) {
    items.push({ type: 'separator' });
    items.push({ label: 'Report an Issue…', click: () => actions.reportIssue?.() });
  }
  if (actions.showAbout && !isMac) {
    items.push({ type: 'separator' });
    items.push({ label: 'About Tributary', click: () => actions.showAbout?.() });
  }
  return { role: 'help', submenu: items };
}

export function applicationMenuTemplate(
  platform: string,
  appName = 'Tributary',
  actions: MenuActions = {},
): MenuItemConstructorOptions[] {
  const isMac = platform === 'darwin';
  const settingsItem: MenuItemConstructorOptions[] = actions.openSettings
    ? [{ label: 'Settings…', accelerator: 'CmdOrCtrl+,', click: () => actions.openSettings?.() }]
    : [];
  const fileMenu: MenuItemConstructorOptions = actions.openManifest
    ? {
        label: 'File',
        submenu: [
          {
            label: 'Open Meeting Manifest…',
            accelerator: 'CmdOrCtrl+O',
            click: () => actions.openManifest?.(),
          },
          ...(isMac ? [] : settingsItem),
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
              actions.showAbout
                ? { label: `About ${appName}`, click: () => actions.showAbout?.() }
                : { role: 'about' },
              { type: 'separator' },
              ...settingsItem,
              ...(settingsItem.length ? [{ type: 'separator' } as const] : []),
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
        ...zoomItems(actions.zoom),
        { type: 'separator' },
        { role: 'togglefullscreen' },
      ],
    },
    { role: 'windowMenu' },
    helpMenu(isMac, actions),
  ];
}
