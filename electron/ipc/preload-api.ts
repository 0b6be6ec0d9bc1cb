// Builds the object the preload exposes as `window.tributary`: one named function per contract method
// (never ipcRenderer itself), `on` for main-to-renderer messages, and `uploadFile` for a File the
// user dropped or picked. Kept apart from preload.ts so it can be tested without Electron.
import { methodNames, isPushName, type TributaryApi } from '../../shared/ipc/contract';
import { unwrapResult, type IpcResult } from '../../shared/ipc/errors';
import { IPC_INTAKE_CHANNEL, IPC_INVOKE_PREFIX, IPC_PUSH_CHANNEL } from '../../shared/ipc/wire';
import type { ChosenFile } from '../../shared/ipc/uploads';

export interface IpcRendererLike {
  invoke(channel: string, ...args: unknown[]): Promise<unknown>;
  on(channel: string, listener: (event: unknown, ...args: unknown[]) => void): unknown;
}

export interface WebUtilsLike {
  getPathForFile(file: unknown): string;
}

export function createPreloadApi(
  ipcRenderer: IpcRendererLike,
  webUtils: WebUtilsLike,
): TributaryApi<unknown> {
  const listeners = new Map<string, Set<(payload: unknown) => void>>();
  ipcRenderer.on(IPC_PUSH_CHANNEL, (_event, channel, payload) => {
    if (typeof channel !== 'string') return;
    for (const listener of listeners.get(channel) ?? []) listener(payload);
  });

  const invoke = async (channel: string, payload: unknown) =>
    unwrapResult((await ipcRenderer.invoke(channel, payload)) as IpcResult<unknown>);

  const api: Record<string, unknown> = {};
  for (const name of methodNames) {
    api[name] = (payload: unknown) => invoke(`${IPC_INVOKE_PREFIX}${name}`, payload ?? {});
  }
  api.on = (channel: string, listener: (payload: unknown) => void) => {
    if (!isPushName(channel)) throw new Error(`Unknown channel ${channel}`);
    const set = listeners.get(channel) ?? new Set();
    listeners.set(channel, set);
    // Wrapped so the listener identity stays in this world (contextBridge copies functions).
    const wrapped = (payload: unknown) => listener(payload);
    set.add(wrapped);
    return () => set.delete(wrapped);
  };
  api.intakeFile = async (file: unknown) => {
    const path = webUtils.getPathForFile(file);
    if (!path) throw new Error('This file has no path on disk (only real files can be used)');
    return (await invoke(IPC_INTAKE_CHANNEL, { path })) as ChosenFile;
  };
  api.uploadFile = async (accountId: string, file: unknown) => {
    const chosen = await (api.intakeFile as (file: unknown) => Promise<ChosenFile>)(file);
    return invoke(`${IPC_INVOKE_PREFIX}startUpload`, { accountId, token: chosen.token });
  };
  return api as TributaryApi<unknown>;
}
