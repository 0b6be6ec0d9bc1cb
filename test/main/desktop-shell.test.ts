// The desktop shell with Electron mocked: the spell-check context menu, downloads through a save
// dialog, the Help/About/zoom menu, start at login, deep-link arguments, and the desktop preferences
// (stored, clamped, applied through the runtime, pushed) with deep links queued for the page.
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import type { MenuItemConstructorOptions } from 'electron';

const electron = vi.hoisted(() => {
  const contents = {
    setZoomFactor: vi.fn(),
  };
  return {
    contents,
    popups: [] as unknown[],
    clipboard: { writeText: vi.fn() },
    dialog: { showMessageBox: vi.fn(async (..._args: unknown[]) => ({ response: 0 })) },
    app: {
      isPackaged: true,
      getVersion: () => '9.8.7',
      getAppPath: () => '/opt/tributary/resources/app.asar',
      getPath: (name: string) => (name === 'downloads' ? '/home/me/Downloads' : '/home/me'),
      setLoginItemSettings: vi.fn(),
      setAsDefaultProtocolClient: vi.fn(),
    },
    BrowserWindow: { getAllWindows: () => [{ webContents: contents }] },
  };
});
vi.mock('electron', () => ({
  app: electron.app,
  BrowserWindow: electron.BrowserWindow,
  clipboard: electron.clipboard,
  dialog: electron.dialog,
  Menu: {
    buildFromTemplate: (template: unknown) => ({ popup: () => electron.popups.push(template) }),
  },
}));

import { contextMenuTemplate, installContextMenu } from '../../electron/shell/context-menu';
import { installDownloadDialog } from '../../electron/shell/downloads';
import { applicationMenuTemplate } from '../../electron/shell/menu';
import { aboutDetails } from '../../electron/shell/about';
import { autostartEntry, autostartPath, setStartAtLogin } from '../../electron/shell/login-item';
import { parseMainArgs } from '../../electron/args';
import { DesktopShell } from '../../electron/shell/desktop-shell';
import {
  API_DOCS_URL,
  electronDesktopIntegration,
  installPageShell,
  registerProtocolClients,
  shellMenuActions,
} from '../../electron/shell/electron-shell';
import type { MainServices } from '../../electron/services';

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'tributary-desktop-shell-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const params = (over: Record<string, unknown> = {}) => ({
  isEditable: false,
  selectionText: '',
  misspelledWord: '',
  dictionarySuggestions: [] as string[],
  linkURL: '',
  editFlags: { canCut: false, canCopy: false, canPaste: false },
  ...over,
});
const labels = (template: MenuItemConstructorOptions[]) =>
  template.map((item) => item.label ?? item.role ?? item.type);
const find = (template: MenuItemConstructorOptions[], label: string) => {
  const item = template.find((i) => i.label === label);
  if (!item) throw new Error(`no item ${label} in ${JSON.stringify(labels(template))}`);
  return item;
};
const click = (item: MenuItemConstructorOptions) =>
  (item.click as unknown as () => void | undefined)?.();

describe('context menu', () => {
  it('offers spelling suggestions and Add to Dictionary on a misspelled word', () => {
    const contentsListeners: Record<string, (e: unknown, p: unknown) => void> = {};
    const contents = {
      on: (event: string, listener: (e: unknown, p: unknown) => void) =>
        (contentsListeners[event] = listener),
      replaceMisspelling: vi.fn(),
      session: { addWordToSpellCheckerDictionary: vi.fn() },
    };
    electron.popups.length = 0;
    installContextMenu(contents as never, (t) => electron.popups.push(t), vi.fn());
    contentsListeners['context-menu']!(
      {},
      params({
        isEditable: true,
        misspelledWord: 'recieve',
        dictionarySuggestions: ['receive', 'relieve'],
        editFlags: { canCut: false, canCopy: false, canPaste: true },
      }),
    );
    const template = electron.popups[0] as MenuItemConstructorOptions[];
    expect(labels(template)).toEqual([
      'receive',
      'relieve',
      'separator',
      'Add to Dictionary',
      'separator',
      'cut',
      'copy',
      'paste',
      'selectAll',
    ]);
    click(find(template, 'receive'));
    expect(contents.replaceMisspelling).toHaveBeenCalledWith('receive');
    click(find(template, 'Add to Dictionary'));
    expect(contents.session.addWordToSpellCheckerDictionary).toHaveBeenCalledWith('recieve');
    expect(template.find((i) => i.role === 'cut')?.enabled).toBe(false);
    expect(template.find((i) => i.role === 'paste')?.enabled).toBe(true);
  });

  it('says when there are no guesses, copies web links and mail addresses, and stays silent on nothing', () => {
    const noGuess = contextMenuTemplate(
      params({ isEditable: true, misspelledWord: 'zxqv' }),
      {} as never,
    );
    expect(noGuess[0]).toMatchObject({ label: 'No Guesses Found', enabled: false });

    const copied: string[] = [];
    const actions = {
      replaceMisspelling: vi.fn(),
      addToDictionary: vi.fn(),
      copyText: (t: string) => copied.push(t),
    };
    const link = contextMenuTemplate(
      params({ linkURL: 'https://example.com/a', selectionText: 'a' }),
      actions,
    );
    expect(labels(link)).toEqual(['Copy Link', 'separator', 'copy']);
    click(find(link, 'Copy Link'));
    const mail = contextMenuTemplate(params({ linkURL: 'mailto:someone@example.com' }), actions);
    click(find(mail, 'Copy Email Address'));
    expect(copied).toEqual(['https://example.com/a', 'someone@example.com']);
    // Links inside the app mean nothing outside it.
    expect(
      contextMenuTemplate(params({ linkURL: 'app://tributary/#narrow/channel/1' }), actions),
    ).toEqual([]);
    expect(contextMenuTemplate(params(), actions)).toEqual([]);
  });
});

