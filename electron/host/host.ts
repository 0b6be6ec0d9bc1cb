// Browser mode: a Node process runs the same main-process services, serves the built renderer
// (dist/renderer) with the app's CSP, and the WebSocket bridge, on 127.0.0.1 only. A secret generated
// per launch travels in the URL fragment (never sent in HTTP requests) and the bridge requires it.
// `npm start` binds the socket before this module loads (early-listener.mjs) and hands it over.
import { join } from 'node:path';
import { tmpdir } from 'node:os';
import Fastify, { type FastifyInstance, type FastifyReply, type FastifyRequest } from 'fastify';
import { createDispatcher } from '../ipc/dispatch';
import { PushHub } from '../push-hub';
import { MainServices, type MainServicesOptions } from '../services';
import { warmHttpClient } from '../api/client';
import { BridgeServer } from './bridge-server';
import { MediaCredential } from './media-credential';
import { writeLaunchRecord } from './launch-record';
import { launchUrl, listenForLaunch, type LaunchListener } from './early-listener.mjs';
import { MEDIA_COOKIE, UNSENT_HANDOVER_PATH } from '../../shared/ipc/wire';
import { clearingCookies, importUnsent } from './unsent-handover';
import { contentSecurityPolicy, SECURITY_HEADERS } from './csp';
import { registerMeetingAudioRoute } from '../manifest-service';
import { StaticFiles, type StaticFile } from './static-files';
import { registerFirstScreenRoute } from './first-screen-route';
import { logTiming } from '../timing';

/**
 * With `startSessionsAfterUrl`, how long the sessions wait for a page at most: a launch nobody
 * opens a page for (`--no-open`) still connects its accounts (notifications, background sync).
 */
const SESSIONS_WITHOUT_PAGE_MS = 1_000;

/**
 * The host's routes declare no JSON schemas, so fastify's default compilers (ajv and
 * fast-json-stringify, set up when the instance is made: about an eighth of the launcher's CPU
 * to its URL) are never needed. A route that declared one
 * would fail at registration, loudly.
 */
const NO_SCHEMAS = {
  compilersFactory: {
    buildValidator: () => () => {
      throw new Error('the browser-mode host validates no schemas');
    },
    buildSerializer: () => () => {
      throw new Error('the browser-mode host serializes with no schemas');
    },
  },
};

export interface BrowserHostOptions extends Omit<
  MainServicesOptions,
  'push' | 'appInfo' | 'openExternal'
> {
  rendererDir: string;
  port?: number;
  /**
   * Reuse the last launch's port and bridge secret (launch-record.ts) so pages left open reconnect;
   * `npm start` sets it. Falls back to a fresh port and secret when that port is taken.
   */
  resumeLastLaunch?: boolean;
  /** Opens links (xdg-open); default: do nothing. */
  openExternal?: (url: string) => Promise<void> | void;
  version?: string;
  /**
   * The socket the launcher bound before loading the host (early-listener.mjs): the host serves
   * on it, with its port and secret, instead of binding one (`port` and `resumeLastLaunch` were
   * applied when it was bound).
   */
  listening?: LaunchListener;
  /**
   * Awaited after the host listens and before the accounts' sessions start (the launcher waits
   * for the local realm server's process here, which may move an account to another port).
   */
  beforeServicesStart?: (services: MainServices) => Promise<unknown>;
  /**
   * Settles once a first launch has signed in from the build's seed (and so holds the build's
   * first screens): the page's GET /first-screen waits for it (first-screen-route.ts).
   */
  firstScreenAfter?: Promise<unknown>;
  /**
   * Start the accounts' sessions once the page has its script rather than before startBrowserHost
   * resolves: the launcher prints the URL first, serves the page and its first files, and only
   * then starts the sessions (each account's cache opened, its first register request, Node's
   * fetch loaded: synchronous work that would hold those files up), while the browser parses and
   * runs the script. They start when the page's scripts have been sent, a page opens the bridge, or
   * `startSessions()` is called, whichever comes first, and at the latest a second after the
   * host listens. The pages' calls wait for them. `npm start` sets it.
   */
  startSessionsAfterUrl?: boolean;
}

export interface BrowserHost {
  url: string;
  port: number;
  secret: string;
  services: MainServices;
  hub: PushHub;
  /**
   * Starts the accounts' sessions now (in turns) if they wait for a page
   * (`startSessionsAfterUrl`); the pages' calls wait for them.
   */
  startSessions(): void;
  /** Drops the pages' bridge sockets; they reconnect and replay the current state. */
  disconnectPages(): void;
  close(): Promise<void>;
}

