// Browser mode's window.tributary: the same TributaryApi as Electron's preload, carried over one
// WebSocket to the host process (electron/host). It lives in shared/ (no DOM types: the socket is
// injected) so Node tests drive the very code the renderer runs; renderer/bridge/install.ts uses it. Calls are JSON frames answered by id; pushes arrive
// as frames too; a file the user dropped, pasted or picked is streamed to the host in binary chunks,
// then uploaded by main like any other chosen file.
import type { PushName, TributaryApi } from './contract';
import { METHOD_NAMES, isListedPushName } from './names';
import { TributaryError, type IpcResult } from './errors';
import {
  BRIDGE_PATH,
  FILE_CHUNK_BYTES,
  FILE_HEADER_BYTES,
  type ClientFrame,
  type HostFrame,
} from './wire';
import type { ChosenFile, UploadProgress } from './uploads';
import type { AccountsChanged, SnapshotMessage } from './accounts';
import type { ConnectionState } from './common';
import type { ServerEvent } from '../api/events';

/** The part of the DOM WebSocket the bridge uses (Node's `ws` fits too, for tests). */
export interface WebSocketLike {
  readonly readyState: number;
  readonly bufferedAmount: number;
  binaryType: string;
  send(data: string | ArrayBufferView | ArrayBuffer): void;
  close(): void;
  onopen: ((event: unknown) => void) | null;
  onclose: ((event: unknown) => void) | null;
  onmessage: ((event: { data: unknown }) => void) | null;
  onerror: ((event: unknown) => void) | null;
}

/** What uploadFile accepts: a File or Blob (name optional). */
export interface FileLike {
  readonly size: number;
  readonly name?: string;
  slice(start?: number, end?: number): { arrayBuffer(): Promise<ArrayBuffer> };
}

export interface BridgeOptions {
  /** ws://127.0.0.1:PORT — the bridge adds the path and the secret. */
  origin: string;
  secret: string;
  /** The DOM's `new WebSocket(url)` in the renderer; Node's ws in tests. */
  createSocket: (url: string) => WebSocketLike;
}

const OPEN = 1;

type RequestFrame = Extract<ClientFrame, { id: number }>;
type WithoutId<T> = T extends unknown ? Omit<T, 'id'> : never;
const MAX_BUFFERED_BYTES = 4 * FILE_CHUNK_BYTES;

export function bridgeUrl(origin: string, secret: string): string {
  return `${origin}${BRIDGE_PATH}?secret=${encodeURIComponent(secret)}`;
}

