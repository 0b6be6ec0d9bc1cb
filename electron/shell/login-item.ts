// Start at login (opt-in, Settings > Desktop). macOS and Windows have a login-item API in Electron;
// Linux has none, so there it is an XDG autostart entry (~/.config/autostart/tributary.desktop), the
// file desktop sessions read at login. Inside an AppImage the executable is a temporary mount, so the
// entry names the AppImage file itself ($APPIMAGE).
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { App } from 'electron';

export interface LoginItemHost {
  platform: string;
  /** The command that starts Tributary: the executable, plus the app folder when not packaged. */
  command: string[];
  /** $XDG_CONFIG_HOME or ~/.config (Linux). */
  configDir: string;
  setLoginItemSettings?: App['setLoginItemSettings'];
}

/** One Exec argument quoted as the Desktop Entry spec asks when it holds anything special. */
function quoteExecArg(arg: string): string {
  if (/^[\w@%+=:,./-]+$/.test(arg)) return arg;
  return `"${arg.replace(/(["`$\\])/g, '\\$1')}"`;
}

export function autostartEntry(command: string[]): string {
  return [
    '[Desktop Entry]',
    'Type=Application',
    'Name=Tributary',
    'Comment=Topic-based team chat',
    `Exec=${command.map(quoteExecArg).join(' ')}`,
    'Terminal=false',
    'X-GNOME-Autostart-enabled=true',
    '',
  ].join('\n');
}

export function autostartPath(configDir: string): string {
  return join(configDir, 'autostart', 'tributary.desktop');
}

export function setStartAtLogin(enabled: boolean, host: LoginItemHost): void {
  if (host.platform === 'linux') {
    const path = autostartPath(host.configDir);
    if (enabled) {
      mkdirSync(join(host.configDir, 'autostart'), { recursive: true });
      writeFileSync(path, autostartEntry(host.command));
    } else {
      rmSync(path, { force: true });
    }
    return;
  }
  const [path, ...args] = host.command;
  host.setLoginItemSettings?.({ openAtLogin: enabled, path, args });
}
