// Files the page downloads (an attachment's link, a `download` anchor) are saved where the person
// chooses: Electron shows its save dialog when no path is set, and this names the dialog and starts it
// in the Downloads folder with the file's own name.
import { basename, join } from 'node:path';
import type { Session } from 'electron';

export function installDownloadDialog(
  session: Pick<Session, 'on'>,
  downloadsFolder: () => string,
): void {
  session.on('will-download', (_event, item) => {
    // The name comes from the server (Content-Disposition): only its last segment is a file name.
    const name = basename(item.getFilename().replace(/\\/g, '/')) || 'download';
    item.setSaveDialogOptions({
      title: 'Save Download',
      defaultPath: join(downloadsFolder(), name),
      buttonLabel: 'Save',
    });
  });
}
