/**
 * A small fault-injecting HTTP proxy in front of the real local realm server. Requests pass through
 * unchanged unless a rule matches; each rule fires `times` times (default once) and then retires.
 *
 *   const proxy = await startFaultProxy(() => server.url);
 *   proxy.inject({ path: '/api/v1/events', action: { status: 429, headers: { 'retry-after': '0.2' }, body: {...} } });
 *   proxy.inject({ path: '/api/v1/messages', method: 'POST', action: 'drop-response' }); // forwards, then cuts the answer
 *   await proxy.refuseConnections();  // closes the listening socket: connection refused
 *   await proxy.acceptConnections();  // listens again on the same port
 *   proxy.clearRules();                // every rule retired
 *   proxy.inject({ path: '/api/v1/*', when: (method, path) => …, action: 'drop-response',
 *                  onFire: () => app.kill() }); // a crash after the server acted, before the answer
 *
 * The target is read per request, so a restarted server (new port) stays reachable through the proxy.
 */
import {
  createServer,
  request,
  type IncomingMessage,
  type Server,
  type ServerResponse,
} from 'node:http';
import type { Socket } from 'node:net';

export type FaultAction =
  | {
      status: number;
      headers?: Record<string, string>;
      /** The answer's JSON, or a function of the request's query (e.g. to answer with the next event id). */
      body?: unknown;
      bodyFor?: (query: URLSearchParams) => unknown;
    }
  | { delayMs: number }
  | 'drop-request' // close the connection without forwarding
  | 'drop-response'; // forward, let the server act, then cut the connection before the answer

export interface FaultRule {
  /** Exact path, or a prefix when it ends with '*'. */
  path: string;
  method?: string;
  /** Further choice among the matching requests (called once per matching request). */
  when?: (method: string, path: string) => boolean;
  action: FaultAction;
  times?: number;
  /**
   * A crash to go with the fault (a process killed): awaited when the rule fires, before a request
   * is dropped, or once the server has answered and before that answer is cut.
   */
  onFire?: () => Promise<void> | void;
}

export interface FaultProxy {
  readonly url: string;
  readonly port: number;
  inject(rule: FaultRule): void;
  /** Retires every rule: requests pass through unchanged again. */
  clearRules(): void;
  /** Requests seen, as "METHOD /path" (query left out). */
  readonly log: string[];
  /** The same requests with their query strings. */
  readonly fullLog: string[];
  refuseConnections(): Promise<void>;
  acceptConnections(): Promise<void>;
  close(): Promise<void>;
}

export async function startFaultProxy(target: () => string): Promise<FaultProxy> {
  const rules: Array<FaultRule & { remaining: number }> = [];
  const log: string[] = [];
  const fullLog: string[] = [];
  const sockets = new Set<Socket>();
  let server: Server | undefined;
  let port = 0;

  const forward = (req: IncomingMessage, res: ServerResponse, onAnswer?: () => void) => {
    const base = new URL(target());
    const upstream = request(
      {
        host: base.hostname,
        port: base.port,
        method: req.method,
        path: req.url,
        headers: { ...req.headers, host: base.host },
      },
      (answer) => {
        if (onAnswer) {
          answer.resume();
          answer.on('end', onAnswer);
          return;
        }
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    // Unreachable: cut as any answer would have been (a crash waiting on the answer happens now).
    upstream.on('error', () => (onAnswer ? onAnswer() : res.destroy()));
    req.pipe(upstream);
    res.on('close', () => upstream.destroy());
  };

  const handle = (req: IncomingMessage, res: ServerResponse) => {
    const path = (req.url ?? '/').split('?')[0];
    log.push(`${req.method} ${path}`);
    fullLog.push(`${req.method} ${req.url}`);
    const rule = rules.find(
      (candidate) =>
        candidate.remaining > 0 &&
        (candidate.path.endsWith('*')
          ? path.startsWith(candidate.path.slice(0, -1))
          : path === candidate.path) &&
        (!candidate.method || candidate.method === req.method) &&
        (!candidate.when || candidate.when(req.method ?? 'GET', path)),
    );
    if (!rule) return forward(req, res);
    rule.remaining -= 1;
    const { action } = rule;
    const fire = async () => rule.onFire?.();
    if (action === 'drop-request') {
      req.resume();
      return void fire().finally(() => req.socket.destroy());
    }
    if (action === 'drop-response')
      return forward(req, res, () => void fire().finally(() => req.socket.destroy()));
    if ('delayMs' in action) {
      const timer = setTimeout(() => forward(req, res), action.delayMs);
      res.on('close', () => clearTimeout(timer));
      return;
    }
    req.resume();
    res.writeHead(action.status, { 'content-type': 'application/json', ...action.headers });
    const body = action.bodyFor
      ? action.bodyFor(new URL(req.url ?? '/', 'http://proxy').searchParams)
      : action.body;
    res.end(body === undefined ? '' : JSON.stringify(body));
  };

  const listen = () =>
    new Promise<void>((resolve, reject) => {
      if (server?.listening) return resolve(); // already accepting
      const next = createServer(handle);
      next.on('connection', (socket) => {
        sockets.add(socket);
        socket.on('close', () => sockets.delete(socket));
      });
      next.once('error', reject);
      next.listen(port, '127.0.0.1', () => {
        server = next;
        const address = next.address();
        port = typeof address === 'object' && address ? address.port : port;
        resolve();
      });
    });
  const stop = () =>
    new Promise<void>((resolve) => {
      for (const socket of sockets) socket.destroy();
      if (!server?.listening) return resolve();
      server.close(() => resolve());
    });

  // Below Linux's ephemeral range (32768-60999): when the proxy stops listening to simulate a refused
  // connection, no outgoing socket can take its port before it listens again.
  for (let attempt = 0; ; attempt += 1) {
    port = 20_000 + Math.floor(Math.random() * 10_000);
    try {
      await listen();
      break;
    } catch (error) {
      if ((error as { code?: string }).code !== 'EADDRINUSE' || attempt > 20) throw error;
    }
  }
  return {
    get url() {
      return `http://127.0.0.1:${port}`;
    },
    get port() {
      return port;
    },
    log,
    fullLog,
    inject(rule) {
      rules.push({ ...rule, remaining: rule.times ?? 1 });
    },
    clearRules() {
      rules.length = 0;
    },
    refuseConnections: stop,
    acceptConnections: listen,
    close: stop,
  };
}
