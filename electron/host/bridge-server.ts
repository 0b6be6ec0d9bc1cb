// The browser-mode end of the WebSocket bridge: accepts a socket only with the per-launch secret and
// from our own origin, runs contract calls through the same dispatcher Electron uses, broadcasts pushes,
// and turns streamed file bytes into temporary files the upload service reads.
import { createWriteStream, mkdirSync, rmSync, type WriteStream } from 'node:fs';
import { join } from 'node:path';
import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import { WebSocketServer, type WebSocket, type RawData } from 'ws';
import type { ClientFrame, HostFrame } from '../../shared/ipc/wire';
import { BRIDGE_PATH, FILE_HEADER_BYTES, MEDIA_COOKIE } from '../../shared/ipc/wire';
import { IpcCodes } from '../../shared/ipc/errors';
import type { Dispatch } from '../ipc/dispatch';
import { knownJsonOf, stringifyWithRawJson } from '../ipc/raw-json';
import type { PushHub } from '../push-hub';
import type { FileIntake } from '../uploads/intake';
import type { MediaCredential } from './media-credential';
import { secretMatches } from './secret';

/** Largest file a socket may stream to the host (the server's own limit is checked later). */
const MAX_STREAMED_FILE_BYTES = 4 * 1024 * 1024 * 1024;

export interface BridgeServerOptions {
  /** The bridge secret, read per handshake (the host settles it when it has its port). */
  secret: () => string;
  /** Origins allowed to open the socket (our own page). */
  allowedOrigins: () => string[];
  /** Host headers the socket may be opened under (a DNS-rebinding page has another). */
  allowedHosts: () => string[];
  /** Issues the page's /media token at each handshake (media-credential.ts). */
  media: MediaCredential;
  dispatch: Dispatch;
  hub: PushHub;
  intake: FileIntake;
  tempDir: string;
}

interface IncomingFile {
  name: string;
  size: number;
  received: number;
  path: string;
  stream: WriteStream;
}

export class BridgeServer {
  private readonly wss = new WebSocketServer({ noServer: true, maxPayload: 8 * 1024 * 1024 });
  private readonly unsubscribe: () => void;

  constructor(private readonly options: BridgeServerOptions) {
    mkdirSync(options.tempDir, { recursive: true, mode: 0o700 });
    this.unsubscribe = options.hub.subscribe((channel, payload) => {
      const json = knownJsonOf(payload);
      const frame =
        json === undefined
          ? JSON.stringify({ t: 'push', channel, payload } satisfies HostFrame)
          : `{"t":"push","channel":${JSON.stringify(channel)},"payload":${json}}`;
      for (const socket of this.wss.clients)
        if (socket.readyState === socket.OPEN) socket.send(frame);
    });
    this.wss.on('connection', (socket) => this.serve(socket));
    // The page proves itself to /media (realm images, meeting audio) with a media token in a
    // cookie, never the bridge secret (media-credential.ts). Set here, on the handshake that has
    // just shown the secret, so page scripts never hold it: HttpOnly, scoped to /media, and
    // SameSite=Strict so no other site's <img> can send it.
    this.wss.on('headers', (headers) => {
      const token = options.media.rotate();
      headers.push(
        `Set-Cookie: ${MEDIA_COOKIE}=${encodeURIComponent(token)}; Path=/media; HttpOnly; SameSite=Strict`,
      );
    });
  }

  /** Called from the HTTP server's 'upgrade' event. Refuses anything but our page with the secret. */
  handleUpgrade(request: IncomingMessage, socket: Duplex, head: Buffer): void {
    const url = new URL(request.url ?? '/', 'http://host.invalid');
    const origin = request.headers.origin ?? '';
    const refuse = (status: number, text: string) => {
      socket.end(`HTTP/1.1 ${status} ${text}\r\nConnection: close\r\nContent-Length: 0\r\n\r\n`);
    };
    if (!this.options.allowedHosts().includes(request.headers.host ?? '')) {
      return refuse(421, 'Misdirected Request');
    }
    if (url.pathname !== BRIDGE_PATH) return refuse(404, 'Not Found');
    if (!this.options.allowedOrigins().includes(origin)) return refuse(403, 'Forbidden');
    if (!secretMatches(url.searchParams.get('secret'), this.options.secret())) {
      return refuse(401, 'Unauthorized');
    }
    this.wss.handleUpgrade(request, socket, head, (ws) => this.wss.emit('connection', ws, request));
  }

