// The Electron main process (bundled to dist/electron/main.cjs). It wires the shared main-process
// services (electron/services.ts) to Electron: the app:// and media protocols, IPC with sender checks,
// the window, session guards, the menu, sleep/wake, and a single instance.
import { join } from 'node:path';
import { mkdirSync } from 'node:fs';
import {
  app,
  BrowserWindow,
  dialog,
  ipcMain,
  Menu,
  powerMonitor,
  protocol,
  safeStorage,
  session,
  shell,
} from 'electron';
import { IPC_PUSH_CHANNEL, MEDIA_SCHEME } from '../shared/ipc/wire';
import { SafeStorageVault } from './accounts/vault';
import { signInToLocalRealm } from './bootstrap';
import { LocalRealm } from './local-realm';
import { createDispatcher } from './ipc/dispatch';
import { registerIpcHandlers } from './ipc/electron-transport';
import { PushHub } from './push-hub';
import { MainServices } from './services';
import { isAllowedExternalUrl } from './shell/external-urls';
import { APP_SCHEME, registerAppProtocol, registerMediaProtocol } from './shell/app-protocol';
import { applicationMenuTemplate } from './shell/menu';
import { hardenWebContents, installSessionGuards } from './shell/security';
import { createMainWindow } from './shell/window';
import { installTrayAndBadge } from './shell/tray-and-badge';
import { parseMainArgs } from './args';
import { serveMeetingAudioRequest } from './manifest-service';
import { electronManifestDialogs } from './manifest-service/electron-dialogs';
import {
  electronDesktopIntegration,
  installPageShell,
  installSessionShell,
  registerProtocolClients,
  shellMenuActions,
} from './shell/electron-shell';

const args = parseMainArgs(process.argv.slice(app.isPackaged ? 1 : 2));

// Every renderer sandboxed, whatever a window factory might forget.
app.enableSandbox();

protocol.registerSchemesAsPrivileged([
  {
    scheme: APP_SCHEME,
    privileges: { standard: true, secure: true, supportFetchAPI: true, codeCache: true },
  },
  { scheme: MEDIA_SCHEME, privileges: { standard: true, secure: true, stream: true } },
]);

