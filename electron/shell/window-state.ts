// Remembers the main window's size, position and maximized state between runs.
import { join } from 'node:path';
import { readJsonFile, writeJsonFile } from '../storage/json-file';

export interface WindowState {
  width: number;
  height: number;
  x?: number;
  y?: number;
  maximized: boolean;
}

export const DEFAULT_WINDOW_STATE: WindowState = { width: 1200, height: 800, maximized: false };

export function loadWindowState(dataDir: string): WindowState {
  const saved = readJsonFile<Partial<WindowState>>(join(dataDir, 'window-state.json'), {});
  const size = (value: unknown, min: number, fallback: number) =>
    typeof value === 'number' && Number.isFinite(value) && value >= min
      ? Math.round(value)
      : fallback;
  return {
    width: size(saved.width, 400, DEFAULT_WINDOW_STATE.width),
    height: size(saved.height, 300, DEFAULT_WINDOW_STATE.height),
    ...(typeof saved.x === 'number' && typeof saved.y === 'number'
      ? { x: saved.x, y: saved.y }
      : {}),
    maximized: saved.maximized === true,
  };
}

export function saveWindowState(dataDir: string, state: WindowState): void {
  writeJsonFile(join(dataDir, 'window-state.json'), state, 0o600);
}
