// createRealmServer: the local realm server used by the CLI, the tests, the benches and npm start.
// It opens (and migrates) DIR/realm.sqlite3, seeds a fresh folder, mounts every resource module
// under /api/v1 and listens on host:port.
import { STATUS_CODES } from 'node:http';
import type { Socket } from 'node:net';
import Fastify, { type FastifyInstance, type FastifyReply } from 'fastify';
import formbody from '@fastify/formbody';
import multipart from '@fastify/multipart';
import { resolveConfig, type RealmConfig, type RealmServerOptions } from './config';
import { openDatabase, uploadsDir, type Db } from './db';
import { startCheckpointer } from './db/checkpointer';
import { watchTables } from './db/table-cache';
import { EventHub } from './events/hub';
import { Authenticator } from './http/auth';
import { RateLimiter } from './http/rate-limit';
import { ServerTimeBudget } from './http/server-time-budget';
import {
  apiRouteConstraint,
  ApiRouter,
  ApiRouteTable,
  MULTIPART_BODY,
  toApiError,
} from './http/router';
import { ApiError } from './http/errors';
import type { RealmContext } from './realm/context';
import { resources } from './resources';
import { seedRealm } from './seed';
import { spoolMultipartFile } from './uploads/multipart-spool';
import { configureMarkdown } from './markdown/lookup';
import { startDemoServices, type DemoServices } from './demo';
import { releaseMemoryWhenIdle, type IdleRelease } from './memory/idle-release';

export interface RealmServer {
  /** http://host:port, without a trailing slash. */
  url: string;
  host: string;
  port: number;
  ctx: RealmContext;
  app: FastifyInstance;
  db: Db;
  events: EventHub;
  config: RealmConfig;
  /** The demo Echo bot's endpoint and the demo people's presence (server/demo/). */
  demo: DemoServices;
  /** Memory given back after a burst of requests (server/memory/idle-release.ts); null if off. */
  idleRelease: IdleRelease | null;
  close(): Promise<void>;
}

const CACHED_TABLES = [
  'users',
  'user_settings',
  'channels',
  'subscriptions',
  'user_group_members',
  'user_group_subgroups',
  'realm',
  'linkifiers',
  'alert_words',
];

/** A request Node could not parse (over the header limit, malformed): the envelope, then close. */
function writeClientError(error: Error & { code?: string }, socket: Socket): void {
  if (error.code === 'ECONNRESET' || socket.destroyed) return;
  const [status, msg] =
    error.code === 'HPE_HEADER_OVERFLOW'
      ? [431, 'Request URL or headers too large']
      : error.code === 'ERR_HTTP_REQUEST_TIMEOUT'
        ? [408, 'Request timed out']
        : [400, 'Malformed request'];
  const body = JSON.stringify(new ApiError('BAD_REQUEST', msg, status).body());
  if (socket.writable) {
    socket.write(
      `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\nContent-Length: ${Buffer.byteLength(body)}\r\n` +
        `Content-Type: application/json\r\nConnection: close\r\n\r\n${body}`,
    );
  }
  socket.destroy(error);
}

