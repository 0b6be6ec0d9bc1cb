// The manifest viewer's native dialogs. Electron's `dialog` is passed in (this file is bundled into
// the Electron main process only; nothing here requires 'electron' at run time).
import type { BrowserWindow, Dialog, OpenDialogOptions, SaveDialogOptions } from 'electron';
import type { ManifestDialogs } from './service';

export function electronManifestDialogs(
  dialog: Pick<Dialog, 'showOpenDialog' | 'showSaveDialog'>,
  window: () => BrowserWindow | null,
): ManifestDialogs {
  const open = async (options: OpenDialogOptions) => {
    const parent = window();
    const result = parent
      ? await dialog.showOpenDialog(parent, options)
      : await dialog.showOpenDialog(options);
    return result.canceled ? null : (result.filePaths[0] ?? null);
  };
  const save = async (options: SaveDialogOptions) => {
    const parent = window();
    const result = parent
      ? await dialog.showSaveDialog(parent, options)
      : await dialog.showSaveDialog(options);
    return result.canceled ? null : (result.filePath ?? null);
  };
  return {
    chooseManifest: () =>
      open({
        title: 'Open meeting manifest',
        properties: ['openFile'],
        filters: [{ name: 'Meeting manifest', extensions: ['json'] }],
      }),
    chooseAudio: (defaultFolder) =>
      open({
        title: 'Choose the recording',
        defaultPath: defaultFolder,
        properties: ['openFile'],
        filters: [
          { name: 'Ogg Opus audio', extensions: ['opus', 'ogg'] },
          { name: 'All files', extensions: ['*'] },
        ],
      }),
    chooseSaveTarget: (defaultName) => save({ title: 'Save attachment', defaultPath: defaultName }),
  };
}
