// The desktop preferences file (DATA/desktop-preferences.json): this computer's choices for the shell,
// not synced anywhere. Whatever the file holds, what comes out is complete and in range, so a
// hand-edited or older file never stops the app from starting.
import { join } from 'node:path';
import type { DesktopPreferences, ProxyMode } from '../../shared/ipc/shell';
import { ZOOM_RANGE } from '../../shared/ipc/shell';
import { readJsonFile, writeJsonFile } from '../storage/json-file';

export const DESKTOP_PREFERENCES_FILE = 'desktop-preferences.json';

export const DEFAULT_DESKTOP_PREFERENCES: DesktopPreferences = {
  startAtLogin: false,
  zoomFactor: 1,
  proxy: { mode: 'system', url: '', bypass: '' },
  minimizeToTray: false,
};

const PROXY_MODES: readonly ProxyMode[] = ['system', 'direct', 'manual'];

/** Zoom factors land on tenths, within range: repeated Ctrl+= never drifts to 1.2000000000000002. */
export function clampZoom(factor: number): number {
  if (!Number.isFinite(factor)) return 1;
  const rounded = Math.round(factor * 10) / 10;
  return Math.min(ZOOM_RANGE.max, Math.max(ZOOM_RANGE.min, rounded));
}

function sanitize(raw: unknown): DesktopPreferences {
  const value = (raw && typeof raw === 'object' ? raw : {}) as Record<string, unknown>;
  const proxy = (value.proxy && typeof value.proxy === 'object' ? value.proxy : {}) as Record<
    string,
    unknown
  >;
  const defaults = DEFAULT_DESKTOP_PREFERENCES;
  return {
    startAtLogin: typeof value.startAtLogin === 'boolean' ? value.startAtLogin : false,
    minimizeToTray: value.minimizeToTray === true,
    zoomFactor: typeof value.zoomFactor === 'number' ? clampZoom(value.zoomFactor) : 1,
    proxy: {
      mode: PROXY_MODES.includes(proxy.mode as ProxyMode)
        ? (proxy.mode as ProxyMode)
        : defaults.proxy.mode,
      url: typeof proxy.url === 'string' ? proxy.url : '',
      bypass: typeof proxy.bypass === 'string' ? proxy.bypass : '',
    },
  };
}

export class DesktopPreferencesStore {
  private readonly path: string;
  private current: DesktopPreferences;

  constructor(dataDir: string) {
    this.path = join(dataDir, DESKTOP_PREFERENCES_FILE);
    this.current = sanitize(readJsonFile<unknown>(this.path, {}));
  }

  get(): DesktopPreferences {
    return structuredClone(this.current);
  }

  update(patch: Partial<DesktopPreferences>): DesktopPreferences {
    this.current = sanitize({ ...this.current, ...patch });
    writeJsonFile(this.path, this.current);
    return this.get();
  }
}
