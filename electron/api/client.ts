// The chat API client: plain Node fetch, usable from the main process, the browser-mode host, tests
// and benchmarks. It is driven by the endpoint table (shared/api/endpoints.ts), attaches HTTP Basic
// credentials, enforces timeouts, retries idempotent requests with backoff, waits out 429s as the
// server asks, and turns a 401 into one `onUnauthorized` signal rather than a retry storm.
import type { Endpoint, ErrorEnvelope } from '../../shared/api/endpoints';
import { paramEntries } from '../../shared/api/param-entries';
import { toPublicRequest } from '../../shared/api/public-names';
import { wireNarrow, type NarrowTerm } from '../../shared/narrow/narrow';
import { ApiError } from './errors';
import { backoffDelay, sleep } from './backoff';

export interface Credentials {
  email: string;
  apiKey: string;
}

export interface ApiClientOptions {
  /** The realm's base URL, e.g. http://127.0.0.1:9991 (the client appends /api/v1). */
  site: string;
  credentials?: Credentials;
  /** Default per-request timeout. */
  timeoutMs?: number;
  /** Retries for idempotent requests after network errors, timeouts and 5xx. */
  maxRetries?: number;
  /** Longest 429 wait honoured before giving up with RATE_LIMIT_HIT. */
  maxRetryAfterMs?: number;
  /** Called once per 401 so the account can be marked signed out. */
  onUnauthorized?: (error: ApiError) => void;
  userAgent?: string;
  fetch?: typeof fetch;
  /** The server's zulip_feature_level once known: narrows use the names that level knows. */
  featureLevel?: () => number | undefined;
}

export interface CallOptions {
  signal?: AbortSignal;
  timeoutMs?: number;
  /** Overrides the endpoint's idempotency (e.g. false to never retry a long poll here). */
  retry?: boolean;
  /** false: surface a 429 at once (the event loop shows its own backoff state). Default true. */
  waitOnRateLimit?: boolean;
  /** Given the body's text as the server sent it, when the call succeeds (see session.onSnapshot). */
  onText?: (text: string) => void;
}

/**
 * Loads what the HTTP client's first request would: Node makes fetch's implementation (undici) on
 * its first use, 50-120 ms of one task here. Called where main waits with nothing else to do, so a
 * first request on a waiting path (a first launch's register) does not pay it.
 */
export function warmHttpClient(): void {
  void new Headers();
}

export function normalizeSite(site: string): string {
  const url = new URL(site.trim());
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new ApiError('server', 'BAD_REQUEST', `Unsupported server URL scheme: ${url.protocol}`);
  }
  // zuliprc files and users sometimes give the API root; the client adds /api/v1 itself.
  const path = url.pathname.replace(/\/+$/, '').replace(/\/api(\/v1)?$/, '');
  return `${url.origin}${path}`;
}

/** Form and query encoding: strings as they are, everything else JSON-encoded (api-notes, conventions). */
export function encodeParams(params: Record<string, unknown>): URLSearchParams {
  return new URLSearchParams(paramEntries(params));
}

/**
 * An endpoint's path with its parameters filled in: `{name}` percent-encoded, `{+name}` as given
 * (RFC 6570's reserved expansion, for a parameter that is itself a path the caller has checked,
 * such as an upload's `path_id`: its slashes and percent-escapes must reach the server unchanged).
 */
export function fillPath(
  path: string,
  params: Record<string, unknown>,
): { path: string; rest: Record<string, unknown> } {
  const rest = { ...params };
  const filled = path.replace(/\{(\+?)(\w+)\}/g, (_match, reserved: string, name: string) => {
    const value = rest[name];
    if (value === undefined || value === null) {
      throw new ApiError('server', 'BAD_REQUEST', `Missing path parameter ${name}`);
    }
    delete rest[name];
    return reserved ? String(value) : encodeURIComponent(String(value));
  });
  return { path: filled, rest };
}

/**
 * A request as every server reads it: the public API's names (shared/api/public-names.ts) and a
 * `narrow` in the form every feature level accepts.
 */
