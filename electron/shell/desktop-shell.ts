// The desktop shell's part of the main-process services, shared by Electron and browser mode: the
// desktop preferences (stored, applied, pushed), and deep links waiting for the page. What only
// Electron can apply (the login item, the window's zoom) is injected; browser mode leaves it out and
// the settings screen says those options belong to the desktop app. The login item is changed only
// when the preference changes: a development copy starting on a fresh data folder must not remove
// the login item an installed copy set. Each page gets the zoom as it loads (electron-shell.ts).
import type { MethodHandlers, PushSink } from '../../shared/ipc/contract';
import type { DesktopPreferences, DesktopShellState, ShellCommand } from '../../shared/ipc/shell';
import { parseDeepLink, type DeepLink } from '../../shared/narrow/deep-link';
import { clampZoom, DesktopPreferencesStore } from './desktop-preferences';
import { applyProxy } from './proxy';

/** What the Electron runtime applies on the computer itself. */
export interface DesktopIntegration {
  setStartAtLogin(enabled: boolean): void;
  setZoomFactor(factor: number): void;
}

export interface DesktopShellOptions {
  dataDir: string;
  push: PushSink;
  integration?: DesktopIntegration;
}

type ShellHandlers = Pick<MethodHandlers, 'getDesktopPreferences' | 'setDesktopPreferences'>;

export class DesktopShell {
  private readonly store: DesktopPreferencesStore;
  private readonly pendingLinks: DeepLink[] = [];

  constructor(private readonly options: DesktopShellOptions) {
    this.store = new DesktopPreferencesStore(options.dataDir);
    applyProxy(this.store.get().proxy);
  }

  state(): DesktopShellState {
    const electron = this.options.integration !== undefined;
    return {
      preferences: this.store.get(),
      supports: { startAtLogin: electron, zoom: electron, proxy: true, tray: electron },
    };
  }

  update(patch: Partial<DesktopPreferences>): DesktopShellState {
    const before = this.store.get();
    const after = this.store.update(patch);
    const integration = this.options.integration;
    if (after.startAtLogin !== before.startAtLogin)
      integration?.setStartAtLogin(after.startAtLogin);
    if (after.zoomFactor !== before.zoomFactor) integration?.setZoomFactor(after.zoomFactor);
    if (JSON.stringify(after.proxy) !== JSON.stringify(before.proxy)) applyProxy(after.proxy);
    const state = this.state();
    this.options.push('desktopPreferences', state);
    return state;
  }

  /** Zoom in or out by one step (the View menu, Ctrl+= / Ctrl+-), or back to 100 % with 0. */
  zoomBy(steps: number): void {
    const current = this.store.get().zoomFactor;
    this.update({ zoomFactor: steps === 0 ? 1 : clampZoom(current + steps * 0.1) });
  }

  /**
   * A deep link for the page: queued for takeLaunchRequests (the page may not be loaded yet) and
   * pushed to a page that is. False when the text is not a well-formed link.
   */
  requestOpenLink(url: string): boolean {
    const link = parseDeepLink(url);
    if (!link) return false;
    this.pendingLinks.push(link);
    this.options.push('openLink', link);
    return true;
  }

  /** A menu command for the page (it has the shortcut overlay and the settings screens). */
  sendCommand(command: ShellCommand['command']): void {
    this.options.push('shellCommand', { command });
  }

  takeLinks(): DeepLink[] {
    return this.pendingLinks.splice(0);
  }

  get handlers(): ShellHandlers {
    return {
      getDesktopPreferences: () => this.state(),
      setDesktopPreferences: (patch) => {
        const current = this.store.get();
        return this.update({
          ...(patch.startAtLogin !== undefined ? { startAtLogin: patch.startAtLogin } : {}),
          ...(patch.zoomFactor !== undefined ? { zoomFactor: patch.zoomFactor } : {}),
          ...(patch.minimizeToTray !== undefined ? { minimizeToTray: patch.minimizeToTray } : {}),
          ...(patch.proxy ? { proxy: { ...current.proxy, ...patch.proxy } } : {}),
        });
      },
    };
  }
}
