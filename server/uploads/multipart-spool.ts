// Streams the file of a POST /user_uploads request to a spool file on disk while @fastify/multipart
// parses the body, so no upload is ever held in memory. app.ts passes spoolMultipartFile(ctx) as
// the plugin's onFile; every other route keeps the plugin's default (buffering, bounded by the
// size limit). The handler then claims the spooled file (takeSpooledFiles) and moves it into place;
// anything left unclaimed when the response ends, including partial files, is deleted.
//
// onFile never throws for the upload route: a second file or an oversized one is drained and
// recorded, so the whole body is read and the handler can answer with the API's own message.
import { createWriteStream } from 'node:fs';
import { rm } from 'node:fs/promises';
import { Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { MultipartFile } from '@fastify/multipart';
import { Authenticator } from '../http/auth';
import { badRequest } from '../http/errors';
import { API_PREFIX } from '../http/router';
import type { RealmContext } from '../realm/context';
import { UploadStorage } from './storage';

export const UPLOAD_ROUTE = `${API_PREFIX}/user_uploads`;

export interface SpooledFile {
  path: string;
  size: number;
  fieldName: string;
  fileName: string;
  mimeType: string;
}

export interface SpoolState {
  files: SpooledFile[];
  /** File parts after the first (drained, never stored). */
  extraFiles: number;
  /** The first file went over max_file_upload_size_mib (drained, never stored). */
  tooLarge: boolean;
}

const spools = new WeakMap<FastifyRequest, SpoolState>();

/**
 * The plugin's onFile, and `settled()`: resolves once no spool file is being written (awaited when
 * the server closes, so that no write reaches the data folder after it).
 */
export function spoolMultipartFile(ctx: RealmContext) {
  const storage = new UploadStorage(ctx.uploadsDir);
  const authenticator = new Authenticator(ctx.db);
  const writing = new Set<Promise<unknown>>();
  const onFile = async function onFile(this: FastifyRequest, part: MultipartFile): Promise<void> {
    if (this.method !== 'POST' || this.routeOptions.url !== UPLOAD_ROUTE) {
      await part.toBuffer();
      return;
    }
    let state = spools.get(this);
    if (!state) {
      state = { files: [], extraFiles: 0, tooLarge: false };
      spools.set(this, state);
    }
    if (state.files.length > 0 || state.tooLarge) {
      state.extraFiles += 1;
      await drain(part);
      return;
    }
    // The route authenticates after the body is parsed; a caller it will reject gets nothing
    // written to disk.
    if (!isAuthenticated(authenticator, this.headers.authorization)) {
      await drain(part);
      return;
    }
    const path = storage.newSpoolPath();
    let size = 0;
    part.file.on('data', (chunk: Buffer) => (size += chunk.length));
    const written = pipeline(part.file, createWriteStream(path, { flags: 'wx' }));
    const tracked = written.catch(() => rm(path, { force: true }));
    writing.add(tracked);
    void tracked.finally(() => writing.delete(tracked));
    try {
      await written;
    } catch {
      await tracked;
      // Almost always the client going away mid-body: a client error, not a server fault.
      throw badRequest('The upload was interrupted');
    }
    if (part.file.truncated) {
      await rm(path, { force: true });
      state.tooLarge = true;
      return;
    }
    state.files.push({
      path,
      size,
      fieldName: part.fieldname,
      fileName: part.filename,
      mimeType: part.mimetype,
    });
  };
  return Object.assign(onFile, {
    settled: async (): Promise<void> => {
      while (writing.size > 0) await Promise.allSettled([...writing]);
    },
  });
}

/** The spool of this request (empty when it carried no file); the caller now owns the files. */
export function takeSpool(request: FastifyRequest): SpoolState {
  const state = spools.get(request) ?? { files: [], extraFiles: 0, tooLarge: false };
  spools.delete(request);
  return state;
}

/**
 * Call before the upload route is declared. Keeps the size limit from failing the whole parse (the
 * route reports it in its own words) and deletes spool files of requests that ended without the
 * handler claiming them.
 */
export function installUploadSpool(app: FastifyInstance, storage: UploadStorage): void {
  app.addHook('onRoute', (route) => {
    const methods = Array.isArray(route.method) ? route.method : [route.method];
    if (route.url !== UPLOAD_ROUTE || !methods.includes('POST')) return;
    // Read by @fastify/multipart per request; its typings list only busboy's own options.
    const multipartOptions = { throwFileSizeLimit: false } as unknown as NonNullable<
      typeof route.config
    >['multipartOptions'];
    route.config = { ...route.config, multipartOptions };
  });
  const release = async (request: FastifyRequest) => {
    const state = spools.get(request);
    if (!state) return;
    spools.delete(request);
    await Promise.all(state.files.map((file) => rm(file.path, { force: true })));
  };
  app.addHook('onResponse', release);
  app.addHook('onRequestAbort', release);
  // Left over from a crash mid-upload; runs before the server listens.
  storage.sweepMultipartStaging();
}

function isAuthenticated(authenticator: Authenticator, header: string | undefined): boolean {
  try {
    authenticator.authenticate(header);
    return true;
  } catch {
    return false;
  }
}

async function drain(part: MultipartFile): Promise<void> {
  await pipeline(
    part.file,
    new Writable({
      write(_chunk, _encoding, callback) {
        callback();
      },
    }),
  );
}