export function createWebSocketBridge(options: BridgeOptions): TributaryApi<FileLike> & {
  close(): void;
} {
  const { createSocket } = options;
  const pending = new Map<number, { resolve(value: unknown): void; reject(error: Error): void }>();
  const listeners = new Map<string, Set<(payload: unknown) => void>>();
  let nextId = 1;
  let nextFile = 1;
  let closed = false;
  let socket: WebSocketLike;
  let opened: Promise<void>;

  let connections = 0;
  /** Said once per outage, not at every failed reconnect. */
  let lost = false;
  const emit = (channel: string, payload: unknown) => {
    for (const listener of listeners.get(channel) ?? []) listener(payload);
  };
  /**
   * Pushes sent while the socket was down are lost, so after a reconnect the bridge replays the
   * current state as pushes: the account list, and per account its snapshot, the events since it
   * and its connection state. The renderer handles these like any others.
   */
  const replayState = async () => {
    const changed = (await request({
      t: 'call',
      method: 'listAccounts',
      payload: {},
    })) as AccountsChanged;
    emit('accounts', changed);
    for (const account of changed.accounts) {
      const { snapshot, events, connection } = (await request({
        t: 'call',
        method: 'getSnapshot',
        payload: { accountId: account.id },
      })) as {
        snapshot: SnapshotMessage | null;
        events: ServerEvent[];
        connection: ConnectionState;
      };
      if (snapshot) emit('snapshot', snapshot);
      if (snapshot && events.length > 0) {
        emit('events', { accountId: account.id, queueId: snapshot.queueId, events });
      }
      emit('connection', { accountId: account.id, state: connection });
    }
    // Uploads kept going in the host; their progress (or end) pushed meanwhile was lost.
    const uploads = (await request({ t: 'call', method: 'listUploads', payload: {} })) as
      UploadProgress[] | undefined;
    for (const upload of uploads ?? []) emit('uploadProgress', upload);
  };

  const connect = () => {
    socket = createSocket(bridgeUrl(options.origin, options.secret));
    socket.binaryType = 'arraybuffer';
    opened = new Promise((resolve, reject) => {
      socket.onopen = () => {
        connections += 1;
        resolve();
        lost = false;
        if (connections > 1) {
          // State first, so what the page hands over on `connected` meets a current store.
          void replayState()
            .catch(() => undefined)
            .then(() => emit('host', { status: 'connected' }));
        }
      };
      socket.onerror = () =>
        reject(new TributaryError({ code: 'BRIDGE_CLOSED', msg: 'Bridge connection failed' }));
    });
    opened.catch(() => undefined);
    socket.onmessage = (event) => {
      if (typeof event.data !== 'string') return;
      const frame = JSON.parse(event.data) as HostFrame;
      if (frame.t === 'result') {
        const waiter = pending.get(frame.id);
        pending.delete(frame.id);
        if (!waiter) return;
        const result = frame as IpcResult<unknown>;
        if (result.ok) waiter.resolve(result.value);
        else waiter.reject(new TributaryError(result.error));
      } else if (frame.t === 'push') {
        emit(frame.channel, frame.payload);
      }
    };
    socket.onclose = () => {
      for (const waiter of pending.values()) {
        waiter.reject(
          new TributaryError({ code: 'BRIDGE_CLOSED', msg: 'Connection to Tributary closed' }),
        );
      }
      pending.clear();
      if (!closed) {
        if (!lost) emit('host', { status: 'lost' });
        lost = true;
        setTimeout(connect, 1000);
      }
    };
  };
  connect();

  /** How long a call waits for the socket to come back before failing with BRIDGE_CLOSED. */
  const RECONNECT_WAIT_MS = 10_000;
  const bridgeClosed = (msg = 'Connection to Tributary closed') =>
    new TributaryError({ code: 'BRIDGE_CLOSED', msg });

  /**
   * Sends a request frame and waits for its answer. A call made while the socket is down waits for
   * the reconnect (briefly); `on` pins the request to one socket (a file's stream), failing if that
   * socket is gone.
   */
  const request = (frame: WithoutId<RequestFrame>, on?: WebSocketLike): Promise<unknown> => {
    // On an open socket the frame goes out now, not a microtask later: a page that asks and then
    // changes its stores (whose renders run as microtasks) would otherwise send after the render.
    if (!closed && socket.readyState === OPEN && (!on || socket === on)) return send(frame);
    return sendWhenOpen(frame, on);
  };
  const send = (frame: WithoutId<RequestFrame>): Promise<unknown> => {
    const id = nextId++;
    return new Promise((resolve, reject) => {
      pending.set(id, { resolve, reject });
      socket.send(JSON.stringify({ ...frame, id }));
    });
  };
  const sendWhenOpen = async (
    frame: WithoutId<RequestFrame>,
    on?: WebSocketLike,
  ): Promise<unknown> => {
    const deadline = Date.now() + RECONNECT_WAIT_MS;
    for (;;) {
      await opened;
      if (on && socket !== on) throw bridgeClosed();
      if (socket.readyState === OPEN) break;
      if (closed || Date.now() > deadline) throw bridgeClosed();
      await new Promise<void>((resolve) => setTimeout(resolve, 50));
    }
    return send(frame);
  };

  /**
   * Waits until the socket a file is streamed on can take more. The file's bytes live in that
   * socket's session on the host: if it dropped (even if a new one is up), the file is gone there,
   * so the upload fails with BRIDGE_CLOSED and the user can start it again.
   */
  const drained = async (streamSocket: WebSocketLike, name: string) => {
    const check = () => {
      if (socket !== streamSocket || streamSocket.readyState !== OPEN) {
        throw bridgeClosed(
          `The connection to Tributary dropped while sending ${name}; try the upload again.`,
        );
      }
    };
    check();
    while (streamSocket.bufferedAmount > MAX_BUFFERED_BYTES) {
      await new Promise<void>((resolve) => setTimeout(() => resolve(), 10));
      check();
    }
  };

  const api: Record<string, unknown> = {};
  for (const name of METHOD_NAMES) {
    api[name] = (payload: unknown) => request({ t: 'call', method: name, payload: payload ?? {} });
  }
  api.on = (channel: PushName, listener: (payload: unknown) => void) => {
    if (!isListedPushName(channel)) throw new Error(`Unknown channel ${channel}`);
    const set = listeners.get(channel) ?? new Set();
    listeners.set(channel, set);
    set.add(listener);
    return () => set.delete(listener);
  };
  api.intakeFile = async (file: FileLike): Promise<ChosenFile> => {
    const fileNumber = nextFile++;
    const name = file.name ?? 'pasted-file';
    await request({ t: 'file-begin', file: fileNumber, name, size: file.size });
    const streamSocket = socket;
    try {
      for (let offset = 0; offset < file.size; offset += FILE_CHUNK_BYTES) {
        const bytes = new Uint8Array(
          await file.slice(offset, offset + FILE_CHUNK_BYTES).arrayBuffer(),
        );
        const frame = new Uint8Array(FILE_HEADER_BYTES + bytes.length);
        new DataView(frame.buffer).setUint32(0, fileNumber);
        frame.set(bytes, FILE_HEADER_BYTES);
        await drained(streamSocket, name);
        streamSocket.send(frame);
      }
      await drained(streamSocket, name);
    } catch (error) {
      if (socket === streamSocket && streamSocket.readyState === OPEN)
        streamSocket.send(JSON.stringify({ t: 'file-abort', file: fileNumber }));
      throw error;
    }
    return (await request({ t: 'file-end', file: fileNumber }, streamSocket)) as ChosenFile;
  };
  api.uploadFile = async (accountId: string, file: FileLike) => {
    // Oversized files are refused before their bytes cross the socket.
    await request({
      t: 'call',
      method: 'checkUpload',
      payload: { accountId, name: file.name ?? 'pasted-file', size: file.size },
    });
    const chosen = await (api.intakeFile as (file: FileLike) => Promise<ChosenFile>)(file);
    return request({
      t: 'call',
      method: 'startUpload',
      payload: { accountId, token: chosen.token },
    });
  };
  api.close = () => {
    closed = true;
    socket.close();
  };
  return api as TributaryApi<FileLike> & { close(): void };
}
