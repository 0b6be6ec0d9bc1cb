// The desktop shell's own preferences (kept by main on this computer, not on any server): start at
// login, the window's zoom, and the proxy main's connections go through; and the pushes the shell
// sends: a deep link to open, a menu command for the page.
import * as z from 'zod';
import { payload } from './common';
import { method, push } from './define';
import type { DeepLink } from '../narrow/deep-link';

export type ProxyMode = 'system' | 'direct' | 'manual';

export interface ProxyPreference {
  /** system: the HTTPS_PROXY / HTTP_PROXY / NO_PROXY environment; direct: none; manual: `url`. */
  mode: ProxyMode;
  /** `http://host:port` (manual mode). */
  url: string;
  /** Comma-separated hosts that bypass the manual proxy, as NO_PROXY writes them. */
  bypass: string;
}

export interface DesktopPreferences {
  startAtLogin: boolean;
  /** The window's zoom factor (1 = 100 %). */
  zoomFactor: number;
  proxy: ProxyPreference;
  /** Minimising the window hides it to the tray (desktop app only). */
  minimizeToTray: boolean;
}

export interface DesktopShellState {
  preferences: DesktopPreferences;
  /** What this runtime applies: browser mode has no login item and zooms with the browser. */
  supports: { startAtLogin: boolean; zoom: boolean; proxy: boolean; tray: boolean };
}

/** Something the application menu asks the page to do. */
export interface ShellCommand {
  command: 'showShortcuts' | 'openDesktopSettings';
}

export const ZOOM_RANGE = { min: 0.5, max: 3, step: 0.1 } as const;

const proxyUrl = z
  .string()
  .max(2048)
  .refine((url) => url === '' || /^https?:\/\/[^\s/?#]+\/?$/i.test(url), {
    message: 'A proxy is given as http://host:port',
  });

export const shellMethods = {
  getDesktopPreferences: method<DesktopShellState>()(payload({})),
  /** Changes some preferences, applies them at once, and returns (and pushes) the new state. */
  setDesktopPreferences: method<DesktopShellState>()(
    payload({
      startAtLogin: z.boolean().optional(),
      minimizeToTray: z.boolean().optional(),
      zoomFactor: z.number().min(ZOOM_RANGE.min).max(ZOOM_RANGE.max).optional(),
      proxy: z
        .strictObject({
          mode: z.enum(['system', 'direct', 'manual']),
          url: proxyUrl,
          bypass: z.string().max(4096),
        })
        .optional(),
    }),
  ),
} as const;

export const shellPushes = {
  /** A deep link given to the running app (a second launch, the OS, `npm start -- --open URL`). */
  openLink: push<DeepLink>(),
  desktopPreferences: push<DesktopShellState>(),
  shellCommand: push<ShellCommand>(),
} as const;
