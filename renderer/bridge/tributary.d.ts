// window.tributary as the renderer sees it: the contract from shared/ipc, with the DOM's File (or any
// Blob) for uploads. Provided by Electron's preload or by installBrowserBridge() in browser mode.
import type { TributaryApi } from '../../shared/ipc/contract';

declare global {
  interface Window {
    tributary: TributaryApi<File | Blob>;
  }
}

export {};