export async function createRealmServer(options: RealmServerOptions): Promise<RealmServer> {
  const config = resolveConfig(options);
  const db = openDatabase(config.dataDir);
  // The tables behind the caches of hot lookups (db/table-cache.ts): watched from the start, so the
  // caches on the send path, first used inside its transaction, can store at once.
  watchTables(db, CACHED_TABLES);
  const events = new EventHub(config);
  const ctx: RealmContext = {
    db,
    config,
    events,
    dataDir: config.dataDir,
    uploadsDir: uploadsDir(config.dataDir),
    realmUrl: '',
    nowSeconds: () => Math.floor(Date.now() / 1000),
  };

  // The API's routes, which ApiRouter serves from two catch-alls (router.ts, ApiRouteTable).
  const apiRoutes = new ApiRouteTable();
  const apiRoute = apiRouteConstraint(apiRoutes);
  const app = Fastify({
    logger: config.logRequests,
    bodyLimit: config.bodyLimitBytes,
    // Long-polls would otherwise hold close() until their heartbeat.
    forceCloseConnections: true,
    // Clients behind the Electron main process may keep connections open for a long time.
    keepAliveTimeout: 120_000,
    requestTimeout: 0,
    // Fastify's and Node's own answers (a bad percent-encoding, a URL over the header limit) keep
    // the API's error envelope, so a client reads every refusal the same way.
    frameworkErrors: (error, _request, reply) => {
      const status = error.statusCode && error.statusCode < 500 ? error.statusCode : 400;
      const apiError = new ApiError('BAD_REQUEST', 'Malformed request URL', status);
      // Typed for generic route schemas; this reply is a plain JSON one.
      void (reply as unknown as FastifyReply).code(status).send(apiError.body());
    },
    clientErrorHandler: writeClientError,
    routerOptions: {
      constraints: {
        [MULTIPART_BODY.name]: MULTIPART_BODY,
        [apiRoute.name]: apiRoute,
      },
    },
  });
  await app.register(formbody, { bodyLimit: config.bodyLimitBytes });
  const onFile = spoolMultipartFile(ctx);
  // Spool files still being written (connections force-closed mid-upload) finish or go first.
  app.addHook('onClose', () => onFile.settled());

  app.setErrorHandler((error, request, reply) => {
    const apiError = toApiError(error, request);
    if (apiError.status >= 500) request.log.error(error);
    if (apiError.status >= 500 && !config.logRequests) console.error(error);
    void reply.code(apiError.status).headers(apiError.headers).send(apiError.body());
  });
  app.setNotFoundHandler((_request, reply) => {
    const notFound = new ApiError('BAD_REQUEST', 'Not Found', 404);
    void reply.code(404).send(notFound.body());
  });

  // The API is mounted twice (ApiRouter: its catch-all and the routes of their own): in `plain`, and
  // in `multipartScope` for requests whose body is multipart. @fastify/multipart's three hooks (and
  // the upload spool's two), which every request ran, polls included, run only for those.
  await app.register(async (plain) => {
    await plain.register(async (multipartScope) => {
      await multipartScope.register(multipart, {
        // Fields become request.body entries the parameter layer reads; files are buffered there
        // too, bounded by max_file_upload_size_mib, except POST /user_uploads, whose file is
        // streamed to disk.
        attachFieldsToBody: true,
        onFile,
        limits: {
          fileSize: config.maxFileUploadSizeMib * 1024 * 1024,
          fieldSize: config.bodyLimitBytes,
          files: 10,
          fields: 1000,
        },
      });
      const api = new ApiRouter(
        plain,
        new Authenticator(db),
        config.rateLimit ? new RateLimiter(config.rateLimit) : null,
        config.serverTimeBudget ? new ServerTimeBudget(config.serverTimeBudget) : null,
        () => events.bytesQueued,
        multipartScope,
        apiRoutes,
      );
      for (const resource of resources) resource.routes(api, ctx);
    });
  });

  await seedRealm(ctx, config.seed, config.largeScale);
  // Started once nothing before listen can fail, so a failed start leaves no worker behind.
  const checkpointer = startCheckpointer(db, undefined, config.checkpointerDelayMs);

  let address: string;
  try {
    address = await app.listen({ host: config.host, port: config.port });
  } catch (error) {
    await checkpointer.stop();
    db.close();
    throw error;
  }
  const port = Number(new URL(address).port);
  const host = config.host;
  const url = `http://${host.includes(':') ? `[${host}]` : host}:${port}`;
  ctx.realmUrl = url;
  configureMarkdown(db, { realmUrl: url, camo: config.camo });
  // Before the background work, so a delivery at start already finds the echo bot's new port.
  const demo = await startDemoServices(ctx);
  events.start();
  const stopBackgroundWork = resources.flatMap((resource) => resource.start?.(ctx) ?? []);
  const idleRelease =
    config.idleReleaseMs > 0 ? releaseMemoryWhenIdle(app.server, db, config.idleReleaseMs) : null;

  let closed = false;
  return {
    url,
    host,
    port,
    ctx,
    app,
    db,
    events,
    config,
    demo,
    idleRelease,
    async close() {
      if (closed) return;
      closed = true;
      for (const stop of stopBackgroundWork) stop();
      idleRelease?.stop();
      await demo.close();
      events.stop();
      await app.close();
      await checkpointer.stop();
      db.close();
    },
  };
}
