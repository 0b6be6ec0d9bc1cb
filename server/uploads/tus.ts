// The resumable upload endpoint /api/v1/tus: the tus protocol (@tus/server with @tus/file-store)
// behind HTTP Basic auth. Fastify only routes and authenticates; the body is left unread for tus.
//
// Rules on top of the protocol (api-notes §8): the length is declared up front (deferred length:
// 411), max_file_upload_size_mib bounds it (413, from tus maxSize), an upload belongs to the user
// who created it (anyone else: 404), and the request that completes it gets HTTP 200 JSON
// {url, filename} and creates the attachment. The finished file is hard-linked to its path_id, so
// HEAD still reports the full offset; terminating it is refused once the attachment exists.
// Uploads (finished or not) are forgotten after TUS_EXPIRY_MS.
//
// Start-up and shutdown: @tus/file-store's constructor starts an mkdir of its folder without
// awaiting it, whose failure (the data folder removed meanwhile) is thrown from a callback, i.e.
// an uncaught exception that ends the process. We create the folder ourselves (awaited) and
// construct a store that skips its own mkdir; close() waits for tus requests and sweeps in flight
// so nothing touches the folder after the server has closed.
//
// @tus/server and @tus/file-store are loaded at the first tus request (or the first sweep), not
// with the server: with them came srvx, whose top level reaches for globalThis.Headers and so
// loads Node's own fetch (undici), about 30 ms of a first launch's realm before it listens that
// no first screen uses (docs/benchmarks.md, start-up, eleventh pass).
import { randomBytes } from 'node:crypto';
import { mkdir, rm } from 'node:fs/promises';
import { join } from 'node:path';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Locker, Server as TusServer, Upload } from '@tus/server';
import type { FileStore } from '@tus/file-store';
import { ApiError, badRequest, notFound } from '../http/errors';
import type { Authenticator } from '../http/auth';
import { API_PREFIX } from '../http/router';
import type { RealmContext } from '../realm/context';
import { attachmentByPathId } from './attachments';
import { TusArrivalOrder } from './tus-arrival-order';
import {
  REALM_ID,
  displayFileName,
  sanitizeFileName,
  uploadUrl,
  type UploadStorage,
} from './storage';

export const TUS_PATH = `${API_PREFIX}/tus`;
const TUS_EXPIRY_MS = 24 * 60 * 60 * 1000;
const TUS_SWEEP_INTERVAL_MS = 60 * 60 * 1000;
const TUS_ID = /^[0-9a-f]{32}$/;

export interface StoredUpload {
  url: string;
  filename: string;
}

export interface TusDependencies {
  ctx: RealmContext;
  storage: UploadStorage;
  authenticator: Authenticator;
  /** Authenticates a tus request and counts it against the API rate limit (the API router's). */
  authenticateAndCount(request: FastifyRequest): {
    user: { id: number };
    headers: Record<string, string>;
  };
  /** Creates the attachment for a finished file already placed at pathId. */
  recordUpload(upload: {
    ownerId: number;
    name: string;
    pathId: string;
    size: number;
    contentType: string | undefined;
  }): void | Promise<void>;
}

/** The path_id of a tus upload: its id is the random segment, which makes completion idempotent. */
function tusPathId(uploadId: string, name: string): string {
  return `${REALM_ID}/${uploadId.slice(0, 2)}/${uploadId}/${sanitizeFileName(name)}`;
}

/** Whether a tus upload already produced an attachment. */
function attachmentExistsFor(ctx: RealmContext, uploadId: string): boolean {
  const row = ctx.db
    .prepare('SELECT 1 FROM attachments WHERE path_id LIKE ? LIMIT 1')
    .get(`${REALM_ID}/${uploadId.slice(0, 2)}/${uploadId}/%`);
  return row !== undefined;
}

type TusServerOptions = ConstructorParameters<typeof TusServer>[0];

interface TusModules {
  /** tus's server whose error bodies are the API's envelope. */
  createServer(options: TusServerOptions): TusServer;
  /** tus's own in-memory lock table. */
  createMemoryLocker(): Locker;
  /** A FileStore for a folder that already exists. */
  createStore(directory: string): FileStore;
}

