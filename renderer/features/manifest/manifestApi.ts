// The viewer's calls to main (window.tributary, manifest domain) and the URL its audio plays from.
import type { TributaryApi } from '../../../shared/ipc/contract';
import { TributaryError } from '../../../shared/ipc/errors';
import { mediaUrlForToken } from '../../../shared/ipc/manifest';
import { MEDIA_SCHEME } from '../../../shared/ipc/wire';

export type ViewerApi = Pick<
  TributaryApi<File | Blob>,
  | 'openManifest'
  | 'chooseManifestAudio'
  | 'playManifestAnyway'
  | 'meetingShareFiles'
  | 'shareMeeting'
  | 'cancelUpload'
  | 'closeManifest'
  | 'saveManifestAttachment'
  | 'getManifestAttachment'
  | 'listRecentManifests'
  | 'forgetRecentManifest'
  | 'getAppInfo'
  | 'intakeFile'
>;

export function viewerApi(): ViewerApi {
  return window.tributary as unknown as ViewerApi;
}

export function mediaUrl(token: string, loc: Location = window.location): string {
  return mediaUrlForToken(token, loc.protocol, MEDIA_SCHEME);
}

/** The message for a failed call, with its code (CANCELLED is not an error worth showing). */
export function callErrorText(error: unknown): string | null {
  if (error instanceof TributaryError || (error as { code?: unknown })?.code) {
    const coded = error as { code: string; message: string };
    if (coded.code === 'CANCELLED') return null;
    return `${coded.message} (${coded.code})`;
  }
  return error instanceof Error ? error.message : String(error);
}

/** Starts a download of bytes main handed over (browser mode has no native save dialog). */
export function downloadBase64(name: string, mime: string, contentBase64: string): void {
  const binary = atob(contentBase64);
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  const url = URL.createObjectURL(new Blob([bytes], { type: mime || 'application/octet-stream' }));
  const link = document.createElement('a');
  link.href = url;
  link.download = name.split(/[\\/]/).pop() || 'attachment';
  link.rel = 'noopener';
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 60_000);
}