  /** Drops every socket (pages reconnect and replay state); used when the host suspends, and by tests. */
  disconnectAll(): void {
    for (const socket of this.wss.clients) socket.terminate();
  }

  close(): void {
    this.unsubscribe();
    for (const socket of this.wss.clients) socket.terminate();
    this.wss.close();
  }

  private serve(socket: WebSocket): void {
    const files = new Map<number, IncomingFile>();
    const send = (frame: HostFrame) => {
      // A text frame also when the answer carries JSON as bytes (the cached snapshot).
      if (socket.readyState === socket.OPEN)
        socket.send(stringifyWithRawJson(frame), { binary: false });
    };
    const fail = (id: number, code: string, msg: string) =>
      send({ t: 'result', id, ok: false, error: { code, msg, status: 400 } });

    socket.on('message', (data: RawData, isBinary: boolean) => {
      if (isBinary) {
        const buffer = Buffer.isBuffer(data) ? data : Buffer.concat(data as Buffer[]);
        const file = files.get(buffer.readUInt32BE(0));
        if (!file) return;
        const chunk = buffer.subarray(FILE_HEADER_BYTES);
        file.received += chunk.length;
        if (file.received > file.size) {
          file.stream.destroy();
          rmSync(file.path, { force: true });
          files.delete(buffer.readUInt32BE(0));
          return;
        }
        file.stream.write(chunk);
        return;
      }
      let frame: ClientFrame;
      try {
        frame = JSON.parse(data.toString()) as ClientFrame;
      } catch {
        return;
      }
      if (frame.t === 'call' && Number.isInteger(frame.id)) {
        void this.options
          .dispatch(frame.method, frame.payload)
          .then((result) => send({ t: 'result', id: frame.id, ...result }));
      } else if (frame.t === 'file-begin') {
        if (
          !Number.isInteger(frame.file) ||
          typeof frame.name !== 'string' ||
          !Number.isInteger(frame.size) ||
          frame.size < 0 ||
          frame.size > MAX_STREAMED_FILE_BYTES
        ) {
          return fail(frame.id, IpcCodes.invalidPayload, 'Bad file header');
        }
        const path = join(this.options.tempDir, `${process.pid}-${Date.now()}-${frame.file}`);
        files.set(frame.file, {
          name: frame.name.slice(0, 255) || 'file',
          size: frame.size,
          received: 0,
          path,
          stream: createWriteStream(path, { mode: 0o600 }),
        });
        send({ t: 'result', id: frame.id, ok: true, value: null });
      } else if (frame.t === 'file-end') {
        const file = files.get(frame.file);
        files.delete(frame.file);
        if (!file) return fail(frame.id, IpcCodes.invalidPayload, 'Unknown file');
        file.stream.end(() => {
          if (file.received !== file.size) {
            rmSync(file.path, { force: true });
            return fail(frame.id, IpcCodes.invalidPayload, 'File ended early');
          }
          const chosen = this.options.intake.register(file.path, {
            name: file.name,
            temporary: true,
          });
          send({ t: 'result', id: frame.id, ok: true, value: chosen });
        });
      } else if (frame.t === 'file-abort') {
        const file = files.get(frame.file);
        files.delete(frame.file);
        file?.stream.destroy();
        if (file) rmSync(file.path, { force: true });
      }
    });
    socket.on('close', () => {
      for (const file of files.values()) {
        file.stream.destroy();
        rmSync(file.path, { force: true });
      }
      files.clear();
    });
  }
}
