/**
 * The two IPC transports, built around real main-process services for the behavioural contract suite:
 *  - electron: registerIpcHandlers on a mocked ipcMain, the preload API on a mocked ipcRenderer (with
 *    structured cloning, as Electron's IPC does), pushes delivered as webContents.send would;
 *  - websocket: the real browser-mode host and the real renderer bridge over a WebSocket (Node's ws).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import WebSocket from 'ws';
import type { TributaryApi } from '../../../shared/ipc/contract';
import { IPC_PUSH_CHANNEL } from '../../../shared/ipc/wire';
import { FileVault } from '../../../electron/accounts/vault';
import { MainServices } from '../../../electron/services';
import { PushHub } from '../../../electron/push-hub';
import { createDispatcher } from '../../../electron/ipc/dispatch';
import { registerIpcHandlers } from '../../../electron/ipc/electron-transport';
import { createPreloadApi } from '../../../electron/ipc/preload-api';
import { startBrowserHost } from '../../../electron/host/host';
import { createWebSocketBridge, type WebSocketLike } from '../../../shared/ipc/bridge-client';

/** A file as each transport's uploadFile receives it: a Blob with a name, and a path for Electron. */
export type TestFile = Blob & { name: string; path: string };

export interface TransportUnderTest {
  api: TributaryApi<TestFile>;
  /** Browser mode only: drop the bridge socket (the bridge reconnects and replays state). */
  disconnect?: () => void;
  services: MainServices;
  dataDir: string;
  close(): Promise<void>;
}

export type TransportFactory = (options: {
  tusThresholdBytes?: number;
  /** The app's data folder, kept at close (a relaunch); a fresh one, removed at close, without. */
  dataDir?: string;
}) => Promise<TransportUnderTest>;

type Handler = (event: unknown, payload: unknown) => Promise<unknown>;

export interface FakeFrame {
  url: string;
  parent: FakeFrame | null;
}

/** ipcMain + ipcRenderer pair; `frame` is who the renderer side claims to be. */
export function fakeElectronIpc(frame: { current: FakeFrame; top: FakeFrame }) {
  const handlers = new Map<string, Handler>();
  const pushListeners: Array<(event: unknown, ...args: unknown[]) => void> = [];
  const ipcMain = {
    handle: (channel: string, handler: Handler) => {
      if (handlers.has(channel)) throw new Error(`second handler for ${channel}`);
      handlers.set(channel, handler);
    },
    removeHandler: (channel: string) => handlers.delete(channel),
  };
  const ipcRenderer = {
    invoke: async (channel: string, payload: unknown) => {
      const handler = handlers.get(channel);
      if (!handler) throw new Error(`No handler registered for '${channel}'`);
      const event = { senderFrame: frame.current, sender: { mainFrame: frame.top } };
      return structuredClone(await handler(event, structuredClone(payload)));
    },
    on: (channel: string, listener: (event: unknown, ...args: unknown[]) => void) => {
      if (channel === IPC_PUSH_CHANNEL) pushListeners.push(listener);
    },
  };
  const send = (channel: string, payload: unknown) => {
    for (const listener of pushListeners) listener({}, channel, structuredClone(payload));
  };
  return { ipcMain, ipcRenderer, handlers, send };
}

export const electronTransport: TransportFactory = async (options) => {
  const dataDir = options.dataDir ?? mkdtempSync(join(tmpdir(), 'tributary-ipc-'));
  const hub = new PushHub();
  const services = new MainServices({
    dataDir,
    vault: new FileVault(dataDir),
    push: hub.push,
    appInfo: { runtime: 'electron', version: 'test', platform: process.platform },
    openExternal: () => undefined,
    pollTimeoutMs: 5_000,
    // No page paints here: a first sign-in's people are asked for at once.
    peopleWaitMs: 0,
    ...options,
  });
  const top: FakeFrame = { url: 'app://tributary/index.html', parent: null };
  const ipc = fakeElectronIpc({ current: top, top });
  hub.subscribe((channel, payload) => ipc.send(channel, payload));
  registerIpcHandlers(
    ipc.ipcMain as unknown as Parameters<typeof registerIpcHandlers>[0],
    createDispatcher(services.handlers),
    services.intake,
  );
  const api = createPreloadApi(ipc.ipcRenderer, {
    getPathForFile: (file) => (file as TestFile).path ?? '',
  }) as TributaryApi<TestFile>;
  services.start();
  return {
    api,
    services,
    dataDir,
    async close() {
      await services.stop();
      if (!options.dataDir) rmSync(dataDir, { recursive: true, force: true });
    },
  };
};

export const websocketTransport: TransportFactory = async (options) => {
  const dataDir = options.dataDir ?? mkdtempSync(join(tmpdir(), 'tributary-ws-'));
  const host = await startBrowserHost({
    dataDir,
    vault: new FileVault(dataDir),
    rendererDir: join(dataDir, 'no-renderer'),
    pollTimeoutMs: 5_000,
    // No page paints here: a first sign-in's people are asked for at once.
    peopleWaitMs: 0,
    ...options,
  });
  const origin = `http://127.0.0.1:${host.port}`;
  const bridge = createWebSocketBridge({
    origin: `ws://127.0.0.1:${host.port}`,
    secret: host.secret,
    createSocket: (url) => new WebSocket(url, { origin }) as unknown as WebSocketLike,
  });
  return {
    api: bridge as unknown as TributaryApi<TestFile>,
    disconnect: () => host.disconnectPages(),
    services: host.services,
    dataDir,
    async close() {
      bridge.close();
      await host.close();
      if (!options.dataDir) rmSync(dataDir, { recursive: true, force: true });
    },
  };
};

/** Both transports, named, for describe.each. */
export const bothTransports: Array<[string, TransportFactory]> = [
  ['electron', electronTransport],
  ['websocket', websocketTransport],
];
