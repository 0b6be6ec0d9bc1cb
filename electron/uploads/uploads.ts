// Uploads to the chat server with progress: multipart POST /user_uploads for ordinary files, the
// resumable tus endpoint (/api/v1/tus) at or above a size threshold, which survives a dropped
// connection by resuming from the server's offset. Files over max_file_upload_size_mib are refused
// before a byte is sent. Each file goes with its real media type (its first bytes, else its name):
// the public server keeps the declared type and previews only images declared as images.
import { closeSync, createReadStream, openSync, readSync } from 'node:fs';
import { request as httpRequest, type ClientRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { randomBytes } from 'node:crypto';
import type * as Tus from 'tus-js-client';
import type { UploadProgress } from '../../shared/ipc/uploads';
import { IpcCodes } from '../../shared/ipc/errors';
import { endpoints } from '../../shared/api/endpoints';
import type { ApiClient } from '../api/client';
import { ApiError } from '../api/errors';
import { detectMediaType, SNIFF_BYTES } from '../../shared/media-types';
import type { FileIntake, IntakeEntry } from './intake';

export const DEFAULT_TUS_THRESHOLD_BYTES = 20 * 1024 * 1024;
const TUS_CHUNK_BYTES = 5 * 1024 * 1024;

export interface UploadTarget {
  accountId: string;
  client: ApiClient;
  /** From the account's register response. */
  maxFileUploadSizeMib: number;
}

export interface UploadManagerOptions {
  intake: FileIntake;
  onProgress: (progress: UploadProgress) => void;
  tusThresholdBytes?: number;
  tusChunkBytes?: number;
  /** Delays between tus retries after a dropped connection. */
  tusRetryDelaysMs?: number[];
}

interface ActiveUpload {
  progress: UploadProgress;
  cancel: () => void;
}

/**
 * Ended uploads stay listed this long: a page whose bridge socket dropped missed their last push and
 * replays the list when it reconnects (shared/ipc/bridge-client.ts).
 */
const ENDED_KEPT_MS = 10 * 60_000;
const ENDED_KEPT_MAX = 50;

export class UploadManager {
  private readonly uploads = new Map<string, ActiveUpload>();
  private ended: Array<{ progress: UploadProgress; at: number }> = [];

  constructor(private readonly options: UploadManagerOptions) {}

  /** Uploads in flight, then those that ended in the last few minutes (done, failed, cancelled). */
  list(): UploadProgress[] {
    const since = Date.now() - ENDED_KEPT_MS;
    this.ended = this.ended.filter((entry) => entry.at >= since).slice(-ENDED_KEPT_MAX);
    return [
      ...[...this.uploads.values()].map((upload) => ({ ...upload.progress })),
      ...this.ended.map((entry) => ({ ...entry.progress })),
    ];
  }

  /**
   * Starts an upload; resolves to its id at once (progress and the result arrive as pushes). `group`
   * tags uploads that belong together (a shared meeting's files) in their progress.
   */
  start(
    target: UploadTarget,
    token: string,
    group?: string,
  ): { uploadId: string; done: Promise<UploadProgress> } {
    const file = this.options.intake.get(token);
    if (!file) throw new ApiError('server', 'BAD_REQUEST', 'Unknown file token');
    try {
      checkUploadSize(file.name, file.size, target.maxFileUploadSizeMib);
    } catch (error) {
      this.options.intake.release(token);
      throw error;
    }
    const type = fileMediaType(file);
    const uploadId = randomBytes(12).toString('base64url');
    const useTus = file.size >= (this.options.tusThresholdBytes ?? DEFAULT_TUS_THRESHOLD_BYTES);
    const upload: ActiveUpload = {
      progress: {
        uploadId,
        accountId: target.accountId,
        name: file.name,
        loaded: 0,
        total: file.size,
        state: 'uploading',
        method: useTus ? 'tus' : 'multipart',
        ...(group ? { group } : {}),
      },
      cancel: () => undefined,
    };
    this.uploads.set(uploadId, upload);
    this.emit(upload);
    const done = (
      useTus
        ? this.viaTus(target, file, type, upload)
        : this.viaMultipart(target, file, type, upload)
    )
      .then((result) => {
        if (upload.progress.state !== 'uploading') return;
        upload.progress = {
          ...upload.progress,
          state: 'done',
          loaded: file.size,
          url: result.url,
          filename: result.filename ?? file.name,
        };
      })
      .catch((error: unknown) => {
        if (upload.progress.state !== 'uploading') return;
        const shape =
          error instanceof ApiError
            ? { code: error.code, msg: error.message }
            : {
                code: 'UPLOAD_FAILED',
                msg: error instanceof Error ? error.message : String(error),
              };
        upload.progress = { ...upload.progress, state: 'failed', error: shape };
      })
      .then(() => {
        this.options.intake.release(token);
        this.emit(upload);
        this.uploads.delete(uploadId);
        this.ended.push({ progress: { ...upload.progress }, at: Date.now() });
        return { ...upload.progress };
      });
    return { uploadId, done };
  }

  cancel(uploadId: string): void {
    const upload = this.uploads.get(uploadId);
    if (!upload || upload.progress.state !== 'uploading') return;
    upload.progress = { ...upload.progress, state: 'cancelled' };
    upload.cancel();
    this.emit(upload);
  }

  private emit(upload: ActiveUpload): void {
    this.options.onProgress({ ...upload.progress });
  }

  /** Progress never goes backwards, even when tus rewinds to the server's offset after a drop. */
  private report(upload: ActiveUpload, loaded: number): void {
    if (upload.progress.state !== 'uploading' || loaded <= upload.progress.loaded) return;
    upload.progress = { ...upload.progress, loaded: Math.min(loaded, upload.progress.total) };
    this.emit(upload);
  }

  private viaMultipart(
    target: UploadTarget,
    file: IntakeEntry,
    type: string,
    upload: ActiveUpload,
  ): Promise<{ url: string; filename?: string }> {
    return new Promise((resolve, reject) => {
      const boundary = `----tributary${randomBytes(12).toString('hex')}`;
      const safeName = file.name.replace(/["\r\n\\]/g, '_');
      const head = Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${safeName}"\r\n` +
          `Content-Type: ${type}\r\n\r\n`,
      );
      const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
      const url = new URL(`${target.client.apiBase}/user_uploads`);
      const send = url.protocol === 'https:' ? httpsRequest : httpRequest;
      const req: ClientRequest = send(url, {
        method: 'POST',
        headers: {
          authorization: target.client.authorizationHeader() ?? '',
          'content-type': `multipart/form-data; boundary=${boundary}`,
          'content-length': String(head.length + file.size + tail.length),
          accept: 'application/json',
        },
      });
      upload.cancel = () => req.destroy(new ApiError('aborted', 'ABORTED', 'Upload cancelled'));
      req.on('error', (error) =>
        reject(
          error instanceof ApiError
            ? error
            : new ApiError('network', 'NETWORK_ERROR', `Upload failed: ${error.message}`),
        ),
      );
      req.on('response', (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () => {
          const response = new Response(Buffer.concat(chunks), {
            status: res.statusCode ?? 500,
            headers: { 'content-type': String(res.headers['content-type'] ?? '') },
          });
          target.client
            .readResponse(response)
            .then((body) => resolve(body as { url: string; filename?: string }), reject);
        });
      });
      req.write(head);
      let written = 0;
      const stream = createReadStream(file.path, { highWaterMark: 64 * 1024 });
      stream.on('data', (chunk) => {
        const ok = req.write(chunk, () => {
          written += chunk.length;
          this.report(upload, written);
        });
        if (!ok) {
          stream.pause();
          req.once('drain', () => stream.resume());
        }
      });
      stream.on('error', (error) => req.destroy(error));
      stream.on('end', () => req.end(tail));
    });
  }

  private viaTus(
    target: UploadTarget,
    file: IntakeEntry,
    type: string,
    upload: ActiveUpload,
  ): Promise<{ url: string; filename?: string }> {
    const startedAt = Date.now();
    // Loaded by the first large upload, not at start (about 3% of the launcher's CPU to its URL).
    return import('tus-js-client').then(
      (tus) =>
        new Promise((resolve, reject) => {
          // Cancelled while the module loaded: nothing was sent.
          if (upload.progress.state !== 'uploading')
            return reject(new ApiError('aborted', 'ABORTED', 'Upload cancelled'));
          const tusUpload = new tus.Upload(createReadStream(file.path), {
            endpoint: `${target.client.apiBase}/tus`,
            headers: { Authorization: target.client.authorizationHeader() ?? '' },
            metadata: { filename: file.name, filetype: type },
            uploadSize: file.size,
            chunkSize: this.options.tusChunkBytes ?? TUS_CHUNK_BYTES,
            retryDelays: this.options.tusRetryDelaysMs ?? [0, 500, 1000, 2000, 4000, 8000],
            onProgress: (sent) => this.report(upload, sent),
            onError: (error) => {
              const status = (error as Tus.DetailedError).originalResponse?.getStatus();
              const body = (error as Tus.DetailedError).originalResponse?.getBody();
              let parsed: { code?: string; msg?: string } = {};
              try {
                parsed = body ? (JSON.parse(body) as typeof parsed) : {};
              } catch {
                parsed = {};
              }
              reject(
                status
                  ? new ApiError(
                      status === 401 ? 'auth' : 'server',
                      parsed.code ?? (status === 413 ? IpcCodes.fileTooLarge : `HTTP_${status}`),
                      parsed.msg ?? error.message,
                      status,
                    )
                  : new ApiError('network', 'NETWORK_ERROR', error.message),
              );
            },
            onSuccess: (payload) => {
              const text = payload?.lastResponse?.getBody?.() ?? '';
              let body: { url?: string; filename?: string } = {};
              try {
                body = JSON.parse(text) as typeof body;
              } catch {
                // no JSON: the completing PATCH's answer was lost (below)
              }
              if (body.url) return resolve({ url: body.url, filename: body.filename });
              // tus-js-client resumed after the last PATCH's answer was lost, found the offset at the end
              // and succeeded on the body-less HEAD. The server did create the attachment: look it up
              // rather than hand the renderer the tus URL, which is not a file link.
              findFinishedTusUpload(target.client, tusUpload.url, file, startedAt).then(
                resolve,
                reject,
              );
            },
          });
          upload.cancel = () => {
            void tusUpload.abort(true).catch(() => undefined);
            reject(new ApiError('aborted', 'ABORTED', 'Upload cancelled'));
          };
          tusUpload.start();
        }),
    );
  }
}

/** A chosen file's media type from its first bytes and its name. */
export function fileMediaType(file: Pick<IntakeEntry, 'name' | 'path'>): string {
  const head = new Uint8Array(SNIFF_BYTES);
  let read = 0;
  try {
    const fd = openSync(file.path, 'r');
    try {
      read = readSync(fd, head, 0, SNIFF_BYTES, 0);
    } finally {
      closeSync(fd);
    }
  } catch {
    // Unreadable now: the upload itself reports that; the name still gives a type.
  }
  return detectMediaType(file.name, head.subarray(0, read));
}

/** How far the server's clock may be behind ours when matching an attachment by its create_time. */
const CLOCK_SKEW_MS = 5 * 60_000;

/**
 * The attachment a finished tus upload created, for when its completing answer was lost. The local
 * realm server's path_id holds the tus upload id (server/uploads/tus.ts), which identifies it exactly;
 * for other servers, the newest attachment with the same name and size created since the upload began.
 */
async function findFinishedTusUpload(
  client: ApiClient,
  tusUrl: string | null,
  file: IntakeEntry,
  startedAt: number,
): Promise<{ url: string; filename: string }> {
  const tusId = tusUrl
    ? new URL(tusUrl, client.apiBase).pathname.split('/').filter(Boolean).at(-1)
    : undefined;
  const { attachments } = await client.call(endpoints.getAttachments, {});
  const found =
    (tusId && attachments.find((a) => a.path_id.split('/').includes(tusId))) ||
    attachments
      .filter(
        (a) =>
          a.name === file.name &&
          a.size === file.size &&
          a.create_time >= startedAt - CLOCK_SKEW_MS,
      )
      .sort((a, b) => b.create_time - a.create_time)[0];
  if (!found) {
    throw new ApiError(
      'server',
      'UPLOAD_FAILED',
      `${file.name} was sent, but the server did not say where it is stored; upload it again.`,
    );
  }
  const path = found.path_id.split('/').map(encodeURIComponent).join('/');
  return { url: `/user_uploads/${path}`, filename: found.name };
}

/** Throws FILE_TOO_LARGE, with a message for the user, when a file exceeds the server's limit. */
export function checkUploadSize(name: string, size: number, limitMib: number): void {
  if (size <= limitMib * 1024 * 1024) return;
  throw new ApiError(
    'server',
    IpcCodes.fileTooLarge,
    `${name} is ${formatMib(size)}; this server accepts files up to ${limitMib} MiB.`,
    413,
  );
}

function formatMib(bytes: number): string {
  return `${(bytes / 1024 / 1024).toFixed(1)} MiB`;
}
