// The one way screens reach main: window.tributary (Electron preload or the browser-mode bridge).
// Tests install a fake on window before rendering; nothing here imports the transport.
import type { TributaryApi } from '../../shared/ipc/contract';
import { TributaryError } from '../../shared/ipc/errors';

export type Api = TributaryApi<File | Blob>;

export function api(): Api {
  return window.tributary;
}

/** A readable message for an error thrown by an IPC call (keeps the server's code visible). */
export function errorText(error: unknown): string {
  if (error instanceof TributaryError) return `${error.message} (${error.code})`;
  if (error instanceof Error) return error.message;
  return String(error);
}