export function wireRequest(
  path: string,
  params: Record<string, unknown>,
  featureLevel?: number,
): { path: string; params: Record<string, unknown> } {
  const request = toPublicRequest(path, params);
  const narrow = request.params.narrow;
  if (
    Array.isArray(narrow) &&
    narrow.every((t) => t !== null && typeof t === 'object' && !Array.isArray(t))
  ) {
    request.params.narrow = wireNarrow(narrow as NarrowTerm[], featureLevel);
  }
  return request;
}

/** Node's socket error codes in the words the connection banner shows (the code itself otherwise). */
const NETWORK_CAUSES: Record<string, string> = {
  ECONNREFUSED: 'nothing is answering there',
  ECONNRESET: 'the connection was cut',
  ENOTFOUND: 'no server by that name',
  EAI_AGAIN: 'the server name could not be looked up',
  ETIMEDOUT: 'the connection timed out',
  EHOSTUNREACH: 'the server cannot be reached from this network',
  ENETUNREACH: 'this computer is not connected to a network',
  UND_ERR_SOCKET: 'the connection was cut',
  UND_ERR_CONNECT_TIMEOUT: 'the connection timed out',
};

export class ApiClient {
  readonly site: string;
  private credentials: Credentials | undefined;
  private readonly options: Required<
    Pick<ApiClientOptions, 'timeoutMs' | 'maxRetries' | 'maxRetryAfterMs'>
  > &
    ApiClientOptions;

  constructor(options: ApiClientOptions) {
    this.site = normalizeSite(options.site);
    this.credentials = options.credentials;
    this.options = { timeoutMs: 30_000, maxRetries: 3, maxRetryAfterMs: 120_000, ...options };
  }

  get apiBase(): string {
    return `${this.site}/api/v1`;
  }

  setCredentials(credentials: Credentials | undefined): void {
    this.credentials = credentials;
  }

  /** The Authorization header value; only main-process code ever sees it. */
  authorizationHeader(): string | undefined {
    if (!this.credentials) return undefined;
    const token = Buffer.from(`${this.credentials.email}:${this.credentials.apiKey}`).toString(
      'base64',
    );
    return `Basic ${token}`;
  }

  async call<P, R>(endpoint: Endpoint<P, R>, params: P, callOptions: CallOptions = {}): Promise<R> {
    const retryable = callOptions.retry ?? endpoint.idempotent;
    let attempt = 0;
    for (;;) {
      try {
        return await this.once(endpoint, params as Record<string, unknown>, callOptions);
      } catch (error) {
        if (!(error instanceof ApiError)) throw error;
        if (error.kind === 'rate_limited') {
          if (callOptions.waitOnRateLimit === false) throw error;
          const waitMs = retryAfterMs(error);
          if (waitMs > this.options.maxRetryAfterMs || attempt >= this.options.maxRetries) {
            throw error;
          }
          attempt += 1;
          await sleep(waitMs, callOptions.signal);
          continue;
        }
        if (!retryable || !error.ambiguous || attempt >= this.options.maxRetries) throw error;
        await sleep(backoffDelay(attempt), callOptions.signal);
        attempt += 1;
      }
    }
  }

  private async once(
    endpoint: Endpoint<unknown, unknown>,
    params: Record<string, unknown>,
    callOptions: CallOptions,
  ): Promise<never> {
    const request = wireRequest(endpoint.path, params ?? {}, this.options.featureLevel?.());
    const { path, rest } = fillPath(request.path, request.params);
    const encoded = encodeParams(rest);
    const hasBody = endpoint.method !== 'GET' && endpoint.method !== 'DELETE';
    const query = !hasBody && [...encoded.keys()].length > 0 ? `?${encoded}` : '';
    const headers: Record<string, string> = { accept: 'application/json' };
    if (this.options.userAgent) headers['user-agent'] = this.options.userAgent;
    if (endpoint.auth) {
      const authorization = this.authorizationHeader();
      if (!authorization) throw new ApiError('auth', 'UNAUTHORIZED', 'No credentials for account');
      headers.authorization = authorization;
    }
    if (hasBody) headers['content-type'] = 'application/x-www-form-urlencoded';
    const { response, text } = await this.fetchWithTimeout(
      `${this.apiBase}${path}${query}`,
      { method: endpoint.method, headers, body: hasBody ? encoded.toString() : undefined },
      callOptions,
    );
    const answer = this.answerOf(response, text);
    callOptions.onText?.(text);
    return answer as never;
  }

