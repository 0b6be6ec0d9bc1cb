// The browser-mode host's listening socket, bound before the host exists. The launcher binds it
// first thing (scripts/launch-early.mjs) and prints its URL, so the browser makes its tab while
// the start bundle loads; requests and WebSocket upgrades that arrive meanwhile wait here, untouched,
// and go to the host's own handlers (Host check, CSP, security headers, the bridge's checks) the
// moment the host takes the socket over (`handOver`). Nothing else ever answers them. The host
// binds through here too when nothing bound early (tests, scripts/start.ts run by tsx), so the
// port and secret follow one set of rules. Plain JavaScript: it runs before any transpiler loads.
import { createServer } from 'node:http';
import { newSecret, readLaunchRecord } from './launch-record-file.mjs';

/**
 * The query parameter of the launch URL's page token: the page's own request (GET /) carries it,
 * so the host may put the kept first screen in the page itself (first-screen-route.ts), which the
 * fragment's secret cannot do (the browser never sends a fragment).
 */
export const PAGE_TOKEN_PARAM = 'screen';

/** The URL a launch prints and opens: its page token in the query, its bridge secret in the fragment. */
export function launchUrl({ port, secret, pageToken }) {
  return `http://127.0.0.1:${port}/?${PAGE_TOKEN_PARAM}=${pageToken}#secret=${secret}`;
}

/**
 * Listens on 127.0.0.1: on `port` if given; else, with `resumeLastLaunch`, on the last launch's
 * port with its secret (launch-record.ts), and when that port is taken by something else on a
 * fresh port with a fresh secret; else on a fresh port with a fresh secret.
 */
export async function listenForLaunch({ port = 0, dataDir, resumeLastLaunch = false }) {
  const last = resumeLastLaunch && dataDir ? readLaunchRecord(dataDir) : null;
  let secret = last?.secret ?? newSecret();
  const server = createServer();
  const waiting = [];
  const waitRequest = (request, response) => waiting.push({ request, response });
  // Node destroys an upgrade's socket when nobody listens for it: it is held instead.
  const waitUpgrade = (request, socket, head) => waiting.push({ request, socket, head });
  server.on('request', waitRequest);
  server.on('upgrade', waitUpgrade);
  try {
    await listen(server, port || last?.port || 0);
  } catch (error) {
    if (!last || port || error?.code !== 'EADDRINUSE') throw error;
    secret = newSecret();
    await listen(server, 0);
  }
  return {
    server,
    port: server.address().port,
    secret,
    // Per launch, never kept (unlike the secret, which a resumed launch reuses): a URL printed by
    // an earlier launch, or this one's reloaded, gets the page without the screen.
    pageToken: newSecret(),
    last,
    handOver(onRequest, onUpgrade) {
      // The start-up benches (bench/startup/launch-process.ts) read when this happened, on the
      // launcher's clock (ms since its process started), and how much had waited for it.
      if (process.env.TRIBUTARY_LAUNCH_TIMES) {
        const at = Math.round(performance.now());
        console.error(
          `tributary-launch: host took the socket over at ${at} ms, ${waiting.length} waiting`,
        );
      }
      server.off('request', waitRequest);
      server.off('upgrade', waitUpgrade);
      server.on('request', onRequest);
      server.on('upgrade', onUpgrade);
      for (const held of waiting.splice(0)) {
        if (held.socket) onUpgrade(held.request, held.socket, held.head);
        else onRequest(held.request, held.response);
      }
    },
    /** Stops listening and drops every connection: the launch is ending. */
    close() {
      return new Promise((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
        for (const held of waiting.splice(0)) (held.socket ?? held.response).destroy();
      });
    },
  };
}

function listen(server, port) {
  return new Promise((resolve, reject) => {
    const failed = (error) => reject(error);
    server.once('error', failed);
    server.listen(port, '127.0.0.1', () => {
      server.off('error', failed);
      resolve();
    });
  });
}
