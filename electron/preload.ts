// The preload script (bundled to dist/electron/preload.cjs, runs sandboxed): exposes the named
// contract methods on window.tributary through contextBridge. ipcRenderer itself is never exposed.
import { contextBridge, ipcRenderer, webUtils } from 'electron';
import { createPreloadApi } from './ipc/preload-api';

contextBridge.exposeInMainWorld('tributary', createPreloadApi(ipcRenderer, webUtils));
