// The one window factory: every Tributary window is created here with the same locked-down settings.
import { BrowserWindow } from 'electron';
import { loadWindowState, saveWindowState } from './window-state';
import { APP_URL } from './security';

export interface WindowOptions {
  dataDir: string;
  preloadPath: string;
}

export const SECURE_WEB_PREFERENCES = {
  contextIsolation: true,
  sandbox: true,
  nodeIntegration: false,
  nodeIntegrationInWorker: false,
  nodeIntegrationInSubFrames: false,
  webviewTag: false,
  webSecurity: true,
  allowRunningInsecureContent: false,
  experimentalFeatures: false,
  navigateOnDragDrop: false,
  spellcheck: true,
} as const;

export function createMainWindow(options: WindowOptions): BrowserWindow {
  const state = loadWindowState(options.dataDir);
  const window = new BrowserWindow({
    width: state.width,
    height: state.height,
    ...(state.x !== undefined ? { x: state.x, y: state.y } : {}),
    minWidth: 480,
    minHeight: 360,
    show: false,
    title: 'Tributary',
    webPreferences: { ...SECURE_WEB_PREFERENCES, preload: options.preloadPath },
  });
  if (state.maximized) window.maximize();
  window.once('ready-to-show', () => window.show());
  const remember = () => {
    if (window.isDestroyed()) return;
    const bounds = window.getNormalBounds();
    saveWindowState(options.dataDir, { ...bounds, maximized: window.isMaximized() });
  };
  window.on('close', remember);
  void window.loadURL(APP_URL);
  return window;
}
