// The desktop shell's Electron side, for main.ts: the login item and window zoom behind the desktop
// preferences, the menu's Help, About and zoom actions, the context menu and zoom gestures of each page,
// downloads through a save dialog, and the tributary:// and zulip:// protocols.
import { join, resolve } from 'node:path';
import { release } from 'node:os';
import {
  app,
  BrowserWindow,
  clipboard,
  dialog,
  Menu,
  type Session,
  type WebContents,
} from 'electron';
import { DEEP_LINK_SCHEMES } from '../../shared/narrow/deep-link';
import type { MainServices } from '../services';
import type { DesktopIntegration } from './desktop-shell';
import type { MenuActions } from './menu';
import { aboutDialogOptions, type RuntimeVersions } from './about';
import { installContextMenu } from './context-menu';
import { installDownloadDialog } from './downloads';
import { setStartAtLogin } from './login-item';

export const API_DOCS_URL = 'https://zulip.com/api/';

/** How this copy of Tributary is started again: the AppImage file, or electron plus the app folder. */
function launchCommand(): string[] {
  if (process.env.APPIMAGE) return [process.env.APPIMAGE];
  return app.isPackaged ? [process.execPath] : [process.execPath, resolve(app.getAppPath())];
}

export function electronDesktopIntegration(): DesktopIntegration {
  return {
    setStartAtLogin: (enabled) =>
      setStartAtLogin(enabled, {
        platform: process.platform,
        command: launchCommand(),
        configDir: process.env.XDG_CONFIG_HOME || join(app.getPath('home'), '.config'),
        setLoginItemSettings: (settings) => app.setLoginItemSettings(settings),
      }),
    setZoomFactor: (factor) => {
      for (const window of BrowserWindow.getAllWindows()) window.webContents.setZoomFactor(factor);
    },
  };
}

function runtimeVersions(): RuntimeVersions {
  return {
    app: app.getVersion(),
    electron: process.versions.electron,
    chrome: process.versions.chrome,
    node: process.versions.node,
    v8: process.versions.v8,
    platform: process.platform,
    arch: process.arch,
    osRelease: release(),
  };
}

async function showAbout(window: BrowserWindow | null, forReport: boolean): Promise<void> {
  const options = aboutDialogOptions(runtimeVersions(), forReport);
  const { response } = window
    ? await dialog.showMessageBox(window, options)
    : await dialog.showMessageBox(options);
  if (response === 0) clipboard.writeText(options.detail ?? '');
}

export function shellMenuActions(
  services: MainServices,
  getWindow: () => BrowserWindow | null,
  openExternal: (url: string) => void,
): MenuActions {
  return {
    zoom: (steps) => services.shell.zoomBy(steps),
    showShortcuts: () => services.shell.sendCommand('showShortcuts'),
    openSettings: () => services.shell.sendCommand('openDesktopSettings'),
    openApiDocs: () => openExternal(API_DOCS_URL),
    reportIssue: () => void showAbout(getWindow(), true),
    showAbout: () => void showAbout(getWindow(), false),
  };
}

/** Per page: the context menu, Ctrl+wheel and pinch zoom (remembered), the stored zoom on load. */
export function installPageShell(contents: WebContents, services: () => MainServices | null): void {
  installContextMenu(
    contents,
    (template) => Menu.buildFromTemplate(template).popup(),
    (text) => clipboard.writeText(text),
  );
  contents.on('zoom-changed', (_event, direction) =>
    services()?.shell.zoomBy(direction === 'in' ? 1 : -1),
  );
  contents.on('did-finish-load', () => {
    const factor = services()?.shell.state().preferences.zoomFactor;
    if (factor) contents.setZoomFactor(factor);
  });
}

export function installSessionShell(session: Session): void {
  installDownloadDialog(session, () => app.getPath('downloads'));
}

/**
 * Makes Tributary the handler of tributary:// and zulip:// links. Installers register them too
 * (electron-builder.config.cjs); a development run registers nothing, so it never takes the links
 * over from an installed copy.
 */
export function registerProtocolClients(): void {
  if (!app.isPackaged) return;
  for (const scheme of DEEP_LINK_SCHEMES) app.setAsDefaultProtocolClient(scheme);
}
