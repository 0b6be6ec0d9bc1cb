// File > Open Meeting Manifest… in the Electron menu (the template only; Electron is not run here).
import { describe, expect, it } from 'vitest';
import type { MenuItemConstructorOptions } from 'electron';
import { applicationMenuTemplate } from '../../electron/shell/menu';

function findItem(
  items: MenuItemConstructorOptions[],
  label: string,
): MenuItemConstructorOptions | undefined {
  for (const item of items) {
    if (item.label === label) return item;
    if (Array.isArray(item.submenu)) {
      const found = findItem(item.submenu, label);
      if (found) return found;
    }
  }
  return undefined;
}

describe('Open Meeting Manifest… menu item', () => {
  it('is in the File menu when main handles it, and runs its action', () => {
    let opened = 0;
    for (const platform of ['linux', 'darwin', 'win32']) {
      const template = applicationMenuTemplate(platform, 'Tributary', {
        openManifest: () => opened++,
      });
      const item = findItem(template, 'Open Meeting Manifest…');
      expect(item?.accelerator).toBe('CmdOrCtrl+O');
      (item!.click as () => void)();
      expect(JSON.stringify(template)).toContain('editMenu');
    }
    expect(opened).toBe(3);
  });

  it('keeps the standard File menu without the action', () => {
    const template = applicationMenuTemplate('linux');
    expect(findItem(template, 'Open Meeting Manifest…')).toBeUndefined();
    expect(JSON.stringify(template)).toContain('fileMenu');
  });
});