describe('downloads', () => {
  it('asks where to save, in the Downloads folder, under the file’s own name only', () => {
    let handler: (e: unknown, item: unknown) => void = () => undefined;
    installDownloadDialog(
      { on: (_event: string, h: typeof handler) => (handler = h) } as never,
      () => join('/home', 'me', 'Downloads'),
    );
    const saved: Array<Record<string, unknown>> = [];
    const item = (name: string) => ({
      getFilename: () => name,
      setSaveDialogOptions: (o: Record<string, unknown>) => saved.push(o),
    });
    handler({}, item('report.pdf'));
    handler({}, item('..\\..\\evil.exe'));
    handler({}, item(''));
    expect(saved.map((o) => o.defaultPath)).toEqual([
      join('/home/me/Downloads', 'report.pdf'),
      join('/home/me/Downloads', 'evil.exe'),
      join('/home/me/Downloads', 'download'),
    ]);
    expect(saved[0]).toMatchObject({ title: 'Save Download' });
  });
});

describe('application menu', () => {
  it('has Help with shortcuts, API docs, report and About; zoom goes through main', () => {
    const calls: string[] = [];
    const template = applicationMenuTemplate('linux', undefined, {
      zoom: (steps) => calls.push(`zoom ${steps}`),
      showShortcuts: () => calls.push('shortcuts'),
      openApiDocs: () => calls.push('docs'),
      reportIssue: () => calls.push('report'),
      showAbout: () => calls.push('about'),
    });
    const help = template.find((m) => m.role === 'help')!.submenu as MenuItemConstructorOptions[];
    expect(labels(help)).toEqual([
      'Keyboard Shortcuts',
      'Chat API Documentation',
      'separator',
      'Report an Issue…',
      'separator',
      'About Tributary',
    ]);
    for (const item of help) click(item);
    const view = template.find((m) => m.label === 'View')!.submenu as MenuItemConstructorOptions[];
    const zoomIn = view.filter((i) => i.label === 'Zoom In');
    expect(zoomIn.map((i) => i.accelerator)).toEqual(['CmdOrCtrl+=', 'CmdOrCtrl+Plus']);
    click(zoomIn[0]!);
    click(find(view, 'Zoom Out'));
    click(find(view, 'Actual Size'));
    expect(calls).toEqual(['shortcuts', 'docs', 'report', 'about', 'zoom 1', 'zoom -1', 'zoom 0']);

    // macOS: About lives in the app menu, not in Help.
    const mac = applicationMenuTemplate('darwin', undefined, {
      showAbout: () => calls.push('mac about'),
    });
    const appMenu = mac[0]!.submenu as MenuItemConstructorOptions[];
    click(find(appMenu, 'About Tributary'));
    expect(calls.at(-1)).toBe('mac about');
    expect(
      labels(mac.find((m) => m.role === 'help')!.submenu as MenuItemConstructorOptions[]),
    ).toEqual([]);
  });

  it('wires the menu actions to main: the page’s overlay, the browser, About with copyable details', async () => {
    const shell = new DesktopShell({
      dataDir: join(dir, 'menu'),
      push: (c, p) => pushes.push([c, p]),
    });
    const pushes: Array<[string, unknown]> = [];
    const opened: string[] = [];
    const actions = shellMenuActions(
      { shell } as unknown as MainServices,
      () => null,
      (u) => opened.push(u),
    );
    actions.showShortcuts!();
    expect(pushes).toContainEqual(['shellCommand', { command: 'showShortcuts' }]);
    actions.openSettings!();
    expect(pushes).toContainEqual(['shellCommand', { command: 'openDesktopSettings' }]);
    // Settings… sits in File (the app menu on macOS) when there is a File menu of our own.
    const file = applicationMenuTemplate('linux', undefined, {
      ...actions,
      openManifest: () => undefined,
    }).find((m) => m.label === 'File')!.submenu as MenuItemConstructorOptions[];
    expect(find(file, 'Settings…').accelerator).toBe('CmdOrCtrl+,');
    const macApp = applicationMenuTemplate('darwin', undefined, actions)[0]!
      .submenu as MenuItemConstructorOptions[];
    expect(labels(macApp)).toContain('Settings…');
    actions.openApiDocs!();
    expect(opened).toEqual([API_DOCS_URL]);
    actions.showAbout!();
    await vi.waitFor(() => expect(electron.clipboard.writeText).toHaveBeenCalled());
    const options = electron.dialog.showMessageBox.mock.calls[0]![0] as unknown as {
      message: string;
      detail: string;
    };
    expect(options.message).toBe('Tributary 9.8.7');
    expect(electron.clipboard.writeText.mock.calls[0]![0]).toContain('Tributary 9.8.7');
  });

  it('describes the runtime for About and reports', () => {
    const text = aboutDetails({
      app: '1.2.3',
      electron: '45.4.1',
      chrome: '142.0.1',
      node: '22.1.0',
      v8: '14.2',
      platform: 'linux',
      arch: 'x64',
      osRelease: '6.1.0',
    });
    expect(text.split('\n')).toEqual([
      'Tributary 1.2.3',
      'Electron 45.4.1',
      'Chromium 142.0.1',
      'Node 22.1.0',
      'V8 14.2',
      'linux x64 6.1.0',
    ]);
  });
});