let tusModules: Promise<TusModules> | null = null;

function loadTus(): Promise<TusModules> {
  tusModules ??= Promise.all([import('@tus/server'), import('@tus/file-store')]).then(
    ([{ Server, MemoryLocker }, { FileStore }]) => {
      /**
       * tus answers its errors (413 "Maximum size exceeded", 404, 400 "Invalid …", 412, 409, 410)
       * in plain text; every response of this API is the JSON envelope of spec 2.1, so error
       * bodies are rewritten here, the one place all of them pass, keeping tus's status and its
       * words as msg.
       */
      class EnvelopeTusServer extends Server {
        override write(...[context, headers, status, body]: Parameters<TusServer['write']>) {
          if (status < 400) return super.write(context, headers, status, body);
          const msg = (body ?? '').trim() || 'Upload request failed';
          const error = new ApiError(
            status >= 500 ? 'INTERNAL_SERVER_ERROR' : 'BAD_REQUEST',
            msg,
            status,
          );
          headers.set('Content-Type', 'application/json');
          return super.write(context, headers, status, JSON.stringify(error.body()));
        }
      }
      /** No unawaited mkdir in the constructor: the folder is made (awaited) before. */
      class ExistingFolderFileStore extends FileStore {}
      // checkOrCreateDirectory is private in the typings, so it is replaced on the prototype.
      (
        ExistingFolderFileStore.prototype as unknown as { checkOrCreateDirectory(): void }
      ).checkOrCreateDirectory = () => undefined;
      return {
        createServer: (options) => new EnvelopeTusServer(options),
        createMemoryLocker: () => new MemoryLocker(),
        createStore(directory) {
          const store = new ExistingFolderFileStore({
            directory,
            expirationPeriodInMilliseconds: TUS_EXPIRY_MS,
          });
          // Deferred lengths are refused (411), so OPTIONS must not advertise them.
          store.extensions = store.extensions.filter((name) => name !== 'creation-defer-length');
          return store;
        },
      };
    },
  );
  return tusModules;
}

