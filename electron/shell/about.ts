// Help > About Tributary (and the macOS app menu's About), and the details a bug report needs: the
// app's version with the Electron, Chromium, Node and V8 it runs on, and the operating system.
import type { MessageBoxOptions } from 'electron';

export interface RuntimeVersions {
  app: string;
  electron?: string;
  chrome?: string;
  node?: string;
  v8?: string;
  platform: string;
  arch: string;
  osRelease?: string;
}

export function aboutDetails(versions: RuntimeVersions): string {
  return [
    `Tributary ${versions.app}`,
    versions.electron ? `Electron ${versions.electron}` : null,
    versions.chrome ? `Chromium ${versions.chrome}` : null,
    versions.node ? `Node ${versions.node}` : null,
    versions.v8 ? `V8 ${versions.v8}` : null,
    `${versions.platform} ${versions.arch}${versions.osRelease ? ` ${versions.osRelease}` : ''}`,
  ]
    .filter((line): line is string => line !== null)
    .join('\n');
}

/** The About box; `forReport` asks the person to paste the details into their report. */
export function aboutDialogOptions(
  versions: RuntimeVersions,
  forReport = false,
): MessageBoxOptions {
  return {
    type: 'info',
    title: forReport ? 'Report an Issue' : 'About Tributary',
    message: forReport
      ? 'Please include these details when you report an issue:'
      : `Tributary ${versions.app}`,
    detail: forReport
      ? aboutDetails(versions)
      : `A desktop client for topic-based team chat.\n\n${aboutDetails(versions)}`,
    buttons: ['Copy Details', 'OK'],
    defaultId: 1,
    cancelId: 1,
    noLink: true,
  };
}