describe('start at login', () => {
  it('writes and removes an XDG autostart entry on Linux', () => {
    const configDir = join(dir, 'config');
    const command = ['/opt/My Apps/Tributary.AppImage'];
    setStartAtLogin(true, { platform: 'linux', command, configDir });
    const entry = readFileSync(autostartPath(configDir), 'utf8');
    expect(entry).toBe(autostartEntry(command));
    expect(entry).toContain('Exec="/opt/My Apps/Tributary.AppImage"\n');
    setStartAtLogin(false, { platform: 'linux', command, configDir });
    expect(existsSync(autostartPath(configDir))).toBe(false);
  });

  it('uses the login-item API elsewhere, and the running executable (or AppImage) as the command', () => {
    const setLoginItemSettings = vi.fn();
    setStartAtLogin(true, {
      platform: 'darwin',
      command: ['/Applications/T.app/x'],
      configDir: '',
      setLoginItemSettings,
    });
    expect(setLoginItemSettings).toHaveBeenCalledWith({
      openAtLogin: true,
      path: '/Applications/T.app/x',
      args: [],
    });

    process.env.APPIMAGE = join(dir, 'Tributary.AppImage');
    process.env.XDG_CONFIG_HOME = join(dir, 'xdg');
    try {
      electronDesktopIntegration().setStartAtLogin(true);
      if (process.platform === 'linux') {
        expect(readFileSync(autostartPath(join(dir, 'xdg')), 'utf8')).toContain(
          `Exec=${process.env.APPIMAGE}`,
        );
      } else {
        expect(electron.app.setLoginItemSettings).toHaveBeenCalled();
      }
    } finally {
      delete process.env.APPIMAGE;
      delete process.env.XDG_CONFIG_HOME;
    }
  });
});

describe('deep-link arguments and protocols', () => {
  it('takes bare tributary:// and zulip:// arguments and --open, beside manifests and switches', () => {
    const args = parseMainArgs([
      '--no-sandbox',
      'zulip://chat.example.com/#narrow/channel/1-a',
      '--open',
      'tributary://127.0.0.1:9991',
      'meeting.json',
      '--open',
    ]);
    expect(args.links).toEqual([
      'zulip://chat.example.com/#narrow/channel/1-a',
      'tributary://127.0.0.1:9991',
    ]);
    expect(args.manifests).toEqual(['meeting.json']);
  });

  it("takes the launcher's local realm options (main runs that server's process)", () => {
    const args = parseMainArgs([
      '--data',
      '/d',
      '--local-realm-seed',
      'large',
      '--local-realm-scale',
      '0.5',
      '--node',
      '/usr/bin/node',
      'meeting.json',
    ]);
    expect(args).toMatchObject({
      dataDir: '/d',
      localRealm: { seed: 'large', largeScale: 0.5 },
      nodePath: '/usr/bin/node',
      manifests: ['meeting.json'],
    });
    expect(parseMainArgs(['--local-realm-seed', 'nonsense']).localRealm).toBeUndefined();
  });

  it('registers both protocols in a packaged app', () => {
    registerProtocolClients();
    expect(electron.app.setAsDefaultProtocolClient.mock.calls.map((c) => c[0])).toEqual([
      'tributary',
      'zulip',
    ]);
  });
});