if (!app.requestSingleInstanceLock()) {
  app.quit();
} else {
  let mainWindow: BrowserWindow | null = null;
  let services: MainServices | null = null;
  let localRealm: LocalRealm | null = null;
  const dataDir = args.dataDir ?? join(app.getPath('userData'), 'data');
  const distDir = join(__dirname, '..');

  const openExternal = (url: string) => {
    if (isAllowedExternalUrl(url)) void shell.openExternal(url);
  };

  // Deep links that arrive before the services exist (macOS sends open-url during launch).
  const earlyLinks = [...args.links];
  const openLink = (url: string) => {
    if (services) services.shell.requestOpenLink(url);
    else earlyLinks.push(url);
  };
  app.on('open-url', (event, url) => {
    event.preventDefault();
    openLink(url);
    mainWindow?.focus();
  });

  // macOS opens a manifest chosen in the Finder ("Open With", the dmg's file association) this way.
  const earlyManifests: string[] = [];
  app.on('open-file', (event, path) => {
    event.preventDefault();
    if (services) services.requestOpenManifest(path);
    else earlyManifests.push(path);
  });

  app.on('second-instance', (_event, argv) => {
    const again = parseMainArgs(argv.slice(1));
    for (const path of again.manifests) services?.requestOpenManifest(path);
    for (const url of again.links) openLink(url);
    if (mainWindow) {
      if (mainWindow.isMinimized()) mainWindow.restore();
      // Hidden to the tray (minimise to tray): bring it back.
      mainWindow.show();
      mainWindow.focus();
    }
  });

  app.on('web-contents-created', (_event, contents) => {
    hardenWebContents(contents, openExternal);
    installPageShell(contents, () => services);
  });

  app.on('window-all-closed', () => {
    if (process.platform !== 'darwin') app.quit();
  });

  let quitting = false;
  app.on('before-quit', (event) => {
    if (quitting || !services) return;
    quitting = true;
    event.preventDefault();
    void services
      .stop()
      .then(() => localRealm?.stop())
      .finally(() => app.quit());
  });

  void app.whenReady().then(async () => {
    mkdirSync(dataDir, { recursive: true, mode: 0o700 });
    const hub = new PushHub();
    hub.subscribe((channel, payload) => {
      for (const window of BrowserWindow.getAllWindows()) {
        window.webContents.send(IPC_PUSH_CHANNEL, channel, payload);
      }
    });
    const manifestDialogs = electronManifestDialogs(dialog, () => mainWindow);
    // The local realm server in its own process, supervised here (electron/local-realm.ts).
    localRealm = args.localRealm
      ? new LocalRealm({
          dataDir,
          root: join(__dirname, '..', '..'),
          seed: args.localRealm.seed,
          largeScale: args.localRealm.largeScale,
          nodePath: args.nodePath,
        })
      : null;
    void localRealm?.start();
    services = new MainServices({
      localRealm: localRealm ?? undefined,
      dataDir,
      vault: new SafeStorageVault(dataDir, safeStorage),
      push: hub.push,
      appInfo: { runtime: 'electron', version: app.getVersion(), platform: process.platform },
      openExternal,
      chooseFilePaths: async (multiple) => {
        const options = {
          properties: multiple
            ? (['openFile', 'multiSelections'] as const)
            : (['openFile'] as const),
        };
        const result = mainWindow
          ? await dialog.showOpenDialog(mainWindow, { properties: [...options.properties] })
          : await dialog.showOpenDialog({ properties: [...options.properties] });
        return result.canceled ? [] : result.filePaths;
      },
      manifestDialogs,
      // Presence reports idle after five minutes without input anywhere on the machine.
      systemIdleSeconds: () => powerMonitor.getSystemIdleTime(),
      // The same native save dialog ("Save attachment") as the manifest viewer's.
      chooseSavePath: (defaultName) => manifestDialogs.chooseSaveTarget(defaultName),
      desktop: electronDesktopIntegration(),
    });
    const running = services;
    const desktopShell = installTrayAndBadge({
      desktop: running.desktop,
      listAccounts: () => running.listAccounts(),
      switchAccount: (id) => running.switchAccount(id),
      minimizeToTray: () => running.shell.state().preferences.minimizeToTray,
    });
    hub.subscribe((channel) => desktopShell.onPush(channel));
    registerAppProtocol(protocol, join(distDir, 'renderer'));
    registerMediaProtocol(
      protocol,
      (accountId, path, range) => running.fetchMedia(accountId, path, undefined, range),
      (request) => serveMeetingAudioRequest(running.manifests.media, request),
    );
    installSessionGuards(session.defaultSession);
    installSessionShell(session.defaultSession);
    registerProtocolClients();
    registerIpcHandlers(ipcMain, createDispatcher(running.handlers), running.intake);
    Menu.setApplicationMenu(
      Menu.buildFromTemplate(
        applicationMenuTemplate(process.platform, undefined, {
          // The chosen path goes the way a command-line manifest does: main allows it, the renderer
          // shows the viewer and opens it.
          openManifest: () =>
            void manifestDialogs.chooseManifest().then((path) => {
              if (path) running.requestOpenManifest(path);
            }),
          ...shellMenuActions(running, () => mainWindow, openExternal),
        }),
      ),
    );
    powerMonitor.on('resume', () => running.wakeAll());
    powerMonitor.on('unlock-screen', () => running.wakeAll());

    if (localRealm) {
      const realm = localRealm;
      void realm.start().then((status) => {
        if (status.state === 'failed') {
          console.error(`Tributary: the local realm server could not start: ${status.reason}`);
        }
      });
      await realm.settle(
        running.accounts,
        (from, to) =>
          void running
            .repointSite(from, to)
            .catch((error: unknown) =>
              console.error('Tributary: repointing the local account failed', error),
            ),
      );
    }
    running.start();
    if (localRealm) {
      // A first launch signs in as the demo owner once the server runs; a returning one goes on.
      if (running.accounts.list().length === 0) await localRealm.start();
      await localRealm.signInWhenRunning(running);
    }
    if (args.localRealmUrl && args.localRealmCredentials) {
      await signInToLocalRealm(running, args.localRealmUrl, args.localRealmCredentials).catch(
        (error: unknown) => console.error('Tributary: signing in to the local realm failed', error),
      );
    }
    for (const path of args.manifests) running.requestOpenManifest(path);
    for (const path of earlyManifests.splice(0)) running.requestOpenManifest(path);
    for (const url of earlyLinks.splice(0)) running.shell.requestOpenLink(url);

    mainWindow = createMainWindow({ dataDir, preloadPath: join(__dirname, 'preload.cjs') });
    desktopShell.attachWindow(mainWindow);
    mainWindow.on('closed', () => {
      mainWindow = null;
    });
  });
}