  /**
   * A multipart request (a file travels as one part) with the account's credentials, answered as
   * call() answers: the body on success, an ApiError otherwise.
   */
  async sendForm(
    method: 'POST' | 'PATCH',
    path: string,
    form: FormData,
  ): Promise<Record<string, unknown>> {
    const authorization = this.authorizationHeader();
    if (!authorization) throw new ApiError('auth', 'UNAUTHORIZED', 'No credentials for account');
    const { response, text } = await this.fetchWithTimeout(`${this.apiBase}${path}`, {
      method,
      headers: { authorization, accept: 'application/json' },
      body: form,
    });
    return this.answerOf(response, text) as Record<string, unknown>;
  }

  /**
   * fetch with the client timeout and the caller's abort signal combined, and the body read as
   * text under the same timeout. The text is handed on as it is: a large organization's register
   * (7 MB) was otherwise encoded into a new Response and decoded from it again before its parse.
   */
  async fetchWithTimeout(
    url: string,
    init: RequestInit,
    callOptions: CallOptions = {},
  ): Promise<{ response: Response; text: string }> {
    const timeoutMs = callOptions.timeoutMs ?? this.options.timeoutMs;
    const timeout = new AbortController();
    const timer = setTimeout(() => timeout.abort(), timeoutMs);
    const signal = callOptions.signal
      ? AbortSignal.any([callOptions.signal, timeout.signal])
      : timeout.signal;
    try {
      const response = await (this.options.fetch ?? fetch)(url, { ...init, signal });
      // Read the body under the same timeout: a server can stall after the headers.
      const text = await response.text();
      return { response, text };
    } catch (error) {
      if (callOptions.signal?.aborted) {
        throw new ApiError('aborted', 'ABORTED', 'Request cancelled');
      }
      if (timeout.signal.aborted) {
        throw new ApiError('timeout', 'REQUEST_TIMEOUT', `No answer within ${timeoutMs} ms`);
      }
      const cause = (error as { cause?: { code?: string } }).cause;
      const code = cause?.code ?? (error as Error).message;
      throw new ApiError(
        'network',
        'NETWORK_ERROR',
        `Could not reach ${this.site}: ${NETWORK_CAUSES[code] ?? code}`,
      );
    } finally {
      clearTimeout(timer);
    }
  }

  async readResponse(response: Response): Promise<unknown> {
    return this.answerOf(response, await response.text());
  }

  /** The body on success; otherwise the ApiError the status and the error envelope say. */
  private answerOf(response: Response, text: string): unknown {
    let body: Record<string, unknown> | null;
    try {
      body = text ? (JSON.parse(text) as Record<string, unknown>) : null;
    } catch {
      body = null; // not JSON: a proxy's error page, a truncated answer
    }
    if (response.ok && body && body.result !== 'error') return body;

    const envelope = body as Partial<ErrorEnvelope> | null;
    const code =
      envelope?.code ?? (response.status === 429 ? 'RATE_LIMIT_HIT' : `HTTP_${response.status}`);
    const msg = envelope?.msg ?? `HTTP ${response.status} from ${this.site}`;
    if (response.status === 401) {
      const error = new ApiError('auth', code, msg, 401, body);
      this.options.onUnauthorized?.(error);
      throw error;
    }
    if (response.status === 429) {
      const header = response.headers.get('retry-after');
      const fromBody = body?.['retry-after'];
      const error = new ApiError('rate_limited', code, msg, 429, {
        ...(body ?? {}),
        'retry-after': header !== null ? Number(header) : Number(fromBody ?? 1),
      });
      throw error;
    }
    throw new ApiError('server', code, msg, response.status, body);
  }
}

export function retryAfterMs(error: ApiError): number {
  const seconds = Number(error.body?.['retry-after']);
  return Number.isFinite(seconds) && seconds >= 0 ? seconds * 1000 : 1000;
}
