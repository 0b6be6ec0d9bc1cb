// GET /first-screen?key=<launch key>: the page's early script (renderer/first-screen.ts) asks for the
// last screen to show while the app loads. The launch's secret lives in the URL's fragment, which the
// browser never sends, so the script sends it in a header; only our own origin may ask (a page on
// another loopback port is same-site, not same-origin). Answered from main's store at once: it never
// waits for the accounts' sessions, and the host counts it among what the page needs before they
// start (host.ts).
// Sooner still, the page itself can carry the screens (`inPage`): the launch URL's query holds a
// one-time page token (early-listener.mjs), and the page request that first brings it gets the
// active account's screens in a non-executing element, which the early script reads as the parser
// reaches it: no round trip after the parse. The token stands in for the secret the route asks:
// without it (a reload, another launch's URL, any other program on this machine) the page carries
// nothing and the early script asks this route as before.
import { timingSafeEqual } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { firstScreenLaunchKey } from '../../shared/ipc/first-screen';
import {
  FIRST_SCREEN_ELEMENT_ID,
  FIRST_SCREEN_PATH,
  FIRST_SCREEN_SECRET_HEADER,
} from '../../shared/ipc/wire';
import { PAGE_TOKEN_PARAM } from './early-listener.mjs';
import type { FirstScreenStore, KeptFirstScreen } from '../first-screen/first-screen-store';
import { logTiming } from '../timing';

export interface FirstScreenRoute {
  /**
   * Whether the page has what it asks of this route: a page has been answered (or refused) since
   * the host started, or the page has no early script (a build without it) and will not ask.
   */
  readonly settled: boolean;
  /**
   * For the page's own request (GET /): the element that carries the active account's screens
   * into the page, when the request holds this launch's page token, unused until now, from a
   * navigation of the browser's own; '' otherwise (the early script then asks the route). The
   * page that carries it counts as answered once it has gone out.
   */
  inPage(request: FastifyRequest, reply: FastifyReply): string;
}

export function registerFirstScreenRoute(
  app: FastifyInstance,
  options: {
    secret: () => string;
    screens: FirstScreenStore;
    /** Whether the page has the early script, which asks (StaticFiles.earlyScriptHashes). */
    pageAsks: boolean;
    /** Called once the first answer has gone out. */
    onAnswered?: () => void;
    /**
     * Settles once the store holds what this launch's page may be given (a first launch's sign-in
     * from the build's seed, which stores the build's screens: docs/first-screen.md): a page that
     * asks sooner is answered then, or after WAIT_AT_MOST_MS, not with nothing at once.
     */
    after?: Promise<unknown>;
    /** This launch's one-time page token (early-listener.mjs); none: no page carries screens. */
    pageToken?: string;
  },
): FirstScreenRoute {
  let settled = !options.pageAsks;
  let answeredOnce = false;
  const answered = () => {
    if (answeredOnce) return;
    answeredOnce = settled = true;
    options.onAnswered?.();
  };
  // The page is not held for a first launch's sign-in: until it has run the route answers.
  let afterSettled = !options.after;
  options.after?.then(
    () => (afterSettled = true),
    () => (afterSettled = true),
  );
  let pageToken = options.pageToken;
  const route: FirstScreenRoute = {
    get settled() {
      return settled;
    },
    inPage(request, reply) {
      const given = (request.query as Record<string, unknown>)[PAGE_TOKEN_PARAM];
      const site = request.headers['sec-fetch-site'];
      const dest = request.headers['sec-fetch-dest'];
      if (!pageToken || !options.pageAsks || typeof given !== 'string') return '';
      // Opened by the browser (an address it was given: 'none') or reloaded by our own page; never
      // a frame or a fetch, nor a navigation another site started.
      if (site !== undefined && site !== 'none' && site !== 'same-origin') return '';
      if (dest !== undefined && dest !== 'document') return '';
      if (!sameSecret(given, pageToken)) return '';
      pageToken = undefined;
      if (!afterSettled) return '';
      logTiming('first-screen-in-page');
      reply.raw.once('finish', answered);
      return screensElement(options.screens.takeAll());
    },
  };
  app.get(FIRST_SCREEN_PATH, async (request, reply) => {
    logTiming('first-screen-asked');
    reply.raw.once('finish', () => {
      logTiming('first-screen-answered');
      answered();
    });
    reply.header('cache-control', 'no-store');
    const site = request.headers['sec-fetch-site'];
    if (site !== undefined && site !== 'same-origin') return reply.code(403).send('Forbidden');
    if (!sameSecret(request.headers[FIRST_SCREEN_SECRET_HEADER], options.secret())) {
      return reply.code(401).send('Unauthorized');
    }
    const key = firstScreenLaunchKey.safeParse((request.query as { key?: unknown }).key ?? '');
    if (!key.success) return reply.code(400).send('Bad launch key');
    if (options.after) await atMost(options.after, WAIT_AT_MOST_MS);
    const screen = options.screens.take(key.data);
    if (!screen) return reply.code(204).send();
    return reply.type('application/json; charset=utf-8').send(JSON.stringify(screen));
  });
  return route;
}

/**
 * A non-executing script element (no CSP applies to it) with the screens as JSON; every '<' escaped,
 * so neither the markup they hold nor anything else can end the element early.
 */
function screensElement(screens: KeptFirstScreen[]): string {
  const json = JSON.stringify(screens).replaceAll('<', '\\u003c');
  return `<script type="application/json" id="${FIRST_SCREEN_ELEMENT_ID}">${json}</script>`;
}

/** A first launch signs in within milliseconds of the host taking the socket; never wait longer. */
const WAIT_AT_MOST_MS = 2_000;

function atMost(settles: Promise<unknown>, ms: number): Promise<unknown> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  return Promise.race([
    settles.catch(() => undefined),
    new Promise((resolve) => (timer = setTimeout(resolve, ms))),
  ]).finally(() => clearTimeout(timer));
}

function sameSecret(given: string | string[] | undefined, secret: string): boolean {
  if (typeof given !== 'string') return false;
  const a = Buffer.from(given);
  const b = Buffer.from(secret);
  return a.length === b.length && timingSafeEqual(a, b);
}