export async function startBrowserHost(options: BrowserHostOptions): Promise<BrowserHost> {
  const listener =
    options.listening ??
    (await listenForLaunch({
      port: options.port,
      dataDir: options.dataDir,
      resumeLastLaunch: options.resumeLastLaunch,
    }));
  const { port, secret, last } = listener;
  const hub = new PushHub();
  const services = new MainServices({
    ...options,
    push: hub.push,
    appInfo: {
      runtime: 'browser',
      version: options.version ?? '0.0.0',
      platform: process.platform,
    },
    openExternal: options.openExternal ?? (() => undefined),
  });
  const origins = () => [`http://127.0.0.1:${port}`, `http://localhost:${port}`];
  const hosts = () => [`127.0.0.1:${port}`, `localhost:${port}`];
  const media = new MediaCredential();
  let markSessionsStarted = () => {};
  const sessionsStarted = new Promise<void>((resolve) => (markSessionsStarted = resolve));
  // Until the sessions may start (beforeServicesStart done), a page's request is noted.
  let pageAsked = false;
  let startSessionsForPage = () => {
    pageAsked = true;
  };
  const handle = createDispatcher(services.handlers);
  // Until the accounts' sessions run, every account would read as unknown.
  const dispatch: typeof handle = (method, payload) =>
    sessionsStarted.then(() => handle(method, payload));
  const bridge = new BridgeServer({
    secret: () => secret,
    allowedOrigins: origins,
    allowedHosts: hosts,
    media,
    dispatch,
    hub,
    intake: services.intake,
    tempDir: join(options.dataDir ?? tmpdir(), 'tmp-uploads'),
  });

  let handleRequest: Parameters<LaunchListener['handOver']>[0] = () => undefined;
  const app: FastifyInstance = Fastify({
    logger: false,
    schemaController: NO_SCHEMAS,
    // Fastify's routing on the socket already bound; it is handed over once the routes are ready.
    serverFactory: (handler) => {
      handleRequest = handler;
      return listener.server;
    },
  });
  // Only our own host names: a DNS-rebinding page under another name gets nothing.
  app.addHook('onRequest', async (request, reply) => {
    if (!hosts().includes(request.headers.host ?? '')) {
      return reply.code(421).send('Misdirected request');
    }
  });
  const files = new StaticFiles(options.rendererDir);
  const csp = contentSecurityPolicy({
    connect: [`ws://127.0.0.1:${port}`, `ws://localhost:${port}`],
    scripts: files.earlyScriptHashes,
  });
  app.addHook('onSend', async (_request, reply) => {
    // /media answers carry their own, stricter policy (electron/media/media-proxy.ts).
    if (!reply.hasHeader('content-security-policy')) reply.header('content-security-policy', csp);
    for (const [name, value] of Object.entries(SECURITY_HEADERS)) reply.header(name, value);
  });
  const pageScriptsSent = new Set<StaticFile>();
  const allScriptsSent = () => pageScriptsSent.size >= files.pageScripts;
  // The page's first screen is part of what it needs before the sessions start.
  const firstScreen = registerFirstScreenRoute(app, {
    secret: () => secret,
    screens: services.firstScreens,
    pageAsks: files.earlyScriptHashes.length > 0,
    onAnswered: () => allScriptsSent() && startSessionsForPage(),
    after: options.firstScreenAfter,
    pageToken: listener.pageToken,
  });
  if (files.hasIndex) {
    const serve = async (request: FastifyRequest, reply: FastifyReply, path: string) => {
      const answer = await files.answer(path, request.headers['if-none-match']);
      if (answer.status === 404) return reply.code(404).type('text/plain').send('Not Found');
      const { file } = answer;
      if (path === '/') {
        reply.raw.once('finish', () => logTiming('page-sent'));
        const screens = firstScreen.inPage(request, reply);
        // The account's own screens: never kept by the browser, never a 304 for another page.
        if (screens) {
          reply.header('cache-control', 'no-store');
          return reply.type(file.contentType).send(files.pageWith(screens));
        }
      }
      // The browser parses and runs the page's scripts for a while after they arrive: time the
      // sessions' synchronous start can take without holding up the page's files. So once every
      // script the page names has gone (a 1 KB entry goes first, and its chunks after it would
      // wait), or any other script (the page already runs).
      if (file.contentType.startsWith('text/javascript')) {
        reply.raw.once('finish', () => {
          if (file.pageScript) pageScriptsSent.add(file);
          if (!file.pageScript || (allScriptsSent() && firstScreen.settled)) startSessionsForPage();
        });
      }
      reply.header('cache-control', file.cacheControl).header('etag', file.etag);
      if (answer.status === 304) return reply.code(304).send();
      return reply.type(file.contentType).send(file.body);
    };
    app.get('/*', (request, reply) => serve(request, reply, request.url.split(/[?#]/)[0]));
    // Browsers ask for /favicon.ico whatever the page links (bookmarks, history): the app's icon.
    app.get('/favicon.ico', (request, reply) => serve(request, reply, '/favicon.svg'));
  } else {
    app.get('/', async (_request, reply) =>
      reply.type('text/plain').send('The renderer is not built: run npm run build'),
    );
  }
  // Realm images and files, fetched by main with the account's credentials. The page proves it is
  // ours with the media cookie the bridge handshake set (media-credential.ts), and the browser
  // says the request comes from our own origin: a page on another loopback port is same-site, so
  // SameSite alone would let its <img> tags send the cookie.
  const mediaAllowed = (request: FastifyRequest) => {
    const site = request.headers['sec-fetch-site'];
    if (site !== undefined && site !== 'same-origin') return false;
    return media.accepts(readCookie(request.headers.cookie, MEDIA_COOKIE));
  };
  app.get<{ Params: { accountId: string; '*': string } }>(
    '/media/:accountId/*',
    async (request, reply) => {
      if (!mediaAllowed(request)) return reply.code(401).send('Unauthorized');
      const query = request.url.includes('?') ? request.url.slice(request.url.indexOf('?')) : '';
      const upstream = await services.fetchMedia(
        request.params.accountId,
        `${request.params['*']}${query}`,
        undefined,
        request.headers.range,
      );
      reply.code(upstream.status);
      upstream.headers.forEach((value, name) => reply.header(name, value));
      return reply.send(upstream.body ? Buffer.from(await upstream.arrayBuffer()) : null);
    },
  );
  registerMeetingAudioRoute(app, services.manifests.media, mediaAllowed);
  // A page of this launch asks it to import what pages of an earlier one left sealed in cookies.
  // Only our own pages may ask (a page on another loopback port is same-site, not same-origin).
  app.post(UNSENT_HANDOVER_PATH, async (request, reply) => {
    const site = request.headers['sec-fetch-site'];
    if (site !== undefined && site !== 'same-origin') return reply.code(403).send('Forbidden');
    const { handedOver, clear } = await importUnsent(request.headers.cookie, secrets, dispatch);
    if (clear.length) reply.header('set-cookie', clearingCookies(clear));
    return { handedOver };
  });
  await app.ready();
  // With no account, the page's files are served by now and main waits for a sign-in (a first
  // launch's, once its realm listens): the HTTP client is made ready meanwhile, off that path.
  let warmed = false;
  const warmForSignIn = () => {
    if (warmed || services.accounts.list().length > 0) return;
    warmed = true;
    setImmediate(warmHttpClient);
  };
  logTiming('host-ready');
  listener.handOver(handleRequest, (request, socket, head) => {
    startSessionsForPage();
    bridge.handleUpgrade(request, socket, head);
    warmForSignIn();
  });
  // Before the page asks for its first screen (after what waited for the host: the page itself).
  setImmediate(() => services.firstScreens.readActive());
  // Secrets whose pages' sealed leftovers this launch opens (unsent-handover.ts).
  let secrets = [secret];
  if (options.resumeLastLaunch && options.dataDir) {
    const record = writeLaunchRecord(options.dataDir, { port, secret }, last);
    secrets = [secret, ...(record.earlierSecrets ?? [])];
  }
  await options.beforeServicesStart?.(services);
  let sessionsStarting = false;
  const startSessions = () => {
    if (sessionsStarting) return;
    sessionsStarting = true;
    logTiming('sessions-start');
    clearTimeout(withoutPage);
    // In turns: the page's files and its bridge handshake are answered between them.
    void services
      .startInTurns()
      .catch((error: unknown) => console.error('Tributary: starting the accounts failed', error))
      .then(markSessionsStarted);
  };
  // A turn later: the answer being sent (the script, the bridge's handshake) goes out first.
  startSessionsForPage = () => setImmediate(startSessions);
  const withoutPage = options.startSessionsAfterUrl
    ? setTimeout(startSessions, SESSIONS_WITHOUT_PAGE_MS)
    : undefined;
  if (!options.startSessionsAfterUrl || pageAsked) {
    startSessions();
    await sessionsStarted;
  }

  return {
    url: launchUrl(listener),
    port,
    secret,
    services,
    hub,
    startSessions,
    disconnectPages: () => bridge.disconnectAll(),
    async close() {
      clearTimeout(withoutPage);
      bridge.close();
      await services.stop();
      await app.close();
      // Fastify leaves a server it did not make listen to whoever made it.
      await listener.close();
    },
  };
}

function readCookie(header: string | undefined, name: string): string | null {
  for (const part of (header ?? '').split(';')) {
    const [key, ...value] = part.trim().split('=');
    if (key === name) return decodeURIComponent(value.join('='));
  }
  return null;
}