describe('desktop preferences', () => {
  let prefsDir: string;
  beforeEach(() => {
    prefsDir = mkdtempSync(join(dir, 'prefs-'));
  });

  it('are stored, clamped, applied through the runtime and pushed', () => {
    const pushes: Array<[string, unknown]> = [];
    const integration = { setStartAtLogin: vi.fn(), setZoomFactor: vi.fn() };
    const shell = new DesktopShell({
      dataDir: prefsDir,
      push: (c, p) => pushes.push([c, p]),
      integration,
    });
    expect(shell.state()).toEqual({
      preferences: {
        startAtLogin: false,
        zoomFactor: 1,
        proxy: { mode: 'system', url: '', bypass: '' },
        minimizeToTray: false,
      },
      supports: { startAtLogin: true, zoom: true, proxy: true, tray: true },
    });
    shell.handlers.setDesktopPreferences({ startAtLogin: true });
    expect(integration.setStartAtLogin).toHaveBeenCalledWith(true);
    // What the Settings screen sends is what is kept.
    shell.handlers.setDesktopPreferences({ minimizeToTray: true });
    expect(shell.state().preferences.minimizeToTray).toBe(true);
    for (let i = 0; i < 3; i += 1) shell.zoomBy(1);
    expect(integration.setZoomFactor).toHaveBeenLastCalledWith(1.3);
    for (let i = 0; i < 40; i += 1) shell.zoomBy(-1);
    expect(shell.state().preferences.zoomFactor).toBe(0.5);
    shell.zoomBy(0);
    expect(shell.state().preferences.zoomFactor).toBe(1);
    expect(pushes.filter(([c]) => c === 'desktopPreferences').length).toBeGreaterThan(3);

    const again = new DesktopShell({ dataDir: prefsDir, push: () => undefined, integration });
    expect(again.state().preferences).toMatchObject({ startAtLogin: true, zoomFactor: 1 });
    // Starting again changes nothing on the computer: only a changed preference does.
    expect(integration.setStartAtLogin).toHaveBeenCalledTimes(1);
  });

  it('survive a damaged file, and say what browser mode cannot apply', () => {
    writeFileSync(
      join(prefsDir, 'desktop-preferences.json'),
      JSON.stringify({ startAtLogin: 'yes', zoomFactor: 99, proxy: { mode: 'tor' } }),
    );
    const shell = new DesktopShell({ dataDir: prefsDir, push: () => undefined });
    expect(shell.state()).toEqual({
      preferences: {
        startAtLogin: false,
        zoomFactor: 3,
        proxy: { mode: 'system', url: '', bypass: '' },
        minimizeToTray: false,
      },
      supports: { startAtLogin: false, zoom: false, proxy: true, tray: false },
    });
  });

  it('queue a deep link for the page and push it, refusing malformed ones', () => {
    const pushes: Array<[string, unknown]> = [];
    const shell = new DesktopShell({ dataDir: prefsDir, push: (c, p) => pushes.push([c, p]) });
    expect(
      shell.requestOpenLink('tributary://chat.example.com/#narrow/channel/3-x/topic/y/near/9'),
    ).toBe(true);
    expect(shell.requestOpenLink('tributary://user@evil/')).toBe(false);
    const link = {
      server: 'chat.example.com',
      narrow: [
        { operator: 'channel', operand: 3 },
        { operator: 'topic', operand: 'y' },
      ],
      anchor: 9,
    };
    expect(pushes).toEqual([['openLink', link]]);
    expect(shell.takeLinks()).toEqual([link]);
    expect(shell.takeLinks()).toEqual([]);
  });

  it('apply the stored zoom to each page as it loads, and remember Ctrl+wheel zoom', () => {
    const shell = new DesktopShell({
      dataDir: prefsDir,
      push: () => undefined,
      integration: electronDesktopIntegration(),
    });
    shell.handlers.setDesktopPreferences({ zoomFactor: 1.2 });
    expect(electron.contents.setZoomFactor).toHaveBeenLastCalledWith(1.2);
    const listeners: Record<string, (...a: unknown[]) => void> = {};
    const page = {
      on: (event: string, l: (...a: unknown[]) => void) => (listeners[event] = l),
      setZoomFactor: vi.fn(),
      replaceMisspelling: vi.fn(),
      session: {},
    };
    installPageShell(page as never, () => ({ shell }) as unknown as MainServices);
    listeners['did-finish-load']!();
    expect(page.setZoomFactor).toHaveBeenCalledWith(1.2);
    listeners['zoom-changed']!({}, 'in');
    expect(shell.state().preferences.zoomFactor).toBe(1.3);
    expect(listeners['context-menu']).toBeDefined();
  });
});