export function mountTus(app: FastifyInstance, deps: TusDependencies): void {
  const { ctx, storage, authenticator } = deps;
  // Both are made at the first tus request or sweep, after the plugin below made the folder.
  let tusReady: Promise<{ store: FileStore; tus: TusServer }> | null = null;
  let folderMade: Promise<unknown> = Promise.resolve();
  const loaded = () => {
    tusReady ??= Promise.all([loadTus(), folderMade]).then(([modules]) => {
      const store = modules.createStore(storage.tusStaging);
      return { store, tus: createTusServer(modules, store) };
    });
    return tusReady;
  };
  const arrivalOrder = new TusArrivalOrder();
  const inFlight = new Set<Promise<unknown>>();
  const track = (work: Promise<unknown>): Promise<unknown> => {
    const settled = work.catch(() => undefined);
    inFlight.add(settled);
    void settled.finally(() => inFlight.delete(settled));
    return work;
  };

  const createTusServer = (modules: TusModules, store: FileStore): TusServer =>
    modules.createServer({
      path: TUS_PATH,
      datastore: store,
      locker: arrivalOrder.locker(modules.createMemoryLocker()),
      relativeLocation: true,
      // Like the rest of the API, no cross-origin access (tus would otherwise answer with '*').
      allowedOrigins: [],
      maxSize: ctx.config.maxFileUploadSizeMib * 1024 * 1024,
      disableTerminationForFinishedUploads: true,
      namingFunction: () => randomBytes(16).toString('hex'),
      async onUploadCreate(req, upload) {
        // Authenticated by the route before tus runs; the owner rides along in the upload's metadata.
        const user = authenticator.authenticate(req.headers.get('authorization') ?? undefined);
        return { metadata: { ...upload.metadata, owner_id: String(user.id) } };
      },
      async onUploadFinish(_req, upload) {
        const stored = await finish(upload);
        return {
          status_code: 200,
          headers: { 'Content-Type': 'application/json' },
          body: JSON.stringify(stored),
        };
      },
    });

  async function finish(upload: Upload): Promise<StoredUpload> {
    const name = displayFileName(upload.metadata?.filename ?? undefined);
    const pathId = tusPathId(upload.id, name);
    const existing = attachmentByPathId(ctx.db, pathId);
    if (existing) return { url: uploadUrl(pathId), filename: existing.file_name };
    await storage.place(join(storage.tusStaging, upload.id), pathId, true);
    try {
      await deps.recordUpload({
        ownerId: Number(upload.metadata?.owner_id),
        name,
        pathId,
        size: upload.size ?? upload.offset,
        contentType: upload.metadata?.filetype ?? undefined,
      });
    } catch (error) {
      await storage.remove(pathId);
      throw error;
    }
    return { url: uploadUrl(pathId), filename: name };
  }

  async function handle(request: FastifyRequest, reply: FastifyReply): Promise<void> {
    // CORS preflights carry no credentials; tus answers them itself.
    if (request.method !== 'OPTIONS') {
      // Counted like every API request: a refused caller against its IP, a known one as itself.
      const { user, headers } = deps.authenticateAndCount(request);
      for (const [name, value] of Object.entries(headers)) reply.raw.setHeader(name, value);
      if (request.method === 'POST' && request.headers['upload-defer-length'] !== undefined) {
        throw new ApiError('BAD_REQUEST', 'SizeIsDeferred is not supported', 411);
      }
      const uploadId = (request.params as { upload_id?: string }).upload_id;
      if (uploadId !== undefined) {
        const turn = arrivalOrder.join(uploadId, request.raw);
        try {
          await turn.ready;
          await checkUpload(uploadId, user.id, request.method);
        } catch (error) {
          turn.leave();
          throw error;
        }
        return run(request, reply, turn.leave);
      }
    }
    return run(request, reply, () => undefined);
  }

  async function run(request: FastifyRequest, reply: FastifyReply, done: () => void) {
    reply.hijack();
    // A request whose connection dropped may leave tus's promise pending forever; its response
    // closing is enough for close() not to wait on it.
    const closed = new Promise<void>((resolve) => reply.raw.once('close', () => resolve()));
    const { tus } = await loaded();
    const handled = tus.handle(request.raw, reply.raw);
    const settled = Promise.race([handled, closed]);
    void settled.finally(done).catch(() => undefined);
    void track(settled);
    await handled;
  }

  async function checkUpload(uploadId: string, userId: number, method: string): Promise<void> {
    if (!TUS_ID.test(uploadId)) throw notFound('Upload not found');
    const { store } = await loaded();
    const upload = await store.getUpload(uploadId).catch(() => null);
    if (!upload) return; // tus answers 404 / 410 in its own words
    if (upload.metadata?.owner_id !== String(userId)) throw notFound('Upload not found');
    if (method === 'DELETE' && attachmentExistsFor(ctx, uploadId)) {
      throw badRequest('Cannot terminate an upload whose file has been stored');
    }
    if (method === 'PATCH' && upload.size !== undefined && upload.offset === upload.size) {
      throw badRequest('This upload is already complete');
    }
  }

  void app.register(async (scope) => {
    folderMade = mkdir(storage.tusStaging, { recursive: true });
    await folderMade;
    // tus reads the raw body itself: accept every content type without reading it.
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser('*', (_request, _payload, done) => done(null));
    const methods = ['POST', 'HEAD', 'PATCH', 'DELETE', 'OPTIONS'];
    scope.route({ method: methods, url: TUS_PATH, handler: handle });
    scope.route({ method: methods, url: `${TUS_PATH}/:upload_id`, handler: handle });
  });

  const sweep = setInterval(() => {
    void track(loaded().then(({ tus }) => tus.cleanUpExpiredUploads()));
  }, TUS_SWEEP_INTERVAL_MS);
  sweep.unref();
  app.addHook('onClose', async () => {
    clearInterval(sweep);
    await Promise.all(inFlight);
  });
}

/** Drops the staging copy of a tus upload whose attachment is being deleted. */
export async function removeTusCopy(storage: UploadStorage, pathId: string): Promise<void> {
  const uploadId = pathId.split('/')[2] ?? '';
  if (!TUS_ID.test(uploadId)) return;
  await rm(join(storage.tusStaging, uploadId), { force: true });
  await rm(join(storage.tusStaging, `${uploadId}.json`), { force: true });
}
